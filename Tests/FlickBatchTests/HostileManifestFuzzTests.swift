import FlickExpectations
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
  static let campaign = FuzzCampaign(
    countVariable: "FLICK_MANIFEST_FUZZ_CASES", defaultCount: 60, defaultSeed: 0x3A41_F357)
  /// 60 s (generous: planning a manifest that takes this long is a hang); stdout and stderr.
  static let runner = FuzzCaseRunner(
    executable: BatchFixtures.flick, timeLimit: 60, environment: BatchFixtures.cleanEnvironment, capturesStdout: true)

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

  /// The raw characters the output must never hold: ESC, CR, RIGHT-TO-LEFT OVERRIDE and NUL.
  static let controls: Set<Unicode.Scalar> = ["\u{1B}", "\r", "\u{202E}", "\u{0}"]

  /// The problems with one case, empty when it behaved.
  static func check(seed: UInt64, root: URL) throws -> [String] {
    let fm = FileManager.default
    let folder = root.appendingPathComponent("case-\(seed)")
    let m = folder.appendingPathComponent("m"), victim = folder.appendingPathComponent("victim")
    try fm.createDirectory(at: m.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try fm.createDirectory(at: victim, withIntermediateDirectories: true)
    defer { FuzzCampaign.discard(folder) }
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
      let r = try runner.run(args, in: m.path)
      if FuzzCampaign.isVerbose {
        print(
          "fuzz seed \(seed) \(args[0]) exit \(r.status): \(r.output.split(separator: "\n").first?.prefix(160) ?? "")")
      }
      // A refusal of the manifest says where; `run` and `merge` refuse the plan.
      let locations = args[0] == "plan" ? ["batch.json5:", m.path, "data.", "params."] : nil
      var found = runner.problems(r, controls: Self.controls, locations: locations)
      if r.output.contains(HostileManifest.secret) { found.append("printed the victim's secret") }
      problems += runner.described(
        found, seed: seed, theme: c.theme, args: args, outcome: r, input: ("manifest", String(c.text.prefix(300))))
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
    let problems = try Self.campaign.problems(folderPrefix: "flick-manifest-fuzz") {
      try Self.check(seed: $0, root: $1)
    }
    #expect(problems.isEmpty, "\(Self.campaign.summary(problems))")
  }

  @Test func theGeneratorIsDeterministicAndVaried() {
    var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7)
    expectEqual(HostileManifest.make(&a, victim: "/v").text, HostileManifest.make(&b, victim: "/v").text)
    var g = SeededGenerator(seed: 1)
    let texts = (0..<50).map { _ in HostileManifest.make(&g, victim: "/v").text }
    expectEqual(Set(texts).count, 50)
    #expect(texts.contains { $0.contains("../victim/") } && texts.contains { $0.contains("data:") })
  }
}
