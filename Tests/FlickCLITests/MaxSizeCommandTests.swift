import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick render --max-size`: the setting chosen is named on stderr, a budget nothing meets is
/// exit 2 with nothing written, and bad sizes and outputs it cannot fit (MOV, APNG, WebP, PNG
/// sequences) are usage errors; without
/// gifsicle a render says so once and goes on.
@Suite struct MaxSizeCommandTests {
  static func render(_ args: [String], environment: [String: String]? = nil) throws -> ProcessRunner.Output {
    try ProcessRunner.run(CLITests.flick, ["render", CLITests.hello] + args, environment: environment)
  }

  /// Whether `gifsicle` is on `PATH` (and not turned off), as `flick` finds it.
  static var hasGifsicle: Bool {
    let env = ProcessInfo.processInfo.environment
    if let explicit = env["FLICK_GIFSICLE"], !explicit.isEmpty { return explicit != "none" }
    return (env["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/gifsicle")
    }
  }

  @Test func theChosenSettingIsNamedAndTheGIFFits() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let full = dir.appendingPathComponent("full.gif").path
    let r0 = try Self.render(["-o", full, "--scale", "0.5"])
    expectEqual(r0.status, 0, "\(r0.stderr)")
    // gifsicle's pass is named with what it saved and how long it took (it takes most of a long
    // GIF's time), and how to skip it.
    if Self.hasGifsicle {
      let line = r0.stderr.split(separator: "\n").first { $0.contains("by gifsicle -O3") }
      #expect(line?.contains("full.gif made ") == true && line?.contains("FLICK_GIFSICLE=none") == true, "\(r0.stderr)")
    }
    let size = try FileManager.default.attributesOfItem(atPath: full)[.size] as! Int
    let budget = size * 7 / 10
    let gif = dir.appendingPathComponent("fit.gif").path
    let r = try Self.render(["-o", gif, "--scale", "0.5", "--max-size", "\(budget)B"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let fitted = try FileManager.default.attributesOfItem(atPath: gif)[.size] as! Int
    expectLessOrEqual(fitted, budget)
    let lines = r.stderr.split(separator: "\n").filter { $0.contains("fits under") }
    #expect(lines.count == 1 && lines[0].contains("fit.gif") && lines[0].contains(" fps, "), "\(r.stderr)")
  }

  @Test func aBudgetNothingMeetsIsExit2AndWritesNothing() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let gif = dir.appendingPathComponent("tiny.gif").path
    let r = try Self.render(["-o", gif, "--scale", "0.5", "--max-size", "1KB"])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("does not fit under --max-size 1 KB"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "no partial output")
  }

  @Test(arguments: [
    ("a.gif", ["--max-size", "2XB"], "--max-size expects a size such as 2MB"),
    ("a.mov", ["--max-size", "2MB"], "(mov): ProRes is an editing format"),
    ("a.apng", ["--max-size", "2MB"], "(apng): an APNG is lossless"),
    ("a.webp", ["--max-size", "2MB"], "(webp): an animated WebP is written at one fixed quality"),
    ("frames/", ["--max-size", "2MB"], "(png): a PNG sequence is many files, not one"),
  ])
  func badBudgetsAreUsageErrors(_ name: String, _ extra: [String], _ message: String) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Self.render(["-o", dir.path + "/" + name] + extra)
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains(message), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// An MP4 over its budget is encoded again in two passes; the choice is named on stderr (and
  /// with -q nothing but errors is printed).
  @Test func anMP4IsFittedAndTheChoiceNamed() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let cardSwap = CLITests.root.appendingPathComponent("Templates/card-swap.json5").path
    func render(_ args: [String]) throws -> ProcessRunner.Output {
      try ProcessRunner.run(CLITests.flick, ["render", cardSwap, "--scale", "0.3333", "--frames", "20..49"] + args)
    }
    let plain = dir.appendingPathComponent("plain.mp4").path
    try expectEqual(render(["-o", plain]).status, 0)
    let size = try FileManager.default.attributesOfItem(atPath: plain)[.size] as! Int
    let mp4 = dir.appendingPathComponent("fit.mp4").path
    let r = try render(["-o", mp4, "--max-size", "\(size / 2)B"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let fitted = try FileManager.default.attributesOfItem(atPath: mp4)[.size] as! Int
    expectLessOrEqual(fitted, size / 2)
    let lines = r.stderr.split(separator: "\n").filter { $0.contains("fits under") }
    #expect(lines.count == 1 && lines[0].contains("fit.mp4") && lines[0].contains("two-pass"), "\(r.stderr)")
    let tiny = dir.appendingPathComponent("tiny.mp4").path
    let q = try render(["-o", tiny, "--max-size", "1KB", "-q"])
    expectEqual(q.status, 2, "\(q.stderr)")
    #expect(q.stderr.contains("tiny.mp4"), "\(q.stderr)")
    #expect(q.stderr.contains("does not fit"), "\(q.stderr)")
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["fit.mp4", "plain.mp4"])
  }

  @Test func withoutGifsicleARenderSaysSoOnceAndGoesOn() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var env = ProcessInfo.processInfo.environment
    env["FLICK_GIFSICLE"] = "none"
    let a = dir.appendingPathComponent("a.gif").path
    let b = dir.appendingPathComponent("b.gif").path
    let r = try Self.render(["-o", a, "-o", b, "--scale", "0.25"], environment: env)
    expectEqual(r.status, 0, "\(r.stderr)")
    expectEqual(r.stderr.components(separatedBy: "gifsicle is not installed").count, 2, "once: \(r.stderr)")
    #expect(!r.stderr.contains("by gifsicle"), "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: a))
    #expect(FileManager.default.fileExists(atPath: b))
  }

  /// No setting is encoded twice: the lossy steps (the same rate, width and palette as the
  /// setting before them) take that setting's ffmpeg file, so every palette pass ffmpeg runs is
  /// a different one, and all five lossy passes read the same file; and no palette pass runs
  /// where Flick's palette is ffmpeg's (the GIF's own width, 256 colours).
  @Test(.enabled(if: hasGifsicle)) func theLossyStepsEncodeNothingAgain() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let environment = ProcessInfo.processInfo.environment
    let ffmpeg = try NotingWrapper(
      "ffmpeg", real: try #require(environment["FLICK_FFMPEG"] ?? NotingWrapper.onPath("ffmpeg")), in: dir)
    let gifsicle = try NotingWrapper(
      "gifsicle", real: try #require(environment["FLICK_GIFSICLE"] ?? NotingWrapper.onPath("gifsicle")), in: dir,
      sizes: true)
    var wrapped = environment
    wrapped["FLICK_FFMPEG"] = ffmpeg.path
    wrapped["FLICK_GIFSICLE"] = gifsicle.path
    let gif = dir.appendingPathComponent("out/tiny.gif")
    try FileManager.default.createDirectory(at: gif.deletingLastPathComponent(), withIntermediateDirectories: true)
    let r = try Self.render(["-o", gif.path, "--scale", "0.5", "--max-size", "1KB"], environment: wrapped)
    expectEqual(r.status, 2, "\(r.stderr)")
    // A palette pass's arguments without its file names (which are the same for every setting).
    let palettePasses = ffmpeg.runs.filter { $0.contains("palettegen") }.map {
      $0.split(separator: " ").filter { !$0.contains(".partial") && !$0.contains(".palette") }.joined(separator: " ")
    }
    #expect(palettePasses.count >= 2, "\(palettePasses)")
    expectEqual(Set(palettePasses).count, palettePasses.count, "each setting's palette once: \(palettePasses)")
    let lossyPasses = gifsicle.runs.filter { $0.contains("--lossy=") }
    expectEqual(lossyPasses.count, 5, "\(lossyPasses)")
    // Each line starts with the sizes of the temporaries it names: the input's first.
    expectEqual(Set(lossyPasses.map { $0.split(separator: " ").first }).count, 1, "one file: \(lossyPasses)")
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: gif.deletingLastPathComponent().path), [])

    // At the GIF's own width and 256 colours the palette is Flick's: ffmpeg's pass runs only on
    // scaled frames or for fewer colours, here and under a budget a lower rate at full width meets.
    func scaledOrFewer(_ pass: some StringProtocol) -> Bool {
      pass.contains(":flags=lanczos") || pass.contains("max_colors=")
    }
    #expect(palettePasses.allSatisfy { scaledOrFewer($0) }, "\(palettePasses)")
    ffmpeg.clear()
    let fit = try Self.render(["-o", gif.path, "--scale", "0.5", "--max-size", "40KB"], environment: wrapped)
    expectEqual(fit.status, 0, "\(fit.stderr)")
    let passes = ffmpeg.runs.filter { $0.contains("palettegen") }
    #expect(passes.allSatisfy { scaledOrFewer($0) }, "\(passes)")
    let candidates = ffmpeg.runs.filter {
      $0.contains("paletteuse") && ($0.contains(".budget.gif.") || $0.contains(".lookahead.gif."))
    }
    #expect(candidates.contains { !scaledOrFewer($0) }, "a candidate at full width: \(ffmpeg.runs)")
  }

  /// gifsicle's lossless pass runs on an encoding only while it could bring it under the budget:
  /// not on one more than twice the budget (it takes 0.4–10 % off Flick's GIFs).
  @Test(.enabled(if: hasGifsicle)) func aGIFFarOverItsBudgetSkipsTheLosslessPass() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let wrapper = try NotingWrapper("gifsicle", real: try #require(NotingWrapper.onPath("gifsicle")), in: dir)
    var environment = ProcessInfo.processInfo.environment
    environment["FLICK_GIFSICLE"] = wrapper.path
    /// The lossless passes on the output's own encoding (not a candidate's) for a budget.
    func ownPasses(_ budget: Int) throws -> Int {
      wrapper.clear()
      let gif = dir.appendingPathComponent("fit.gif").path
      let r = try Self.render(["-o", gif, "--scale", "0.5", "--max-size", "\(budget)B"], environment: environment)
      expectEqual(r.status, 0, "\(r.stderr)")
      let runs = wrapper.runs.filter { !$0.contains("--lossy") && !$0.contains("--version") }
      return runs.filter { !$0.contains(".budget.gif.") }.count
    }
    let full = dir.appendingPathComponent("full.gif").path
    let r0 = try Self.render(["-o", full, "--scale", "0.5"], environment: ["FLICK_GIFSICLE": "none"])
    expectEqual(r0.status, 0, "\(r0.stderr)")
    let size = try FileManager.default.attributesOfItem(atPath: full)[.size] as! Int
    // Within reach (9/10 of the file): the pass runs on the output's own encoding.
    expectEqual(try ownPasses(size * 9 / 10), 1)
    // Out of reach (under half the file): not on it; the budget is still met.
    expectEqual(try ownPasses(size * 4 / 10), 0)
  }
}
