import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Every usage error ends with the help of the command it came from (`Run 'flick render --help'
/// for usage.`), whichever check found it; only an error before any command names `flick --help`.
@Suite struct UsageHelpLineTests {
  /// The commands `flick --help` lists.
  static func commands() throws -> [String] {
    let help = try CLITests.run(CLITests.flick, ["--help"])
    return help.stdout.split(separator: "\n").filter { $0.hasPrefix("  flick ") }.map {
      String($0.dropFirst(8).prefix { $0 != " " })
    }.filter { !$0.hasPrefix("-") }
  }

  @Test func everyCommandsUsageErrorPointsAtItsOwnHelp() throws {
    let commands = try Self.commands()
    #expect(commands.count >= 15, "\(commands)")
    for command in commands {
      let r = try CLITests.run(CLITests.flick, [command, "--no-such-option"])
      expectEqual(r.status, 2, "\(command): \(r.stderr)")
      let last = r.stderr.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) }
      expectEqual(last, "Run 'flick \(command) --help' for usage.", "\(command): \(r.stderr)")
    }
    // Errors found after the options are parsed point there too.
    for args in [["render"], ["still"], ["snapshot"], ["verify"], ["diff"], ["accept"], ["curve"]] {
      let r = try CLITests.run(CLITests.flick, args)
      expectEqual(r.status, 2, "\(args): \(r.stderr)")
      #expect(r.stderr.hasSuffix("Run 'flick \(args[0]) --help' for usage.\n"), "\(args): \(r.stderr)")
    }
    for args in [[String](), ["rendr"]] {
      let r = try CLITests.run(CLITests.flick, args)
      expectEqual(r.status, 2, "\(args): \(r.stderr)")
      #expect(r.stderr.hasSuffix("Run 'flick --help' for usage.\n"), "\(args): \(r.stderr)")
    }
  }
}
