import FlickMotion
/// Why an output could not be produced.
public enum VideoError: Error, Equatable, CustomStringConvertible {
  /// ffmpeg is not installed or not on `PATH`.
  case ffmpegMissing
  /// `FLICK_FFMPEG` names no program Flick can run: `problem` says why (it does not exist, is
  /// a folder, is not executable), ``FFmpegTool/overrideProblem(_:)``.
  case ffmpegOverride(path: String, problem: String)
  /// The program named as ffmpeg (`FLICK_FFMPEG`, or `ffmpeg` on `PATH`) does not answer as
  /// ffmpeg does.
  case notFFmpeg(path: String)
  /// ffmpeg is installed but older than Flick needs (the version found is kept).
  case ffmpegTooOld(found: String)
  /// This ffmpeg was built without an encoder a requested format needs.
  case encoderMissing(encoder: String, format: OutputFormat)
  /// ffmpeg could not be started.
  case launchFailed(String)
  /// ffmpeg exited with a non-zero status; the tail of its stderr is kept.
  case ffmpegFailed(output: String, status: Int32, stderr: String)
  /// ffmpeg was killed by a signal while encoding.
  case ffmpegKilled(output: String, signal: Int32, stderr: String)
  /// Writing frames to ffmpeg failed (it closed its input early).
  case pipeFailed(output: String, reason: String)
  /// The output file could not be put in place.
  case cannotWrite(path: String, reason: String)
  /// The destination (a file, or a PNG sequence's folder) is a symbolic link: Flick does not
  /// write through one.
  case linkedOutput(path: String)
  /// The output path's extension names no supported format.
  case unsupportedFormat(path: String)
  /// The frame size cannot be encoded in this format.
  case invalidSize(width: Int, height: Int, reason: String)
  /// An encoding option is out of range or does not fit the format.
  case invalidOption(String)
  /// The render would pass a cap of ``RenderLimits`` (estimated before the first frame).
  case overLimit(String)
  /// The run reached a cap of ``RenderLimits`` while rendering (memory).
  case limitReached(String)
  /// ffmpeg made no progress (read no frame data, used no CPU) for the stall timeout.
  case encoderStalled(output: String, seconds: Double)

  /// Whether the problem is the user's input (exit code 2) rather than the environment (3).
  package var isInvalidInput: Bool {
    switch self {
    case .unsupportedFormat, .invalidSize, .invalidOption, .overLimit, .linkedOutput: return true
    default: return false
    }
  }

  public var description: String {
    switch self {
    case .ffmpegMissing:
      return "ffmpeg was not found on PATH; install it (Debian/Ubuntu: sudo apt-get install ffmpeg; "
        + "macOS: brew install ffmpeg) or run 'make bootstrap', which installs it"
    case .ffmpegOverride(let path, let problem):
      return "FLICK_FFMPEG is '\(quoted: path)', which \(escaped: problem); point FLICK_FFMPEG at an ffmpeg "
        + "executable, or unset it to use the ffmpeg on PATH"
    case .notFFmpeg(let path):
      return "\(quoted: path) does not answer as ffmpeg does (no 'ffmpeg version' banner for -encoders); "
        + "point FLICK_FFMPEG at ffmpeg, or unset it to use the one on PATH"
    case .ffmpegTooOld(let found):
      return "ffmpeg \(escaped: found) is too old; Flick needs ffmpeg "
        + "\(quoted: FFmpegTool.minimumVersion.0).\(quoted: FFmpegTool.minimumVersion.1) "
        + "or newer (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew upgrade ffmpeg)"
    case .encoderMissing(let encoder, let format):
      return "this ffmpeg has no '\(quoted: encoder)' encoder, which .\(format.rawValue) output needs; "
        + "install a full build (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg)"
    case .launchFailed(let reason):
      return "cannot start ffmpeg: \(escaped: reason)"
    case .ffmpegFailed(let output, let status, let stderr):
      return "ffmpeg failed writing \(quoted: output) (exit status \(status))" + Self.tail(stderr)
    case .ffmpegKilled(let output, let signal, let stderr):
      return "ffmpeg was killed by signal \(signal) while writing \(quoted: output)" + Self.tail(stderr)
    case .pipeFailed(let output, let reason):
      return "ffmpeg stopped reading frames for \(quoted: output): \(escaped: reason)"
    case .cannotWrite(let path, let reason):
      return "cannot write \(quoted: path): \(escaped: reason)"
    case .linkedOutput(let path):
      return "cannot write \(quoted: path): it is a symbolic link, and Flick does not write through links "
        + "(remove the link, or give the real path)"
    case .unsupportedFormat(let path):
      return "cannot tell the format of \(quoted: path) from its extension; use one of "
        + "\(OutputFormat.supportedExtensions), "
        + "or --format"
    case .invalidSize(let w, let h, let reason):
      return "cannot encode \(w)×\(h): \(escaped: reason)"
    case .invalidOption(let message), .overLimit(let message), .limitReached(let message):
      return message
    case .encoderStalled(let output, let seconds):
      return "ffmpeg made no progress writing \(quoted: output) for \(RenderLimits.format(seconds: seconds)) "
        + "(stopped or hung); "
        + "stopped it and removed the partial output (--encoder-timeout or FLICK_ENCODER_TIMEOUT sets the wait)"
    }
  }

  private static func tail(_ stderr: String) -> String {
    let lines = stderr.split(separator: "\n").suffix(8)
    return lines.isEmpty ? "" : ":\n  " + lines.joined(separator: "\n  ")
  }
}
