import FlickMotion
import FlickVideo
import Foundation

/// The `flick` command-line tool: renders animated templates to video and images.
@main
struct Flick {
  static let version = "0.1.0"

  static let usage = """
    flick \(version) — render animated layer scenes to video

    USAGE
      flick render TEMPLATE -o OUT.mp4 [-o OUT.gif]...            render every frame to each output
      flick still TEMPLATE --time S|--frame N|--at P% -o F.png    render one frame to a PNG
      flick info TEMPLATE                                         parameters, canvas, layers, timeline
      flick trace TEMPLATE --layer ID --property NAME [--fps N]   value and velocity of a property over time
      flick templates                                             list the bundled templates
      flick schema                                                print the template format's JSON Schema
      flick curve SPEC [--from 0 --to 100] [--plot c.png]         print or plot an animation curve
      flick snapshot TEMPLATE --at 0,50%,end --out DIR            render golden frames + manifest.json
      flick verify TEMPLATE --against DIR [--report R]            compare frames with goldens
      flick diff A.png B.png | DIR_A DIR_B                        compare images (pixelmatch-style)
      flick accept REPORT --against DIR                           make a failed verify's frames the goldens
      flick plan MANIFEST -o plan.json                            expand a batch manifest into jobs
      flick run plan.json [--shard I/N|auto]                      run a share of a plan's jobs
      flick merge plan.json                                       join the chunks of long clips
      flick studio [TEMPLATE... | FOLDER] [--port N] [--no-open]  live preview in the browser
      flick --help | --version

    TEMPLATE is a .json5 file or the name of a bundled template (flick templates).
    render, still and info also take a Lottie file (bodymovin JSON, recognised by its content).
    Every command that reads a template takes --set NAME=VALUE, --params FILE and
    --allow-outside-assets. Run 'flick COMMAND --help' for each command's options.

    Output formats follow the extension: .mp4 (H.264), .gif (palette GIF), .webm (VP9 + alpha),
    .mov (ProRes 4444 + alpha), .apng, .webp, DIR/ or DIR/%04d.png (PNG sequence).

    EXIT CODES
      0 success · 1 snapshot mismatch · 2 invalid input (usage, template, parameters) ·
      3 environment (ffmpeg, disk) · 130 interrupted
    """

  /// The subcommands, for "did you mean".
  static let commands = [
    "render", "still", "info", "templates", "schema", "curve", "snapshot", "verify", "diff", "accept", "help",
    "plan", "run", "merge", "studio",
    "render", "still", "info", "trace", "templates", "schema", "curve", "snapshot", "verify", "diff", "accept", "help",
  ]

  static func main() {
    StandardStream.prepare()
    // Every command: SIGINT/SIGTERM stop children, remove registered temporaries, exit 130.
    Interruption.install()
    var args = Array(CommandLine.arguments.dropFirst())
    do {
      guard let command = args.first else { throw CommandError.usage("missing a command") }
      args.removeFirst()
      switch command {
      case "--help", "-h", "help":
        print(usage)
      case "--version", "-V":
        print("flick \(version)")
      case "render":
        try Render.run(args)
      case "still":
        try Still.run(args)
      case "curve": try Curve.run(args)
      case "info":
        try Info.run(args)
      case "trace": try Trace.run(args)
      case "templates":
        try Templates.run(args)
      case "schema":
        try Schema.run(args)
      case "snapshot": try Snapshot.run(args)
      case "verify": try Verify.run(args)
      case "diff": try Diff.run(args)
      case "accept": try Accept.run(args)
      case "plan": try PlanCommand.run(args)
      case "run": try RunCommand.run(args)
      case "merge": try MergeCommand.run(args)
      case "studio": try Studio.run(args)
      default:
        let guess = Arguments.closest(to: command, in: commands).map { "; did you mean '\($0)'?" } ?? ""
        throw CommandError.usage("unknown command '\(quoted: command)'\(escaped: guess)")
      }
    } catch let error as CommandError {
      fail(error.message, error.code)
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
