import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every command that takes a TEMPLATE (`flick --help` says which) finds a bundled template by
/// its bare name, and refuses a name that is neither a file nor a bundled template with the same
/// message, a guess included.
@Suite struct BareTemplateNameTests {
  /// The commands whose synopsis in `flick --help` takes a TEMPLATE.
  static func templateCommands() throws -> [String] {
    let help = try CLITests.run(CLITests.flick, ["--help"])
    return help.stdout.split(separator: "\n").filter { $0.hasPrefix("  flick ") && $0.contains("TEMPLATE") }.map {
      String($0.dropFirst(8).prefix { $0 != " " })
    }
  }

  /// What each command needs besides the template, writing into `dir`.
  static func arguments(_ command: String, _ dir: URL) -> [String]? {
    let path = { (name: String) in dir.appendingPathComponent(name).path }
    return switch command {
    case "render": ["--frames", "0..0", "--scale", "0.25", "-o", path("frames") + "/"]
    case "still": ["--time", "0", "--scale", "0.25", "-o", path("still.png")]
    case "info": []
    case "trace": ["--layer", "c4", "--property", "opacity", "--times", "0"]
    case "snapshot": ["--at", "0", "--scale", "0.25", "--out", path("golden")]
    case "verify": ["--against", path("golden"), "--report", path("report")]
    case "studio": ["--no-open", "--port", "0"]
    default: nil
    }
  }

  @Test func everyTemplateCommandTakesABundledName() throws {
    let commands = try Self.templateCommands()
    #expect(commands.contains("studio") && commands.contains("render"), "\(commands)")
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for command in commands {
      let extra = try #require(Self.arguments(command, dir), "no arguments for \(command)")
      if command == "studio" {
        let (status, url, stderr) = try Self.studioURL([command, "card-swap"] + extra)
        #expect(url.hasPrefix("http://127.0.0.1:"), "studio: \(status) \(url) \(stderr)")
        continue
      }
      let r = try CLITests.run(CLITests.flick, [command, "card-swap"] + extra)
      expectEqual(r.status, 0, "\(command): \(r.stderr)")
    }
  }

  @Test func everyTemplateCommandRefusesAnUnknownNameAlike() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for command in try Self.templateCommands() {
      let extra = try #require(Self.arguments(command, dir), "no arguments for \(command)")
      // `timeout`: a studio that took the name would serve until stopped.
      let r = try CLITests.run("/usr/bin/timeout", ["30", CLITests.flick, command, "card-swapp"] + extra)
      expectEqual(r.status, 2, "\(command): \(r.stderr)")
      #expect(
        r.stderr.contains(
          "no template file 'card-swapp' and no bundled template named 'card-swapp'; did you mean 'card-swap'?"),
        "\(command): \(r.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// Runs `flick ARGS` until it prints its first line (or ends), then stops it: its exit status
  /// when it ended by itself (else nil), that line and its standard error so far.
  static func studioURL(_ args: [String]) throws -> (Int32?, String, String) {
    let started = try ProcessRunner.start(CLITests.flick, args)
    let p = started.process
    let errors = PipeDrain(started.stderr)
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = started.stdout.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let status: Int32? = p.isRunning ? nil : p.terminationStatus
    if p.isRunning { kill(p.processIdentifier, SIGTERM) }
    let stderr = String(decoding: errors.wait(), as: UTF8.self)
    p.waitUntilExit()
    return (status, String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), stderr)
  }
}
