import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick info`, `flick templates`, `flick schema`, template options and argument parsing.
@Suite struct TemplateCommandTests {
  static let flick = CLITests.flick
  static let card = CLITests.root.appendingPathComponent("Tests/FlickTemplatesTests/Fixtures/params/card.json5").path

  static func run(_ args: [String]) throws -> CLITests.Result { try CLITests.run(flick, args) }

  @Test func infoDescribesABundledTemplateByName() throws {
    let r = try Self.run(["info", "hello"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    expectEqual(lines.first, "hello — A rounded card glides along a track and back (easeInEaseOut tween of position).")
    #expect(lines.contains("canvas: 640×360 px, 30 fps, 3 s, 90 frames, background #0F172AFF"))
    #expect(lines.contains("parameters: none"))
    #expect(lines.contains("  card  120×120 at (160, 180)"))
    #expect(lines.contains("    badge  44×44 at (60, 60)"))
    #expect(lines.contains("timeline: 5 animations"))
    #expect(lines.contains("  0.25–1.45 s  card.position"))
  }

  @Test func infoShowsParametersAndTheValuesInEffect() throws {
    let r = try Self.run(["info", Self.card, "--set", "accent=#000000", "--set=count=5"])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stdout.contains("card for World"))
    let accent = r.stdout.split(separator: "\n").first { $0.hasPrefix("  accent") } ?? ""
    #expect(accent.contains("color"))
    #expect(accent.contains("default \"#F97316\" (now \"#000000\")"))
    #expect(accent.hasSuffix("Card colour"))
    #expect(r.stdout.contains("integer 1…6"))
    #expect(r.stdout.contains("default 3 (now 5)"))
  }

  @Test func parameterErrorsExitWith2AndNameTheParameter() throws {
    let unknown = try Self.run(["info", Self.card, "--set", "acent=#000000"])
    expectEqual(unknown.status, 2)
    #expect(unknown.stderr.contains("--set acent=#000000: unknown parameter 'acent'; did you mean 'accent'?"))
    let typed = try Self.run(["info", Self.card, "--set", "count=seven"])
    expectEqual(typed.status, 2)
    #expect(typed.stderr.contains("parameter 'count' (integer 1…6): expected a number, found a string \"seven\""))
    let noFile = try Self.run(["info", Self.card, "--params", "/nonexistent/p.json5"])
    expectEqual(noFile.status, 2)
    #expect(noFile.stderr.contains("/nonexistent/p.json5: no such params file"))
  }

  @Test func paramsFileAndSet() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let params = dir.appendingPathComponent("p.json5")
    try Data("{ who: 'Params', count: 2 }".utf8).write(to: params)
    let r = try Self.run(["info", Self.card, "--params", params.path, "--set", "count=4"])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("card for Params"))
    #expect(r.stdout.contains("default 3 (now 4)"))
  }

  @Test func templatesListsBundledTemplatesWithDescriptions() throws {
    let r = try Self.run(["templates"])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("hello ") && $0.contains("A rounded card glides") })
    let path = try Self.run(["templates", "--path"])
    #expect(path.stdout.trimmingCharacters(in: .newlines).hasSuffix("/Templates"))
  }

  @Test func templatesFolderFromTheEnvironment() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.flick)
    p.arguments = ["templates", "--path"]
    p.environment = ["FLICK_TEMPLATES": "/nonexistent-flick-templates"]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = Pipe()
    try p.runUnblocked()
    p.waitUntilExit()
    expectEqual(p.terminationStatus, 3)
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(message.contains("set FLICK_TEMPLATES"))
  }

  /// The library folder may be a checkout (FLICK_TEMPLATES): its file names and descriptions are
  /// echoed escaped, one line each, so none can recolour the terminal or start a CI command.
  @Test func templatesEscapesNamesAndDescriptions() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-library").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let hello = try String(
      contentsOfFile: CLITests.root.appendingPathComponent("Templates/hello.json5").path, encoding: .utf8)
    let hostile = hello.replacingOccurrences(
      of: #"description: "A rounded card"#, with: #"description: "fine\u001b[2J\n::error file=x::forged "#)
    #expect(hostile != hello)
    try hostile.write(toFile: dir + "/x\u{1B}[32mGREEN.json5", atomically: true, encoding: .utf8)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.flick)
    p.arguments = ["templates"]
    p.environment = ["FLICK_TEMPLATES": dir]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = Pipe()
    try p.runUnblocked()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    expectEqual(p.terminationStatus, 0)
    #expect(!text.unicodeScalars.contains("\u{1B}"), "\(text)")
    let lines = text.split(separator: "\n")
    expectEqual(lines.count, 1, "\(text)")
    #expect(lines.first?.hasPrefix(#"x\u{1B}[32mGREEN  fine\u{1B}[2J\n::error"#) == true, "\(text)")
  }

  @Test func schemaPrintsTheBundledSchema() throws {
    let r = try Self.run(["schema"])
    expectEqual(r.status, 0)
    let file = try String(contentsOf: CLITests.root.appendingPathComponent("Templates/schema.json"), encoding: .utf8)
    expectEqual(r.stdout, file)
  }

  @Test(arguments: ["info", "templates", "schema", "render", "still"])
  func everyCommandHasHelp(_ command: String) throws {
    let r = try Self.run([command, "--help"])
    expectEqual(r.status, 0)
    #expect(r.stdout.hasPrefix("USAGE: flick \(command)"))
  }

  @Test func usageErrorsAreHelpful() throws {
    let typo = try Self.run(["info", "hello", "--sett", "x=1"])
    expectEqual(typo.status, 2)
    #expect(typo.stderr.contains("unknown option --sett; did you mean --set?"))
    #expect(typo.stderr.contains("Run 'flick info --help' for usage."))
    let oneDash = try Self.run(["info", "hello", "-set", "x=1"])
    #expect(oneDash.stderr.contains("long options take two dashes: --set"))
    let missing = try Self.run(["info", "hello", "--set"])
    expectEqual(missing.status, 2)
    #expect(missing.stderr.contains("option --set needs a value"))
    let swallowed = try Self.run(["info", "hello", "--params", "--allow-outside-assets"])
    expectEqual(swallowed.status, 2)
    #expect(swallowed.stderr.contains("needs a value, found the option --allow-outside-assets"))
    let flagValue = try Self.run(["info", "hello", "--allow-outside-assets=yes"])
    expectEqual(flagValue.status, 2)
    #expect(flagValue.stderr.contains("option --allow-outside-assets takes no value"))
    // After `--` everything is a positional, even a leading dash.
    let dashed = try Self.run(["info", "--", "--help"])
    expectEqual(dashed.status, 2)
    #expect(dashed.stderr.contains("no template file '--help'"))
    let typoName = try Self.run(["info", "helo"])
    expectEqual(typoName.status, 2)
    #expect(typoName.stderr.contains("did you mean 'hello'?"))
  }

  /// Runs `flick ARGS` under `timeout -s KILL 20` and GNU time: a read that waits on a FIFO is
  /// killed (status 137) instead of hanging the suite; the last stderr line is the peak resident
  /// size in KiB (`peak N`), which is cut from `stderr`.
  static func bounded(_ args: [String]) throws -> (status: Int32, stderr: String, peakKiB: Int) {
    let r = try ProcessRunner.run(
      "/usr/bin/timeout", ["-s", "KILL", "20", "/usr/bin/time", "-f", "peak %M", flick] + args)
    var lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while lines.last == "" { lines.removeLast() }
    let peak = lines.last.flatMap { $0.hasPrefix("peak ") ? Int($0.dropFirst(5)) : nil }
    if peak != nil { lines.removeLast() }
    return (r.status, lines.joined(separator: "\n"), peak ?? Int.max)
  }

  @Test func aParamsFileOverTheCapIsRefusedNamingTheFileAndTheCap() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let big = dir.appendingPathComponent("big.json").path
    try FIFOGuard.sparseFile(big, bytes: 17 << 20)
    let r = try Self.bounded(["info", "hello", "--params", big])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(
      r.stderr.contains("\(big): the params file is 17825792 bytes, more than the 16 MiB a params file may be"),
      "\(r.stderr)")
    #expect(r.peakKiB < 100_000, "peak \(r.peakKiB) KiB: the params file was read")
  }

  @Test func aFIFOInPlaceOfAParamsFileOrATemplateIsRefusedNotWaitedOn() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("pipe.json5").path
    try FIFOGuard.make(fifo)
    let params = try Self.bounded(["info", "hello", "--params", fifo])
    expectEqual(params.status, 2, "\(params.stderr)")
    #expect(
      params.stderr.contains("\(fifo): is not a regular file (a FIFO or a device), not a params file"),
      "\(params.stderr)")
    for command in [["info", fifo], ["still", fifo, "-o", dir.appendingPathComponent("s.png").path]] {
      let r = try Self.bounded(command)
      expectEqual(r.status, 2, "\(command): \(r.stderr)")
      #expect(
        r.stderr.contains("\(fifo): is not a regular file (a FIFO or a device), not a template file"),
        "\(command): \(r.stderr)")
    }
    let folder = try Self.bounded(["info", dir.path])
    expectEqual(folder.status, 2, "\(folder.stderr)")
    #expect(folder.stderr.contains("\(dir.path): is a folder, not a template file"), "\(folder.stderr)")
  }

  /// Telling a Lottie file from a template reads a file over both caps only as far as its first
  /// MiB: it read 64 MiB of it, then the template loader refused it by its size.
  @Test func aSourceOverTheCapIsRefusedFromItsFirstMiB() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let small = dir.appendingPathComponent("small.json5").path
    try Data("{".utf8).write(to: URL(fileURLWithPath: small))
    let big = dir.appendingPathComponent("big.json5").path
    try FIFOGuard.sparseFile(big, bytes: 3 << 30)
    let baseline = try Self.bounded(["info", small])
    expectEqual(baseline.status, 2, "\(baseline.stderr)")
    let r = try Self.bounded(["info", big])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(
      r.stderr.contains("\(big): the file is 3221225472 bytes, more than the 16 MiB a template may be"),
      "\(r.stderr)")
    #expect(r.peakKiB - baseline.peakKiB < 32 << 10, "peak \(r.peakKiB) KiB against \(baseline.peakKiB) KiB")
  }
}
