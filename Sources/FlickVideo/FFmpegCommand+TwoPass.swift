extension FFmpegCommand {
  /// One pass of a two-pass MP4 (x264) or WebM (libvpx-vp9) encoding at a target bitrate, at a
  /// size that may be smaller than the frames' (``VideoFitting`` fitting `--max-size`).
  package struct TwoPass: Sendable, Equatable {
    /// Width and height of the encoded frames in pixels (scaled with Lanczos when they differ
    /// from the input's).
    package var width: Int
    package var height: Int
    /// The target bitrate in bits per second.
    package var bitrate: Int
    /// 1 (statistics only, written to ``log``) or 2 (the file, using them).
    package var pass: Int
    /// The pass log's prefix (`-passlogfile`): the encoder writes `LOG-0.log` (and x264
    /// `LOG-0.log.mbtree`), through `.temp` files it renames.
    package var log: String

    package init(width: Int, height: Int, bitrate: Int, pass: Int, log: String) {
      self.width = width
      self.height = height
      self.bitrate = bitrate
      self.pass = pass
      self.log = log
    }

    /// The files the encoder may write for the log `prefix`, for ``Cleanup``.
    package static func logFiles(_ prefix: String) -> [String] {
      let log = prefix + "-0.log"
      return [log, log + ".temp", log + ".mbtree", log + ".mbtree.temp"]
    }

    /// The rate-control arguments: the bitrate, the pass and its log.
    var rate: [String] { ["-b:v", "\(bitrate)", "-pass", "\(pass)", "-passlogfile", OutputFormat.optionSafe(log)] }

    /// The `scale` filter from frames of `inputWidth × inputHeight`, or none at that size.
    func scale(from inputWidth: Int, _ inputHeight: Int) -> [String] {
      width == inputWidth && height == inputHeight ? [] : ["scale=\(width):\(height):flags=lanczos"]
    }

    /// A first pass's output: nothing (its statistics go to the log).
    static let noOutput = ["-f", "null", "/dev/null"]
  }
}
