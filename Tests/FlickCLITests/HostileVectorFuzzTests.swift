@testable import FlickRaster
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
  static let environment = ProcessInfo.processInfo.environment
  static let cases = Int(environment["FLICK_FUZZ_VECTOR_CASES"] ?? "") ?? 40
  static let firstSeed = UInt64(environment["FLICK_FUZZ_SEED"] ?? "") ?? 0x5EED_F11C

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
    defer { if environment["FLICK_FUZZ_KEEP"] == nil { try? FileManager.default.removeItem(at: base) } }
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
    let r = try HostileTemplateFuzzTests.run(args, in: folder.path)
    if environment["FLICK_FUZZ_VERBOSE"] != nil {
      let first = r.stderr.split(separator: "\n").first.map { String($0.prefix(150)) } ?? ""
      print("fuzz seed \(seed) \(c.theme) \(args[0]) exit \(r.status): \(first)")
    }
    var problems: [String] = []
    let head = String(
      decoding: (c.files[c.source == "t.json5" ? (c.files["a.json"] != nil ? "a.json" : "p.svg") : c.source] ?? [])
        .prefix(300), as: UTF8.self)
    func fail(_ what: String) {
      problems.append(
        "seed \(seed) (\(c.theme), flick \(args.joined(separator: " "))): \(what)\n  stderr: \(r.stderr.prefix(400))\n  file: \(head)"
      )
    }
    if r.timedOut { fail("no answer within \(Int(HostileTemplateFuzzTests.timeLimit)) s") }
    if r.signalled || ![0, 2, 3].contains(r.status) {
      fail("ended with \(r.signalled ? "signal" : "status") \(r.status)")
    }
    let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
      $0.hasPrefix(".") || $0.hasSuffix(".tmp") || $0.hasSuffix(".partial")
    }
    if !leftovers.isEmpty { fail("left \(leftovers)") }
    if r.status == 2 {
      let located = ["a.json", "p.svg", "t.json5:"].contains { r.stderr.contains($0) }
      if !located && !r.stderr.contains("cap of") { fail("a refusal that does not say where") }
    }
    if r.stderr.unicodeScalars.contains(where: { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{202E}" || $0 == "\u{85}" }) {
      fail("raw terminal controls in the message")
    }
    if r.stderr.split(separator: "\n").contains(where: { $0.hasPrefix("::") }) {
      fail("a line that forges a CI annotation")
    }
    let out = folder.appendingPathComponent("out.png").path
    if c.isSecurity, r.status == 0, FileManager.default.fileExists(atPath: out) {
      let n = try victimPixels(in: out)
      if n > 0 { fail("\(n) pixels of the victim picture outside the folder are in the output") }
    }
    return problems
  }

  /// How many pixels of the PNG at `path` have the victim's colour (opaque, within 4 a channel: rlottie draws an image a little darker).
  static func victimPixels(in path: String) throws -> Int {
    let image = try DecodedImage.decode(path: path)
    let bytes = image.copyPixels()
    let (r, g, b) = HostileLottie.victimRGB
    var count = 0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let i = y * image.stride + x * 4  // premultiplied BGRA
        if bytes[i + 3] >= 250, abs(Int(bytes[i + 2]) - Int(r)) <= 4, abs(Int(bytes[i + 1]) - Int(g)) <= 4,
          abs(Int(bytes[i]) - Int(b)) <= 4
        {
          count += 1
        }
      }
    }
    return count
  }

  @Test func hostileLottieAndSVGEndCleanlyAndNeverShowAnOutsideFile() throws {
    let root =
      try Self.environment["FLICK_FUZZ_KEEP"].map { URL(fileURLWithPath: $0) }
      ?? ProcessRunner.temporaryDirectory(prefix: "flick-fuzz-vector")
    defer { if Self.environment["FLICK_FUZZ_KEEP"] == nil { try? FileManager.default.removeItem(at: root) } }
    let problems = Locked<[String]>([])
    let slots = DispatchSemaphore(value: ProcessInfo.processInfo.activeProcessorCount + 1)
    let group = DispatchGroup()
    for i in 0..<Self.cases {
      let seed = Self.firstSeed &+ UInt64(i)
      slots.wait()
      DispatchQueue.global().async(group: group) {
        defer { slots.signal() }
        do {
          let found = try Self.check(seed: seed, root: root)
          if !found.isEmpty { problems.withValue { $0 += found } }
        } catch {
          problems.withValue { $0.append("seed \(seed): \(error)") }
        }
      }
    }
    group.wait()
    let all = problems.withValue { $0 }
    #expect(all.isEmpty, "\(all.count) of \(Self.cases) cases misbehaved:\n\(all.prefix(10).joined(separator: "\n"))")
  }

  @Test func theGeneratorsAreDeterministicAndPlantTheVictim() {
    var a = SeededGenerator(seed: 7)
    var b = SeededGenerator(seed: 7)
    #expect(HostileLottie.make(&a, victimFolder: "/v").files == HostileLottie.make(&b, victimFolder: "/v").files)
    #expect(HostileSVG.make(&a, victimFolder: "/v").files == HostileSVG.make(&b, victimFolder: "/v").files)
    var g = SeededGenerator(seed: 1)
    let lotties = (0..<60).map { _ in HostileLottie.make(&g, victimFolder: "/v") }
    let svgs = (0..<60).map { _ in HostileSVG.make(&g, victimFolder: "/v") }
    #expect(lotties.contains { $0.isSecurity } && svgs.contains { $0.isSecurity })
    #expect(lotties.contains { !$0.links.isEmpty } && lotties.contains { $0.source == "t.json5" })
  }
}
