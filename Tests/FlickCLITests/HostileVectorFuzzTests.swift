import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Hostile Lottie files and SVG pictures from ``HostileLottie`` and ``HostileSVG`` (seeded,
/// structure-aware) through the real `flick` binary, with the rules of
/// ``HostileTemplateFuzzTests`` (exit 0, 2 or 3 within the time bound under `ulimit -v`, no
/// temporary file left, no raw terminal controls, a refusal that says where), and one more: a
/// security case plants a victim picture of a unique colour outside the case's folder and refers
/// to it every way rlottie or librsvg might load it, and no pixel of the output may have that
/// colour.
///
/// `make test` runs `FLICK_FUZZ_VECTOR_CASES` cases (default 40, half Lottie, half SVG); `make
/// fuzz` runs 1,000. `FLICK_FUZZ_SEED` picks the first seed; a failure names its seed, and
/// `FLICK_FUZZ_SEED=<seed> FLICK_FUZZ_VECTOR_CASES=1` replays it (`FLICK_FUZZ_KEEP=DIR` keeps
/// the case folders there).
@Suite struct HostileVectorFuzzTests {
  static let campaign = FuzzCampaign(
    countVariable: "FLICK_FUZZ_VECTOR_CASES", defaultCount: 40, defaultSeed: 0x5EED_F11C,
    parallel: ProcessInfo.processInfo.activeProcessorCount + 1)

  /// The problems with one case, empty when it behaved.
  static func check(seed: UInt64, root: URL) throws -> [String] {
    // `base/case` is the case's folder; `base/victim` (its `../victim`) holds the victim.
    let base = root.appendingPathComponent("seed-\(seed)")
    let folder = base.appendingPathComponent("case")
    let victimFolder = base.appendingPathComponent("victim")
    try FileManager.default.createDirectory(at: victimFolder, withIntermediateDirectories: true)
    try Data(HostileLottie.victimPNG).write(to: victimFolder.appendingPathComponent("victim.png"))
    var g = SeededGenerator(seed: seed)
    // Even seeds are Lottie cases, odd ones SVG.
    let c =
      seed % 2 == 0
      ? HostileLottie.make(&g, victimFolder: victimFolder.path) : HostileSVG.make(&g, victimFolder: victimFolder.path)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { FuzzCampaign.discard(base) }
    for (name, bytes) in c.files { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
    for (name, target) in c.links {
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent(name).path, withDestinationPath: target)
    }
    let caps = ["--max-memory", "1G", "--max-pixels", "4000000"]
    let args: [String]
    if c.isSecurity {
      args = ["still", c.source, "-o", "out.png", "--frame", "1"] + caps
    } else {
      switch seed / 2 % 5 {
      case 0: args = ["render", c.source, "-o", "out.mp4", "-q", "--jobs", "1"] + caps
      case 1: args = ["info", c.source]
      default: args = ["still", c.source, "-o", "out.png", "--at", "50%"] + caps
      }
    }
    let runner = HostileTemplateFuzzTests.runner
    let r = try runner.run(args, in: folder.path)
    if FuzzCampaign.isVerbose {
      let first = r.output.split(separator: "\n").first.map { String($0.prefix(150)) } ?? ""
      print("fuzz seed \(seed) \(c.theme) \(args[0]) exit \(r.status): \(first)")
    }
    var problems = runner.problems(r, locations: ["a.json", "p.svg", "t.json5:", "cap of"], leftoversIn: folder)
    let out = folder.appendingPathComponent("out.png").path
    if c.isSecurity, r.status == 0, FileManager.default.fileExists(atPath: out) {
      let n = try victimPixels(in: out)
      if n > 0 { problems.append("\(n) pixels of the victim picture outside the folder are in the output") }
    }
    let head = String(
      decoding: (c.files[c.source == "t.json5" ? (c.files["a.json"] != nil ? "a.json" : "p.svg") : c.source] ?? [])
        .prefix(300), as: UTF8.self)
    return runner.described(problems, seed: seed, theme: c.theme, args: args, outcome: r, input: ("file", head))
  }

  /// How many pixels of the PNG at `path` have the victim's colour (opaque, within 4 a channel:
  /// rlottie draws an image a little darker).
  static func victimPixels(in path: String) throws -> Int {
    let image = try PNGFile(path: path)
    let (r, g, b) = HostileLottie.victimRGB
    var count = 0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image.rgba(x: x, y: y)
        if p.a >= 250, abs(Int(p.r) - Int(r)) <= 4, abs(Int(p.g) - Int(g)) <= 4, abs(Int(p.b) - Int(b)) <= 4 {
          count += 1
        }
      }
    }
    return count
  }

  @Test func hostileLottieAndSVGEndCleanlyAndNeverShowAnOutsideFile() throws {
    let problems = try Self.campaign.problems(folderPrefix: "flick-fuzz-vector") { try Self.check(seed: $0, root: $1) }
    #expect(problems.isEmpty, "\(Self.campaign.summary(problems))")
  }

  @Test func theGeneratorsAreDeterministicAndPlantTheVictim() {
    var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7)
    expectEqual(HostileLottie.make(&a, victimFolder: "/v").files, HostileLottie.make(&b, victimFolder: "/v").files)
    expectEqual(HostileSVG.make(&a, victimFolder: "/v").files, HostileSVG.make(&b, victimFolder: "/v").files)
    var g = SeededGenerator(seed: 1)
    let lotties = (0..<60).map { _ in HostileLottie.make(&g, victimFolder: "/v") }
    let svgs = (0..<60).map { _ in HostileSVG.make(&g, victimFolder: "/v") }
    #expect(lotties.contains { $0.isSecurity } && svgs.contains { $0.isSecurity })
    #expect(lotties.contains { !$0.links.isEmpty } && lotties.contains { $0.source == "t.json5" })
  }
}
