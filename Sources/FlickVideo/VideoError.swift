/// Why an output could not be produced.
public enum VideoError: Error, Equatable, CustomStringConvertible {
  /// ffmpeg is not installed or not on `PATH`.
  case ffmpegMissing
  /// ffmpeg could not be started.
  case launchFailed(String)
  /// ffmpeg exited with a non-zero status or was killed; the tail of its stderr is kept.
  case ffmpegFailed(output: String, status: Int32, stderr: String)
  /// Writing frames to ffmpeg failed (it closed its input early).
  case pipeFailed(output: String, reason: String)
  /// The output file could not be put in place.
  case cannotWrite(path: String, reason: String)
  /// The output path's extension names no supported format.
  case unsupportedFormat(path: String)
  /// The frame size cannot be encoded in this format.
  case invalidSize(width: Int, height: Int, reason: String)

  public var description: String {
    switch self {
    case .ffmpegMissing:
      return "ffmpeg was not found on PATH; install it (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg) or run 'make demo', which installs it"
    case .launchFailed(let reason):
      return "cannot start ffmpeg: \(reason)"
    case .ffmpegFailed(let output, let status, let stderr):
      let tail = stderr.split(separator: "\n").suffix(8).joined(separator: "\n  ")
      return "ffmpeg failed writing \(output) (exit status \(status))" + (tail.isEmpty ? "" : ":\n  \(tail)")
    case .pipeFailed(let output, let reason):
      return "ffmpeg stopped reading frames for \(output): \(reason)"
    case .cannotWrite(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .unsupportedFormat(let path):
      return "cannot tell the format of \(path) from its extension; use one of \(OutputFormat.supportedExtensions)"
    case .invalidSize(let w, let h, let reason):
      return "cannot encode \(w)×\(h): \(reason)"
    }
  }
}
