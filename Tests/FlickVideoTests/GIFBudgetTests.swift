import FlickMotion
import FlickScene
import FlickTemplates
@testable import FlickVideo
import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The last step of every GIF: gifsicle `-O3` (same pixels, fewer bytes) and `--max-size`
/// (the first setting on the budget's ladder that fits, re-encoded from the kept frames).
@Suite struct GIFBudgetTests {
  /// A card sliding over a flat background, at 50 fps.
  static func scene() -> Scene {
    TestSupport.movingScene(
      width: 160, height: 96, fps: 50, duration: 1.2, background: Color(red: 0.2, green: 0.3, blue: 0.5))
  }

  static func render(
    _ scene: Scene, to path: String, optimizes: Bool = true, budget: OutputBudget? = nil
  ) throws -> RenderSummary {
    var options = EncodingOptions()
    options.optimizesGIF = optimizes
    options.maxSize = budget
    return try RenderSession(
      scene: scene, outputs: [try OutputTarget(path: path)], options: options, pipeline: RenderPipeline(jobs: 2)
    ).run()
  }

  static var hasGifsicle: Bool { GIFOptimizer.locate() != nil }

  /// gifsicle changes the bytes, never the frames a player shows, and never makes the file larger.
  @Test(.enabled(if: hasGifsicle), arguments: ["card-swap", "chained-sequence"])
  func gifsicleKeepsEveryPixel(_ name: String) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let templates = TestSupport.root.appendingPathComponent("Templates")
    let scene = try Template.load(path: templates.appendingPathComponent("\(name).json5").path).scene
    let plain = dir.appendingPathComponent("plain.gif").path
    let optimized = dir.appendingPathComponent("optimized.gif").path
    var outcomes: [GIFOptimizer.Outcome?] = []
    for (path, optimizes) in [(plain, false), (optimized, true)] {
      var options = EncodingOptions()
      options.optimizesGIF = optimizes
      outcomes.append(
        try RenderSession(
          scene: scene, outputs: [try OutputTarget(path: path)], scale: 0.25, options: options,
          pipeline: RenderPipeline(jobs: 2)
        ).run().outputs[0].optimized)
    }
    let a = try Data(contentsOf: URL(fileURLWithPath: plain))
    let b = try Data(contentsOf: URL(fileURLWithPath: optimized))
    // The summary says what gifsicle did: from ffmpeg's file (the plain one) to the one kept.
    expectEqual(outcomes[0], nil)
    expectEqual(outcomes[1]?.before, a.count)
    expectEqual(outcomes[1]?.after, b.count)
    expectNotEqual(a, b, "gifsicle rewrote the file")
    expectLess(b.count, a.count)
    let framesA = try TestSupport.decodeRGBA(plain)
    #expect(!framesA.isEmpty)
    try expectEqual(TestSupport.decodeRGBA(optimized), framesA, "the same frames")
    // The same total time; gifsicle may store fewer images (a run of frames that map to the same
    // palette indices becomes one image with the run's delay).
    let probeA = try TestSupport.probe(plain, "stream=nb_read_frames,duration_ts")
    let probeB = try TestSupport.probe(optimized, "stream=nb_read_frames,duration_ts")
    #expect(probeA["duration_ts"] != nil && probeB["duration_ts"] == probeA["duration_ts"], "the same timing")
    expectLessOrEqual(Int(probeB["nb_read_frames"] ?? "") ?? .max, Int(probeA["nb_read_frames"] ?? "") ?? 0)
    try expectEqual(TestSupport.contents(dir), ["optimized.gif", "plain.gif"], "no temporary is left")
  }

  @Test func gifsicleIsFoundOnPathOrNamedOrTurnedOff() {
    #expect(GIFOptimizer.locate(environment: ["FLICK_GIFSICLE": "none"]) == nil)
    #expect(GIFOptimizer.locate(environment: ["FLICK_GIFSICLE": "/nonexistent/gifsicle"]) == nil)
    #expect(GIFOptimizer.locate(environment: ["PATH": "/nonexistent"]) == nil)
    expectEqual(GIFOptimizer.locate(environment: ["FLICK_GIFSICLE": "/bin/sh"]), GIFOptimizer(path: "/bin/sh"))
  }

  /// A budget under the GIF's own size picks a lower setting that fits; the same budget
  /// picks the same setting and makes the same bytes again.
  @Test func aBudgetIsMetByTheFirstSettingThatFits() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = Self.scene()
    let full = try Self.render(scene, to: dir.appendingPathComponent("full.gif").path).outputs[0].bytes
    let budget = OutputBudget(bytes: full * 6 / 10)
    var files: [Data] = []
    var notes: [String?] = []
    for name in ["a.gif", "b.gif"] {
      let path = dir.appendingPathComponent(name).path
      let summary = try Self.render(scene, to: path, budget: budget)
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      expectLessOrEqual(bytes.count, budget.bytes)
      expectEqual(summary.outputs[0].bytes, bytes.count)
      files.append(bytes)
      notes.append(summary.outputs[0].budgetNote)
    }
    expectEqual(files[0], files[1], "deterministic bytes")
    expectEqual(notes[0], notes[1])
    let note = try #require(notes[0])
    #expect(note.hasPrefix("fits under \(OutputBudget.describe(budget.bytes)) at "), "\(note)")
    #expect(!note.contains("at 50 fps, 160 px wide, 256 colours"), "a lower setting was chosen: \(note)")
    try expectEqual(TestSupport.contents(dir), ["a.gif", "b.gif", "full.gif"], "no candidate is left")
  }

  /// The search encodes its next setting beside gifsicle's pass on the one before
  /// (``GIFLookahead``) and takes that encoding when it goes on to it; what it chooses, its
  /// bytes and the encodings it counts are those of the search without it, and none of the
  /// lookahead's files is left.
  @Test(.enabled(if: hasGifsicle)) func theLookaheadChangesNothingButTheTime() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let real = try FFmpegTool.locate(for: [.gif])
    let wrapper = try NotingWrapper("ffmpeg", real: real.path, in: dir)
    // card-swap at a third of its size: frames large enough that gifsicle and a second ffmpeg
    // together fit what an MP4 of their size needs (the lookahead's memory bound), and colours
    // enough that an encoding of another setting would not give the same bytes (a lookahead
    // with one colour fewer fails here). Its first 62 frames (2 s, the first card flicked away):
    // the whole clip took 16.5 s of CPU for the same checks, these 7.6 s.
    let templates = TestSupport.root.appendingPathComponent("Templates")
    let scene = try Template.load(path: templates.appendingPathComponent("card-swap.json5").path).scene
    let scale = 1.0 / 3
    func render(_ path: String, _ options: EncodingOptions, ffmpeg: FFmpegTool? = nil) throws -> RenderSummary {
      var session = RenderSession(
        scene: scene, outputs: [try OutputTarget(path: path)], frames: 0..<62, scale: scale, options: options,
        pipeline: RenderPipeline(jobs: 2))
      session.ffmpeg = ffmpeg
      return try session.run()
    }
    let full = try render(dir.appendingPathComponent("full.gif").path, EncodingOptions()).outputs[0].bytes
    // Under the GIF gifsicle makes at its own settings: gifsicle runs on the output's own
    // encoding when it is within reach, and on the candidates, with the next setting encoded
    // beside it.
    var lookaheads = 0
    for share in [9, 6] {
      var outcomes: [(Data, String?)] = []
      for looksAhead in [false, true] {
        wrapper.clear()
        var options = EncodingOptions()
        options.maxSize = OutputBudget(bytes: full * share / 10)
        options.budgetLooksAhead = looksAhead
        let out = dir.appendingPathComponent("out/fit.gif")
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        let summary = try render(out.path, options, ffmpeg: FFmpegTool(path: wrapper.path, version: real.version))
        outcomes.append((try Data(contentsOf: out), summary.outputs[0].budgetNote))
        let lookedAhead = wrapper.runs.contains { $0.contains(".lookahead.gif.") }
        #expect(looksAhead || !lookedAhead, "share \(share)")
        if lookedAhead { lookaheads += 1 }
        try expectEqual(TestSupport.contents(out.deletingLastPathComponent()), ["fit.gif"], "share \(share)")
        try FileManager.default.removeItem(at: out)
      }
      expectEqual(outcomes[0].0, outcomes[1].0, "the same bytes, share \(share)")
      expectEqual(outcomes[0].1, outcomes[1].1, "the same choice, share \(share)")
    }
    #expect(lookaheads > 0, "an encoding ran beside gifsicle")

    // An ffmpeg that fails every candidate's encoding pass: the same error either way, whether
    // the failed encoding is the lookahead's or the search's own, and nothing is left.
    let failing = dir.appendingPathComponent("ffmpeg-failing")
    try """
    #!/bin/sh
    case "$*" in *paletteuse*.budget.gif.*|*paletteuse*.lookahead.gif.*) echo "refused a candidate" >&2; exit 1;; esac
    exec '\(real.path)' "$@"
    """.write(to: failing, atomically: true, encoding: .utf8)
    try ExecutableScript.settle(failing.path)
    var errors: [String] = []
    for looksAhead in [false, true] {
      var options = EncodingOptions()
      options.maxSize = OutputBudget(bytes: full * 6 / 10)
      options.budgetLooksAhead = looksAhead
      let out = dir.appendingPathComponent("out/fit.gif")
      do {
        _ = try render(out.path, options, ffmpeg: FFmpegTool(path: failing.path, version: real.version))
        Issue.record("a failed encoding was not reported")
      } catch {
        errors.append("\(error)")
      }
      try expectEqual(TestSupport.contents(out.deletingLastPathComponent()), [], "looksAhead \(looksAhead)")
    }
    expectEqual(errors.count, 2)
    expectEqual(errors.first, errors.last)
    #expect(errors.first?.contains("refused a candidate") == true, "\(errors)")
  }

  /// A lower rate's candidate keeps the frames its schedule keeps, re-encoded from the spool: it
  /// is the GIF a render at that rate makes, byte for byte, and the summary counts its frames.
  @Test func aLowerRateIsTheGIFARenderAtThatRateMakes() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = Self.scene()
    let direct = dir.appendingPathComponent("direct.gif").path
    var options = EncodingOptions(gifFPS: 25)
    options.optimizesGIF = false
    let at25 = try RenderSession(
      scene: scene, outputs: [try OutputTarget(path: direct)], options: options, pipeline: RenderPipeline(jobs: 2)
    ).run().outputs[0]
    let fitted = dir.appendingPathComponent("fitted.gif").path
    let summary = try Self.render(scene, to: fitted, optimizes: false, budget: OutputBudget(bytes: at25.bytes))
    expectEqual(summary.outputs[0].budgetNote?.contains("at 25 fps, 160 px wide, 256 colours"), true)
    expectEqual(summary.outputs[0].frames, at25.frames)
    expectEqual(at25.frames, 30)
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: fitted)), Data(contentsOf: URL(fileURLWithPath: direct)))
  }

  /// The lossy steps start from ffmpeg's file for the setting before them (the same rate, width
  /// and palette), kept rather than encoded again: the GIF a budget picks at `lossy 20` is that
  /// setting's GIF through `gifsicle -O3 --lossy=20`, byte for byte.
  @Test(.enabled(if: hasGifsicle)) func aLossyStepIsItsSettingsGIFThroughGifsicle() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = Self.scene()
    let ladder = OutputBudget.ladder(fps: scene.fps, width: 160, hasLossy: true)
    let last = try #require(ladder.last { $0.lossy == 0 })
    let firstLossy = try #require(ladder.first { $0.lossy > 0 })
    expectEqual(GIFFinishing.sameEncoding(last, firstLossy), true)
    var options = EncodingOptions(gifFPS: last.fps, gifWidth: last.width)
    options.gifColors = last.colors
    options.gifPalette = .ffmpeg
    options.optimizesGIF = false
    let plain = dir.appendingPathComponent("plain.gif").path
    _ = try RenderSession(
      scene: scene, outputs: [try OutputTarget(path: plain)], options: options, pipeline: RenderPipeline(jobs: 2)
    ).run()
    let lossy = dir.appendingPathComponent("lossy.gif").path
    let failure = try #require(GIFOptimizer.locate()).optimize(
      plain, to: lossy, lossy: firstLossy.lossy, destination: lossy, stallTimeout: nil)
    #expect(failure == nil, "\(String(describing: failure))")
    let expected = try Data(contentsOf: URL(fileURLWithPath: lossy))
    let fitted = dir.appendingPathComponent("fitted.gif").path
    let summary = try Self.render(scene, to: fitted, budget: OutputBudget(bytes: expected.count))
    expectEqual(summary.outputs[0].budgetNote?.contains("at \(firstLossy)"), true, "\(summary.outputs[0])")
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: fitted)), expected)
    try expectEqual(TestSupport.contents(dir), ["fitted.gif", "lossy.gif", "plain.gif"], "no temporary is left")
  }

  /// A budget the GIF already fits keeps the GIF as it is.
  @Test func aBudgetTheGIFFitsChangesNothing() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = Self.scene()
    let plain = dir.appendingPathComponent("plain.gif").path
    let budgeted = dir.appendingPathComponent("budgeted.gif").path
    _ = try Self.render(scene, to: plain)
    let summary = try Self.render(scene, to: budgeted, budget: OutputBudget(bytes: 10_000_000))
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: plain)), Data(contentsOf: URL(fileURLWithPath: budgeted)))
    expectEqual(summary.outputs[0].budgetNote?.contains("at 50 fps, 160 px wide, 256 colours"), true)
  }

  /// When even the last setting is over the budget: an invalid-input error naming the budget,
  /// and nothing at the destination or beside it.
  @Test func aBudgetNothingFitsFailsAndLeavesNothing() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("tiny.gif").path
    #expect {
      _ = try Self.render(Self.scene(), to: path, budget: OutputBudget(bytes: 300))
    } throws: { error in
      guard let error = error as? VideoError, case .invalidOption(let message) = error else { return false }
      return error.isInvalidInput && message.contains("does not fit under --max-size 300 B")
    }
    #expect(try TestSupport.contents(dir).isEmpty, "no partial output")
  }

  @Test func theSummaryNoteSaysWhatGifsicleSaved() {
    expectEqual(
      GIFOptimizer.Outcome(before: 2_405_905, after: 2_158_657, seconds: 0.97).note,
      "made 10.3 % smaller by gifsicle -O3 (2.4 MB → 2.2 MB in 1.0 s; FLICK_GIFSICLE=none skips this step)")
    expectEqual(
      GIFOptimizer.Outcome(before: 5_000, after: 5_000, seconds: 0.04).note,
      "kept as ffmpeg wrote it: gifsicle -O3 made it no smaller (0.0 s)")
  }
}
