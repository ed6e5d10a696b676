extension RenderSession {
  /// Starts the encoders that need nothing but the frame size, rate and background
  /// (``EarlyEncoders/canStartEarly(_:)``) into `early`, when this session's size, pixel cap,
  /// encoders' limits and output paths pass their checks; `scene` may be a canvas whose layers
  /// are still compiling. Nothing is started when a check fails (the full render reports it).
  ///
  /// - Parameter ffmpeg: The ffmpeg to start (unchecked: a failure is explained later).
  package func startEncoders(into early: EarlyEncoders, ffmpeg: FFmpegTool) {
    guard (1...16384).contains(width), (1...16384).contains(height),
      (try? limits.check(frames: 1, width: width, height: height, samples: 1)) != nil,
      (try? checkOutputPaths()) != nil
    else { return }
    let startable = outputs.filter { EarlyEncoders.canStartEarly($0.format) }
    guard !startable.isEmpty,
      !startable.contains(where: { RenderLimits.encoderRefuses($0.format, width: width, height: height) != nil })
    else { return }
    var options = self.options
    options.padColor = Self.rgb(scene.backgroundColor)
    early.start(
      outputs: outputs, width: width, height: height, fps: scene.fps, options: options, ffmpeg: ffmpeg,
      stallTimeout: limits.encoderTimeout)
  }
}
