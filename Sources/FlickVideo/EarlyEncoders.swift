import FlickMotion

/// ffmpeg encoders started before the scene is complete: `flick render` starts one for each MP4,
/// WebM, MOV, APNG or WebP output as soon as the template's canvas is decoded (its size, rate and
/// background are all an encoder's command needs), so ffmpeg's start-up runs while the rest of
/// the template compiles. ``RenderSession/run(early:beforeFirstFrame:progress:)`` takes over each
/// one whose settings are exactly those it would start it with; any other one it stops, and
/// starts its own, so the output's bytes never depend on what was started early.
///
/// An encoder not taken over is stopped (killed and reaped) and its temporary file removed by
/// ``abortUnclaimed()``, which the caller runs on every path (a template error after ffmpeg
/// started leaves nothing behind).
package final class EarlyEncoders: Sendable {
  /// What an encoder was started for: equal settings give the same command, so the same bytes.
  package struct Settings: Equatable, Sendable {
    var destination: String
    var format: OutputFormat
    var width: Int
    var height: Int
    /// Frames per second on ffmpeg's input.
    var fps: Int
    /// With ``EncodingOptions/padColor`` set from the scene's background.
    var options: EncodingOptions
    var stallTimeout: Double?
  }

  private struct Started {
    var settings: Settings
    var sink: FFmpegSink
  }

  /// The encoders started and not yet taken over, by output index.
  private let started = Locked<[Int: Started]>([:])

  package init() {}

  /// Whether `format` can start before the scene is complete: its encoder takes every rendered
  /// frame at the render's rate (a GIF's rate and passes depend on the frame schedule).
  package static func canStartEarly(_ format: OutputFormat) -> Bool {
    format.usesFFmpeg && format != .gif
  }

  /// Starts an encoder for each output that ``canStartEarly(_:)``, for frames of `width ×
  /// height` pixels at `fps`. An encoder that cannot start is skipped (the render starts it
  /// again and reports why it failed).
  ///
  /// - Parameter options: The encoder settings, with ``EncodingOptions/padColor`` set.
  package func start(
    outputs: [OutputTarget], width: Int, height: Int, fps: Int, options: EncodingOptions, ffmpeg: FFmpegTool,
    stallTimeout: Double?
  ) {
    var count = 0
    for (index, output) in outputs.enumerated() where Self.canStartEarly(output.format) {
      let settings = Settings(
        destination: output.path, format: output.format, width: width, height: height, fps: fps, options: options,
        stallTimeout: stallTimeout)
      guard
        let sink = try? FFmpegSink(
          destination: output.path, format: output.format, width: width, height: height, fps: fps,
          options: options, ffmpeg: ffmpeg, stallTimeout: stallTimeout)
      else { continue }
      let replaced = started.withLock { list in
        defer { list[index] = Started(settings: settings, sink: sink) }
        return list[index]?.sink
      }
      replaced?.abort()
      count += 1
    }
    StartupTrace.mark("encoders started early: \(count)")
  }

  /// The encoder started for output `index` when it was started with exactly `settings`, now
  /// the caller's; nil when none was (one started with other settings is stopped).
  func claim(_ index: Int, _ settings: Settings) -> FFmpegSink? {
    guard let entry = started.withLock({ $0.removeValue(forKey: index) }) else { return nil }
    guard entry.settings == settings else {
      entry.sink.abort()
      return nil
    }
    return entry.sink
  }

  /// How many encoders are started and not taken over.
  package var unclaimedCount: Int { started.withLock { $0.count } }

  /// Stops every encoder not taken over and removes its temporary file.
  package func abortUnclaimed() {
    let left = started.withLock { list in
      defer { list = [:] }
      return Array(list.values)
    }
    for entry in left { entry.sink.abort() }
  }
}
