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
  /// Whether the message is followed by where the usage is described (``usage(_:)``): the
  /// help of the command that was running, which only `Flick.main` knows (``helpLine(for:)``).
  var pointsAtHelp = false

  /// A usage error (exit 2): `message`, then the line naming the running command's `--help`.
  static func usage(_ message: String) -> CommandError {
    CommandError(message: message, code: .invalidInput, pointsAtHelp: true)
  }

  /// The line after a usage error: `flick COMMAND --help` for a subcommand's, else `flick --help`.
  static func helpLine(for command: String?) -> String {
    let help = command.map { "flick \($0) --help" } ?? "flick --help"
    return "Run '\(escaped: help)' for usage."
  }

  /// The message as printed when `command` (nil: none yet) was running.
  func text(running command: String?) -> String {
    pointsAtHelp ? message + "\n" + Self.helpLine(for: command) : message
  }

  var description: String { message }
}
