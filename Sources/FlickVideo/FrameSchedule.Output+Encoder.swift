extension FrameSchedule.Output {
  /// Whether no output before `index` in `outputs` is a GIF.
  package static func isFirstGIF(_ index: Int, in outputs: [FrameSchedule.Output]) -> Bool {
    !outputs[..<index].contains { $0.format == .gif }
  }

  /// The sink that encodes this output with ffmpeg at its rate: a ``GIFSink`` for a GIF, an
  /// ``FFmpegSink`` for the other ffmpeg formats. `firstGIF` says whether no output before this
  /// one is a GIF (``GIFSink``'s `startsEncoderNow`).
  ///
  /// - Throws: ``VideoError`` when the options do not fit the format, the destination cannot be
  ///   written, or ffmpeg cannot start.
  package func encoder(
    destination: String, width: Int, height: Int, options: EncodingOptions, ffmpeg: FFmpegTool,
    stallTimeout: Double?, firstGIF: Bool
  ) throws(VideoError) -> any FrameSink {
    if format == .gif {
      return try GIFSink(
        destination: destination, width: width, height: height, fps: fps, options: options, ffmpeg: ffmpeg,
        stallTimeout: stallTimeout, startsEncoderNow: firstGIF, finalDelay: gifFinalDelay)
    }
    return try FFmpegSink(
      destination: destination, format: format, width: width, height: height, fps: fps, options: options,
      ffmpeg: ffmpeg, stallTimeout: stallTimeout)
  }
}
