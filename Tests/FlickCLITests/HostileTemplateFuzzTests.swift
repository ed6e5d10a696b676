import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Hostile templates from ``HostileTemplate`` (seeded, structure-aware) through the real `flick`
/// binary: every case must end with exit 0, 2 or 3 (never a crash or a signal) within the time
/// bound, under a memory bound (`ulimit -v`), leave no temporary file, print no raw terminal
/// controls, and, when it is refused, say where.
///
/// `make test` runs `FLICK_FUZZ_CASES` cases (default 150); `make fuzz` runs 3,000.
/// `FLICK_FUZZ_SEED` picks the first seed; a failure names its seed, and
/// `FLICK_FUZZ_SEED=<seed> FLICK_FUZZ_CASES=1` replays it (`FLICK_FUZZ_KEEP=DIR` keeps the case
/// folders there).
@Suite struct HostileTemplateFuzzTests {
  static let campaign = FuzzCampaign(
    countVariable: "FLICK_FUZZ_CASES", defaultCount: 150, defaultSeed: 0x5EED_F11C,
    // The cases mostly wait for their process: run a few more at once than there are cores.
    parallel: ProcessInfo.processInfo.activeProcessorCount + 1)
  /// 120 s (generous: a case that takes this long is a hang, not a slow case) and 4 GiB of
  /// virtual memory a case.
  static let runner = FuzzCaseRunner(executable: CLITests.flick, timeLimit: 120, memoryLimitKiB: 4 << 20)

  /// The problems with one case, empty when it behaved.
  static func check(seed: UInt64, root: URL) throws -> [String] {
    var g = SeededGenerator(seed: seed)
    let t = HostileTemplate.make(&g)
    let folder = root.appendingPathComponent("case-\(seed)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { FuzzCampaign.discard(folder) }
    try t.text.write(to: folder.appendingPathComponent("t.json5"), atomically: false, encoding: .utf8)
    for (name, bytes) in t.assets { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
    let caps = ["--max-memory", "1G", "--max-pixels", "4000000"]
    let args: [String]
    switch seed % 5 {
    case 0: args = ["render", "t.json5", "-o", "out.mp4", "-o", "frames/", "-q", "--pad", "--jobs", "1"] + caps
    case 1: args = ["info", "t.json5"]
    default: args = ["still", "t.json5", "-o", "out.png", "--at", "50%"] + caps
    }
    let start = Date()
    let r = try runner.run(args, in: folder.path)
    if FuzzCampaign.isVerbose {
      let first = r.output.split(separator: "\n").first.map { String($0.prefix(150)) } ?? ""
      let seconds = Date().timeIntervalSince(start)
      print(String(format: "fuzz seed %llu %@ %.2f s exit %d: %@", seed, args[0], seconds, r.status, first))
    }
    let head = String(t.text.prefix(300))
    let found = runner.problems(
      r, locations: ["t.json5:", "t.json5: ", "cap of", "cannot encode"], leftoversIn: folder)
    return runner.described(found, seed: seed, theme: t.theme, args: args, outcome: r, input: ("template", head))
  }

  @Test func hostileTemplatesEndCleanlyWithExit0Or2Or3() throws {
    let problems = try Self.campaign.problems(folderPrefix: "flick-fuzz") { try Self.check(seed: $0, root: $1) }
    #expect(problems.isEmpty, "\(Self.campaign.summary(problems))")
  }

  @Test func theGeneratorIsDeterministicAndVaried() {
    var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7)
    expectEqual(HostileTemplate.make(&a).text, HostileTemplate.make(&b).text)
    var g = SeededGenerator(seed: 1)
    let texts = (0..<50).map { _ in HostileTemplate.make(&g).text }
    expectEqual(Set(texts).count, 50)
    #expect(texts.contains { $0.contains("$(") } && texts.contains { $0.contains("sublayers") })
  }
}
