import FlickMotion
import FlickVideo
import Foundation

/// The `flick` command-line tool: renders animated templates to video and images.
@main
struct Flick {
  static let version = "0.1.0"

  /// The whole `flick --help` text: the synopsis lines come from `commands`.
  static var usage: String {
    let width = commands.map(\.synopsis.count).max() ?? 0
    let lines = commands.map { command in
      "  " + command.synopsis.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.summary
    }
    return """
      flick \(version) — render animated layer scenes to video

      USAGE
      \(lines.joined(separator: "\n"))
        flick --help | --version

      TEMPLATE is a .json5 file or the name of a bundled template (flick templates).
      \(lottieCommandList) also take a Lottie file (bodymovin JSON, recognised by its content).
      render, still, info, trace, snapshot and verify take --set NAME=VALUE, --params FILE and
      --allow-outside-assets. Run 'flick COMMAND --help' for each command's options.
      In every option, \(NumberRule.grammar).

      Output formats follow the extension: .mp4 (H.264), .gif (palette GIF), .webm (VP9 + alpha),
      .mov (ProRes 4444 + alpha), .apng, .webp, DIR/ or DIR/%04d.png (PNG sequence), .bgra (raw
      premultiplied BGRA frames).

      EXIT CODES
        0 success · 1 snapshot mismatch · 2 invalid input (usage, template, parameters) ·
        3 environment (ffmpeg, disk, stdout unwritable) · 4 status: still running ·
        130 interrupted (SIGINT, SIGTERM; SIGHUP 129, SIGQUIT 131) · 141 stdout's reader went away
      """
  }

  static func main() {
    StandardStream.prepare()
    // Every command: SIGHUP, SIGINT, SIGQUIT and SIGTERM stop children and remove registered
    // temporaries (exit 130, or 128 + the signal for SIGHUP and SIGQUIT); so does stdout that
    // cannot be written (exit 141 or 3, StandardStream).
    Interruption.install()
    var args = Array(CommandLine.arguments.dropFirst())
    // The command running, whose --help a usage error points at (one place for every command).
    var running: String?
    do {
      guard let name = args.first else { throw CommandError.usage("missing a command") }
      args.removeFirst()
      switch name {
      case "--help", "-h", "help":
        StandardStream.writeOutputLine(usage)
      case "--version", "-V":
        StandardStream.writeOutputLine("flick \(version)")
      default:
        guard let command = commands.first(where: { $0.name == name }) else {
          let names = commands.map(\.name) + ["help"]
          let guess = Arguments.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
          throw CommandError.usage("unknown command '\(quoted: name)'\(escaped: guess)")
        }
        running = command.name
        try command.run(args)
      }
    } catch let error as CommandError {
      fail(error.text(running: running), error.code)
    } catch {
      fail("\(escaped: error)", ExitCode.environment)
    }
  }

  static func fail(_ message: String, _ code: ExitCode) -> Never {
    // Sites escape and cap what they echo; this is the backstop for the whole line.
    StandardStream.writeError("flick: " + MessageText.logEntry(message) + "\n")
    exit(code.rawValue)
  }

  /// Prints a line to stderr (progress and summaries; stdout stays clean for data).
  static func log(_ message: String) {
    StandardStream.writeError(MessageText.logEntry(message) + "\n")
  }
}
