extension FrameSchedule.Output {
  /// The sink that encodes this output with ffmpeg at its rate: a ``GIFSink`` for a GIF, an
  /// ``FFmpegSink`` for the other ffmpeg formats.
  ///
  /// - Throws: ``VideoError`` when the options do not fit the format, the destination cannot be
  ///   written, or ffmpeg cannot start.
  package func encoder(
    destination: String, width: Int, height: Int, options: EncodingOptions, ffmpeg: FFmpegTool,
    stallTimeout: Double?
  ) throws(VideoError) -> any FrameSink {
    if format == .gif {
      return try GIFSink(
        destination: destination, width: width, height: height, fps: fps, options: options, ffmpeg: ffmpeg,
        stallTimeout: stallTimeout)
    }
    return try FFmpegSink(
      destination: destination, format: format, width: width, height: height, fps: fps, options: options,
      ffmpeg: ffmpeg, stallTimeout: stallTimeout)
  }
}
