import FlickMotion
import FlickScene
import FlickTemplates
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// `--max-size` on MP4 and WebM outputs (``VideoFitting``): the normal encoding when it fits,
/// otherwise two-pass encodings from the kept frames, lower rates and widths under the quality
/// floor; the same bytes twice, nothing left when nothing fits.
@Suite struct VideoFitTests {
  /// card-swap at a third of its size (320×180), one second of the first drag.
  static let scene: Scene = {
    let path = TestSupport.root.appendingPathComponent("Templates/card-swap.json5").path
    return try! Template.load(path: path).scene
  }()

  static func render(
    _ paths: [String], budget: OutputBudget?, frames: Range<Int> = 20..<50, ffmpeg: FFmpegTool? = nil
  ) throws -> RenderSummary {
    var options = EncodingOptions()
    options.maxSize = budget
    return try RenderSession(
      scene: scene, outputs: try paths.map { try OutputTarget(path: $0) }, frames: frames, scale: 1.0 / 3,
      options: options, pipeline: RenderPipeline(jobs: 2), ffmpeg: ffmpeg
    ).run()
  }

  static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  /// A budget the normal encoding meets keeps its bytes, named with its CRF.
  @Test(arguments: ["mp4", "webm"])
  func aBudgetTheEncodingMeetsKeepsItsBytes(_ ext: String) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let plain = dir.appendingPathComponent("plain.\(ext)").path
    let fitted = dir.appendingPathComponent("fitted.\(ext)").path
    let size = try Self.render([plain], budget: nil).outputs[0].bytes
    let summary = try Self.render([fitted], budget: OutputBudget(bytes: size))
    try expectEqual(Self.bytes(fitted), Self.bytes(plain))
    let note = try #require(summary.outputs[0].budgetNote)
    #expect(note.contains("at 30 fps, 320×180, CRF "), "\(note)")
    #expect(note.hasSuffix("; 1 encoding)"), "\(note)")
  }

  /// Budgets under the normal size are met (checked on disk), the choice is named, and the same
  /// budget gives the same bytes again; only the outputs are left.
  @Test(arguments: ["mp4", "webm"])
  func budgetsAreMetFromTheKeptFrames(_ ext: String) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let plain = dir.appendingPathComponent("plain.\(ext)").path
    let size = try Self.render([plain], budget: nil).outputs[0].bytes
    var names = ["plain.\(ext)"]
    for (i, share) in [0.6, 0.25].enumerated() {
      let budget = OutputBudget(bytes: Int(Double(size) * share))
      var files: [Data] = []
      // The second budget twice: the same bytes.
      for copy in i == 0 ? ["a"] : ["a", "b"] {
        let name = "fit\(i)\(copy).\(ext)"
        names.append(name)
        let path = dir.appendingPathComponent(name).path
        let output = try Self.render([path], budget: budget).outputs[0]
        let data = try Self.bytes(path)
        expectLessOrEqual(data.count, budget.bytes, "\(share): \(data.count)")
        expectEqual(output.bytes, data.count, "\(share): \(data.count)")
        let note = try #require(output.budgetNote)
        #expect(note.hasPrefix("fits under \(OutputBudget.describe(budget.bytes)) at "), "\(note)")
        #expect(note.contains("two-pass"), "\(note)")
        #expect(note.contains("bits a pixel"), "\(note)")
        // The summary's frame count is the file's.
        let probed = try TestSupport.probe(path, "stream=nb_read_frames")
        expectEqual(probed["nb_read_frames"], "\(output.frames)", "\(note)")
        files.append(data)
      }
      #expect(files.count == 1 || files[0] == files[1], "the same bytes twice at \(share)")
    }
    try expectEqual(TestSupport.contents(dir), names.sorted(), "no spool, pass log or candidate is left")
  }

  /// A budget nothing meets: an invalid-input error naming the output and the smallest size
  /// reached, and nothing at the destination or beside it.
  @Test(arguments: ["mp4", "webm"])
  func aBudgetNothingMeetsFailsAndLeavesNothing(_ ext: String) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("tiny.\(ext)").path
    #expect {
      _ = try Self.render([path], budget: OutputBudget(bytes: 1_000), frames: 20..<30)
    } throws: { error in
      guard let error = error as? VideoError, case .invalidOption(let message) = error else { return false }
      return error.isInvalidInput && message.contains("tiny.\(ext)")
        && message.contains("does not fit under --max-size 1 KB: ") && message.contains(" KB; raise --max-size")
    }
    #expect(try TestSupport.contents(dir).isEmpty, "no partial output")
  }

  /// x264's refusal of a second pass's bitrate is "does not fit" however it shows: here ffmpeg
  /// refuses before reading a frame, so the spooled frames (30 of 86 KB, more than the 1 MiB
  /// pipe holds) meet a closed pipe while they are replayed, not ffmpeg's exit at the end.
  @Test func aRefusalWhileTheFramesAreReplayedDoesNotFit() throws {
    let f = try FailureTests.Fixture()
    defer { f.cleanup() }
    let script = try FailureTests.fakeFFmpeg(
      "case \"$*\" in *\"-pass 2\"*) echo \"\(VideoFitting.bitrateTooLow)\" >&2; exit 1;; esac\n"
        + "exec $(PATH=/usr/local/bin:/usr/bin:/bin command -v ffmpeg) \"$@\"", in: f.bin)
    let mp4 = f.path("a.mp4")
    #expect {
      _ = try Self.render([mp4], budget: OutputBudget(bytes: 20_000), ffmpeg: FFmpegTool(path: script, version: "5.1"))
    } throws: { error in
      guard let error = error as? VideoError, case .invalidOption(let message) = error else { return false }
      return message.contains("a.mp4") && message.contains("does not fit under --max-size 20 KB")
    }
    try expectEqual(TestSupport.contents(f.out), [])
  }

  /// A budget only the narrowest rungs reach: VP9 goes down the ladder to them; x264 refuses
  /// bitrates that low for these frames, which is "does not fit" (exit 2), not an ffmpeg failure.
  @Test func theLadderGoesDownToTheNarrowestRungs() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let webm = dir.appendingPathComponent("a.webm").path
    let output = try Self.render([webm], budget: OutputBudget(bytes: 2_500)).outputs[0]
    expectEqual(output.budgetNote?.contains("at 10 fps, 120×68, two-pass"), true, "\(output.budgetNote ?? "")")
    #expect(try Self.bytes(webm).count <= 2_500 && output.frames == 10)
    let mp4 = dir.appendingPathComponent("a.mp4").path
    #expect {
      _ = try Self.render([mp4], budget: OutputBudget(bytes: 2_500))
    } throws: { error in
      guard let error = error as? VideoError, case .invalidOption(let message) = error else { return false }
      return message.contains("a.mp4") && message.contains("does not fit under --max-size 2.5 KB")
    }
    try expectEqual(TestSupport.contents(dir), ["a.webm"])
  }

  /// A GIF and an MP4 in one render each get their own fit.
  @Test func mixedOutputsAreEachFitted() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let gif = dir.appendingPathComponent("a.gif").path
    let mp4 = dir.appendingPathComponent("a.mp4").path
    let plain = try Self.render([gif, mp4], budget: nil).outputs.map(\.bytes)
    let budget = OutputBudget(bytes: plain.max()! * 6 / 10)
    let summary = try Self.render([gif, mp4], budget: budget)
    for output in summary.outputs {
      try expectLessOrEqual(Self.bytes(output.path).count, budget.bytes)
      expectEqual(output.budgetNote?.hasPrefix("fits under"), true)
    }
    expectEqual(summary.outputs[0].budgetNote?.contains("colours"), true)
    #expect(
      summary.outputs[1].budgetNote?.contains("CRF") == true
        || summary.outputs[1].budgetNote?.contains("two-pass") == true)
    try expectEqual(TestSupport.contents(dir), ["a.gif", "a.mp4"])
  }

  /// MOV, APNG, WebP, PNG sequences and raw frames are refused before anything is rendered.
  @Test(arguments: ["a.mov", "a.apng", "a.webp", "frames/", "a.bgra"])
  func otherFormatsAreRefused(_ name: String) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = EncodingOptions()
    options.maxSize = OutputBudget(bytes: 1_000_000)
    let session = RenderSession(
      scene: Self.scene, outputs: [try OutputTarget(path: dir.path + "/" + name)], scale: 0.1,
      options: options)
    #expect {
      try session.validate()
    } throws: { error in
      guard let error = error as? VideoError, case .invalidOption(let message) = error else { return false }
      return message.hasPrefix("--max-size cannot fit")
    }
    #expect(try TestSupport.contents(dir).isEmpty)
  }
}
