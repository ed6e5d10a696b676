import FlickMotion
/// The process exit codes, as documented in `flick --help` and DESIGN.md.
struct ExitCode: RawRepresentable, Equatable, Error {
  let rawValue: Int32

  /// Everything worked.
  static let success = ExitCode(rawValue: 0)
  /// A snapshot did not match its golden image.
  static let mismatch = ExitCode(rawValue: 1)
  /// Invalid input: usage, template or parameters.
  static let invalidInput = ExitCode(rawValue: 2)
  /// The environment failed: ffmpeg missing or failed, disk, I/O.
  static let environment = ExitCode(rawValue: 3)
  /// Interrupted by SIGINT or SIGTERM (SIGHUP and SIGQUIT exit with 129 and 131:
  /// ``FlickVideo/Interruption/exitStatus(for:)``).
  static let interrupted = ExitCode(rawValue: 130)
}

/// A failure with a message for stderr and the exit code it maps to.
struct CommandError: Error, CustomStringConvertible {
  let message: String
  let code: ExitCode

  static func usage(_ message: String, command: String? = nil) -> CommandError {
    let help = command.map { "flick \($0) --help" } ?? "flick --help"
    return CommandError(message: message + "\nRun '\(escaped: help)' for usage.", code: .invalidInput)
  }

  var description: String { message }
}
