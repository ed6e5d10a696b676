import FlickMotion
import FlickScene
import FlickTemplates
import FlickVideo

extension Flick.Render {
  /// The observer that starts `flick render`'s encoders as soon as the template's canvas is
  /// decoded (``EarlyEncoders``), so ffmpeg starts while the layers and the timeline compile;
  /// nil when no output's encoder can start before the scene is complete, or for `--dry-run`.
  ///
  /// The encoders start only when the output size, the pixel cap, the encoders' size limits and
  /// the output paths pass their checks, after the interruption handler is installed (as for a
  /// render's own start). The output folders' stale temporaries are removed later, once, by the
  /// render's own start: listing a folder of 10,000 files takes about 5 ms, which here would
  /// delay ffmpeg's start, and an encoder's temporary carries this process's PID, which
  /// ``Cleanup/removeStale(in:)`` leaves alone. An option that fails to parse here
  /// starts nothing: the render reports it as before. The render takes over each encoder started
  /// with exactly the settings it needs (``RenderSession/run(early:beforeFirstFrame:progress:)``);
  /// the caller stops the rest with ``EarlyEncoders/abortUnclaimed()`` on every path.
  static func earlyStart(
    _ a: Arguments, targets: [OutputTarget], options: EncodingOptions, probe: FFmpegTool.Probe?,
    into early: EarlyEncoders
  ) -> DecodeObserver? {
    guard !a.has("dry-run"), targets.contains(where: { EarlyEncoders.canStartEarly($0.format) }),
      let ffmpeg = try? probe?.unchecked(), let limits = try? Flick.Limits.render(a)
    else { return nil }
    let background = a.value("background")
    return DecodeObserver(canvas: { canvas in
      var scene = canvas
      if let background {
        guard let color = try? Flick.backgroundColor(background) else { return }
        scene.backgroundColor = color
      }
      guard let scale = try? outputScale(a, canvas: scene.size, evenSides: evenSides(targets, a)) else { return }
      Interruption.install()
      var session = RenderSession(scene: scene, outputs: targets, scale: scale, options: options)
      session.limits = limits
      session.startEncoders(into: early, ffmpeg: ffmpeg)
    })
  }
}
