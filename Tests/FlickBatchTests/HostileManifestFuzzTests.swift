import FlickTestSupport
import Foundation
import Testing

/// Hostile manifests from ``HostileManifest`` (seeded, structure-aware) through the real `flick`
/// binary: `flick plan`, then on a plan it accepts `flick run --shard N/N` on an empty shard and
/// `flick merge` (both read the manifest again and go as far as they can without rendering).
/// Every command must end with exit 0, 2 or 3 within the time bound, print no raw terminal
/// control and never the victim's secret word, say where when it refuses, and change nothing
/// outside the case's folder (the victim folder beside it is compared byte for byte).
///
/// `make test` runs `FLICK_MANIFEST_FUZZ_CASES` cases (default 60); `make fuzz` runs 1,000.
/// `FLICK_FUZZ_SEED` picks the first seed; a failure names its seed, and
/// `FLICK_FUZZ_SEED=<seed> FLICK_MANIFEST_FUZZ_CASES=1 FLICK_FUZZ_KEEP=DIR` replays it and keeps
/// its folder.
@Suite struct HostileManifestFuzzTests {
  static let environment = ProcessInfo.processInfo.environment
  static let cases = Int(environment["FLICK_MANIFEST_FUZZ_CASES"] ?? "") ?? 60
  static let firstSeed = UInt64(environment["FLICK_FUZZ_SEED"] ?? "") ?? 0x3A41_F357
  /// Generous: planning a manifest that takes this long is a hang.
  static let timeLimit = 60.0

  /// Runs `flick args` in `folder`, killing it after ``timeLimit``.
  static func run(_ args: [String], in folder: String) throws -> (
    status: Int32, signalled: Bool, timedOut: Bool, output: String
  ) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: BatchFixtures.flick)
    p.arguments = args
    p.currentDirectoryURL = URL(fileURLWithPath: folder)
    p.environment = BatchFixtures.cleanEnvironment
    let pipe = Pipe()
    p.standardError = pipe
    p.standardOutput = pipe
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let done = DispatchSemaphore(value: 0)
    let box = Box()
    DispatchQueue.global().async {
      box.data = pipe.fileHandleForReading.readDataToEndOfFile()
      done.signal()
    }
    let timedOut = done.wait(timeout: .now() + timeLimit) == .timedOut
    if timedOut {
      kill(p.processIdentifier, SIGKILL)
      done.wait()
    }
    p.waitUntilExit()
    return (
      p.terminationStatus, p.terminationReason == .uncaughtSignal, timedOut, String(decoding: box.data, as: UTF8.self)
    )
  }

  private final class Box: @unchecked Sendable { var data = Data() }

  /// Every file under `folder` (relative path → bytes, links by their target).
  static func snapshot(_ folder: URL) -> [String: Data] {
    var out: [String: Data] = [:]
    let fm = FileManager.default
    for name in (fm.subpaths(atPath: folder.path) ?? []) {
      let path = folder.appendingPathComponent(name).path
      if let target = try? fm.destinationOfSymbolicLink(atPath: path) {
        out[name] = Data(("link " + target).utf8)
      } else {
        out[name] = fm.contents(atPath: path) ?? Data("folder".utf8)
      }
    }
    return out
  }

  /// The problems with one case, empty when it behaved.
  static func check(seed: UInt64, root: URL) throws -> [String] {
    let fm = FileManager.default
    let folder = root.appendingPathComponent("case-\(seed)")
    let m = folder.appendingPathComponent("m"), victim = folder.appendingPathComponent("victim")
    try fm.createDirectory(at: m.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try fm.createDirectory(at: victim, withIntermediateDirectories: true)
    defer { if environment["FLICK_FUZZ_KEEP"] == nil { try? fm.removeItem(at: folder) } }
    for (name, text) in HostileManifest.victimFiles {
      try text.write(to: victim.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }
    var g = SeededGenerator(seed: seed)
    let c = HostileManifest.make(&g, victim: victim.path)
    try c.text.write(to: m.appendingPathComponent("batch.json5"), atomically: false, encoding: .utf8)
    for (name, bytes) in c.files { try Data(bytes).write(to: m.appendingPathComponent(name)) }
    for (name, target) in c.links {
      try fm.createSymbolicLink(atPath: m.appendingPathComponent(name).path, withDestinationPath: target)
    }
    _ = mkfifo(m.appendingPathComponent("fifo").path, 0o600)
    let before = snapshot(victim)

    var problems: [String] = []
    var commands = [["plan", "batch.json5", "-o", "plan.json"]]
    var step = 0
    while step < commands.count {
      let args = commands[step]
      step += 1
      let r = try run(args, in: m.path)
      if environment["FLICK_FUZZ_VERBOSE"] != nil {
        print(
          "fuzz seed \(seed) \(args[0]) exit \(r.status): \(r.output.split(separator: "\n").first?.prefix(160) ?? "")")
      }
      func fail(_ what: String) {
        problems.append(
          "seed \(seed) (\(c.theme), flick \(args.joined(separator: " "))): \(what)\n"
            + "  output: \(r.output.prefix(400))\n"
            + "  manifest: \(c.text.prefix(300))")
      }
      if r.timedOut { fail("no answer within \(Int(timeLimit)) s") }
      if r.signalled || ![0, 2, 3].contains(r.status) {
        fail("ended with \(r.signalled ? "signal" : "status") \(r.status)")
      }
      if r.output.contains(HostileManifest.secret) { fail("printed the victim's secret") }
      if r.output.unicodeScalars.contains(where: { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{202E}" || $0 == "\u{0}" })
      {
        fail("raw terminal controls in the output")
      }
      if r.output.split(separator: "\n").contains(where: { $0.hasPrefix("::") }) {
        fail("a line that forges a CI annotation")
      }
      if r.status == 2 && args[0] == "plan" {
        let located =
          r.output.contains("batch.json5:") || r.output.contains(m.path) || r.output.contains("data.")
          || r.output.contains("params.")
        if !located { fail("a refusal that does not say where") }
      }
      // On an accepted plan, the commands that read it again, without rendering.
      if args[0] == "plan", r.status == 0,
        let data = fm.contents(atPath: m.appendingPathComponent("plan.json").path),
        let plan = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let jobs = plan["jobs"] as? [Any]
      {
        let shards = jobs.count + 1
        commands.append(["run", "plan.json", "--shard", "\(shards)/\(shards)", "-q"])
        if seed % 3 == 0 { commands.append(["merge", "plan.json", "-q"]) }
      }
    }
    if snapshot(victim) != before { problems.append("seed \(seed) (\(c.theme)): the victim folder changed") }
    let outside = Set((try? fm.contentsOfDirectory(atPath: folder.path)) ?? [])
    if outside != ["m", "victim"] {
      problems.append("seed \(seed) (\(c.theme)): wrote \(outside.sorted()) beside the case")
    }
    return problems
  }

  @Test func hostileManifestsEndCleanlyAndStayInTheirFolder() throws {
    let root =
      try Self.environment["FLICK_FUZZ_KEEP"].map { URL(fileURLWithPath: $0) }
      ?? ProcessRunner.temporaryDirectory(prefix: "flick-manifest-fuzz")
    defer { if Self.environment["FLICK_FUZZ_KEEP"] == nil { try? FileManager.default.removeItem(at: root) } }
    var problems: [String] = []
    for i in 0..<Self.cases {
      let seed = Self.firstSeed &+ UInt64(i)
      do {
        problems += try Self.check(seed: seed, root: root)
      } catch {
        problems.append("seed \(seed): \(error)")
      }
    }
    #expect(
      problems.isEmpty,
      "\(problems.count) problems in \(Self.cases) cases:\n\(problems.prefix(10).joined(separator: "\n"))")
  }

  @Test func theGeneratorIsDeterministicAndVaried() {
    var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7)
    #expect(HostileManifest.make(&a, victim: "/v").text == HostileManifest.make(&b, victim: "/v").text)
    var g = SeededGenerator(seed: 1)
    let texts = (0..<50).map { _ in HostileManifest.make(&g, victim: "/v").text }
    #expect(Set(texts).count == 50)
    #expect(texts.contains { $0.contains("../victim/") } && texts.contains { $0.contains("data:") })
  }
}
