import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Every number an option takes is read by the template language's grammar (decimal digits, an
/// optional `-`, point and exponent), then checked against the option's range, as the arguments
/// are parsed. `Double(String)` read `0x10` as 16, `0x1p4`, `nan`, `inf` and `1e999` too, and
/// `Int(String)` `+5`: `--threshold 0x1p-4`, `--scale 0x1`, `--max-pixels 0x1p20` passed.
///
/// The options are found from the CLI itself: every `--name` a command's `--help` mentions that
/// the command takes with a value (`flick CMD --name` says it needs one) is a number option
/// unless ``textOptions`` lists it, so a new option is either checked here or named as text.
@Suite struct NumberOptionTests {
  /// Options whose value is text, not a number (everywhere they appear).
  static let textOptions: Set<String> = [
    "o", "output", "out", "format", "preset", "dither", "gif-palette", "progress", "background", "set", "params",
    "layer", "property", "side", "report", "against", "record", "metric", "html", "host", "job", "plot",
  ]
  /// Text options of one command only (`accept --frame NAME`; `still --frame N` is a number).
  static let commandTextOptions: [String: Set<String>] = ["accept": ["frame"]]

  /// Values `Double(String)` or `Int(String)` read and the grammar refuses.
  static let refused = ["0x10", "0x1p4", "nan", "inf", "-inf", "infinity", "1e999", "+5", " 5", "5 ", ""]
  /// Options taking a comma-separated list, whose items may have spaces around them (`0, 50%`).
  static let listOptions: Set<String> = ["at", "times"]

  /// A value each option takes (default `1e0`: an exponent is a number, also for whole numbers).
  static let accepted: [String: String] = [
    "motion-blur-samples": "2", "shard": "1/1", "size": "32x18", "measure-pipe": "32x18", "frames": "0..1",
    "at": "50%", "times": "0.5s,1", "max-size": "2.5MB", "duration": "1.5s", "from": "-0.5", "to": "1e3",
    "scale": "0.5", "time": "0.5s", "frame": "0", "threshold": "0.05", "shutter-angle": "90",
    "max-memory": "4G", "timeout": "1.5m",
  ]

  /// A positional no command can read, so nothing runs after the options are parsed.
  static let missing = "/nonexistent/flick-number-options"

  /// Each command and its number options, found from its `--help`.
  static func numberOptions() throws -> [(command: String, option: String)] {
    var out: [(String, String)] = []
    let pattern = try NSRegularExpression(pattern: "--([a-z][a-z0-9-]*)")
    for command in try UsageHelpLineTests.commands() {
      let help = try CLITests.run(CLITests.flick, [command, "--help"]).stdout
      let range = NSRange(help.startIndex..., in: help)
      var names = Set<String>()
      for match in pattern.matches(in: help, range: range) {
        if let r = Range(match.range(at: 1), in: help) { names.insert(String(help[r])) }
      }
      for name in names.sorted() {
        if textOptions.contains(name) || commandTextOptions[command]?.contains(name) == true { continue }
        // A missing positional first: a flag (`studio --no-open`) then fails on it instead of
        // running the command (a studio serves until stopped).
        let probe = try CLITests.run(CLITests.flick, [command, missing, "--" + name])
        if probe.stderr.contains("option --\(name) needs a value") { out.append((command, name)) }
      }
    }
    return out
  }

  @Test func everyNumberOptionRefusesWhatIsNotADecimalNumber() throws {
    let options = try Self.numberOptions()
    // The commands' numbers as of this test: more is fine, fewer means the probe broke.
    #expect(options.count >= 60, "\(options.map { "\($0.command) --\($0.option)" })")
    for (command, option) in options {
      for value in Self.refused where !(Self.listOptions.contains(option) && value.contains(" ")) {
        let r = try CLITests.run(CLITests.flick, [command, "--\(option)=\(value)", Self.missing])
        expectEqual(r.status, 2, "\(command) --\(option)=\(value): \(r.stderr)")
        #expect(r.stderr.contains("--\(option)"), "\(command) --\(option)=\(value): \(r.stderr)")
        #expect(r.stderr.contains("'\(value)'"), "\(command) --\(option)=\(value): \(r.stderr)")
      }
      let good = Self.accepted[option] ?? "1e0"
      let r = try CLITests.run(CLITests.flick, [command, "--\(option)=\(good)", Self.missing])
      #expect(!r.stderr.contains("'\(good)'"), "\(command) --\(option)=\(good): \(r.stderr)")
    }
  }

  @Test func theMessageNamesTheOptionTheValueAndTheRange() throws {
    for (args, expected) in [
      (["render", "--fps", "0x10"], "--fps expects a whole number in 1…240, found '0x10' (numbers are written"),
      (["trace", "--fps", "nan"], "--fps expects a number in (0, 10000], found 'nan'"),
      (["diff", "--threshold", "2"], "--threshold expects a number in 0…1, found '2'\n"),
      (["studio", "--port", "+5"], "--port expects a whole number in 0…65535, found '+5'"),
      (["curve", "--from", "inf"], "--from expects a number, found 'inf'"),
      (["render", "--scale", "0x1"], "--scale expects a number in (0, 16], found '0x1'"),
      (
        ["render", "--max-pixels", "0x1p20"],
        "--max-pixels expects a whole number such as 1000000 or 1e6 greater than 0"
      ),
    ] {
      let r = try CLITests.run(CLITests.flick, args + [Self.missing])
      expectEqual(r.status, 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains(expected), "\(args): \(r.stderr)")
    }
    let variable = try HostileCLITests.run(["info", CLITests.hello], environment: ["FLICK_MAX_PIXELS": "0x1p20"])
    expectEqual(variable.status, 2, "\(variable.stderr)")
    #expect(variable.stderr.contains("FLICK_MAX_PIXELS expects a whole number"), "\(variable.stderr)")
  }

  @Test func decimalNumbersStillWork() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let png = dir.appendingPathComponent("f.png").path
    for args in [
      ["curve", "linear", "--from", "-0.5", "--to", "1e3", "--fps", "2.5", "--duration", "1.5s"],
      ["still", CLITests.hello, "--time", "1.25s", "--scale", "0.5", "-o", png],
      ["still", CLITests.hello, "--at", "12.5%", "-o", png],
      [
        "render", CLITests.hello, "--fps", "3e1", "--scale", "0.5", "--jobs", "1", "-o", dir.path + "/a.mp4",
        "--dry-run",
      ],
      ["render", CLITests.hello, "--frames", "0..2", "--max-size", "3 MB", "-o", dir.path + "/a.gif", "--dry-run"],
    ] {
      let r = try CLITests.run(CLITests.flick, args)
      expectEqual(r.status, 0, "\(args): \(r.stderr)")
    }
  }
}
