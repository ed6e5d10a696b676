import FlickMotion
import FlickScene
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// The finish stage says what it is doing (``RenderProgress/Step``): a GIF's encoding pass frame
/// by frame, gifsicle, each `--max-size` encoding; the printer shows it on the bar and in JSON.
@Suite struct FinishStepTests {
  /// The steps a render of `scene` to `names` reported, in order.
  static func steps(
    _ scene: Scene, _ names: [String], frames: Range<Int>? = nil, scale: Double = 1, budget: OutputBudget? = nil,
    in dir: URL
  ) throws -> (steps: [RenderProgress.Step], summary: RenderSummary) {
    var options = EncodingOptions()
    options.maxSize = budget
    var steps: [RenderProgress.Step] = []
    let summary = try RenderSession(
      scene: scene, outputs: try names.map { try OutputTarget(path: dir.appendingPathComponent($0).path) },
      frames: frames, scale: scale, options: options, pipeline: RenderPipeline(jobs: 2)
    ).run { progress in
      if let step = progress.step {
        #expect(progress.stage == .finish, "steps come in the finish stage")
        steps.append(step)
      }
    }
    return (steps, summary)
  }

  /// A GIF's encoding pass counts every spooled frame once, from 0 to all of them, then gifsicle
  /// runs (when installed); an MP4 beside it, finished by its encoder alone, reports nothing.
  @Test func aGIFCountsItsEncodingPassThenGifsicle() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (steps, _) = try Self.steps(TestSupport.movingScene(), ["a.gif", "a.mp4"], in: dir)
    let gif = dir.appendingPathComponent("a.gif").path
    let encoding: [RenderProgress.Step] = (0...10).map { .encodingGIF(destination: gif, frame: $0, frames: 10) }
    let optimizing: [RenderProgress.Step] = GIFOptimizer.locate() != nil ? [.optimizingGIF(destination: gif)] : []
    expectEqual(steps, encoding + optimizing)
  }

  /// `--max-size` reports each encoding after the output's own (numbered from 2, the output's
  /// own being 1), named with its setting, and the summary counts the same encodings.
  @Test(arguments: ["gif", "mp4"])
  func eachBudgetEncodingIsReported(_ ext: String) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // card-swap at a third of its size, one second of the first drag (as VideoFitTests).
    func render(_ name: String, _ budget: OutputBudget?) throws -> (
      steps: [RenderProgress.Step], summary: RenderSummary
    ) {
      try Self.steps(VideoFitTests.scene, [name], frames: 20..<50, scale: 1.0 / 3, budget: budget, in: dir)
    }
    let own = try render("own.\(ext)", nil).summary.outputs[0].bytes
    let (steps, summary) = try render("fit.\(ext)", OutputBudget(bytes: own * 3 / 5))
    let path = dir.appendingPathComponent("fit.\(ext)").path
    let fitting = steps.compactMap { step -> (Int, String)? in
      guard case .fitting(let destination, let encoding, let setting) = step, destination == path else { return nil }
      return (encoding, setting)
    }
    #expect(!fitting.isEmpty, "\(steps)")
    expectEqual(fitting.map(\.0), Array(2..<(2 + fitting.count)))
    let note = try #require(summary.outputs[0].budgetNote)
    #expect(note.hasSuffix("; \(fitting.count + 1) encodings)"), "\(note)")
    // The chosen setting is the last one encoded.
    #expect(note.contains(" at \(fitting.last?.1 ?? "?")"), "\(note) / \(fitting)")
  }

  @Test func jsonAddsTheStepAndEscapesTheOutput() {
    let done = RenderProgress(stage: .finish, framesDone: 90, totalFrames: 90)
    func line(_ step: RenderProgress.Step) -> String {
      var p = done
      p.step = step
      return ProgressPrinter.json(p, fps: 30, eta: 0)
    }
    let head = #"{"stage":"finish","frame":90,"total":90,"fps":30.00,"eta":0.00,"#
    expectEqual(
      line(.encodingGIF(destination: "a.gif", frame: 12, frames: 90)),
      head + #""step":"encode-gif","output":"a.gif","done":12,"of":90}"#)
    expectEqual(line(.optimizingGIF(destination: "a.gif")), head + #""step":"gifsicle","output":"a.gif"}"#)
    expectEqual(
      line(.fitting(destination: "a.gif", encoding: 3, setting: "20 fps, 480 px wide, 256 colours")),
      head + #""step":"max-size","output":"a.gif","encoding":3,"setting":"20 fps, 480 px wide, 256 colours"}"#)
    // A path may hold anything: the line stays one JSON object that decodes to the same path.
    let hostile = "/o/a\"b\\c\nd\u{1B}[2Je\u{7F}\u{2028}é.gif"
    let text = line(.optimizingGIF(destination: hostile))
    #expect(!text.contains("\n") && !text.contains("\u{1B}"), "\(text)")
    let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    expectEqual(object?["output"] as? String, hostile)
  }

  @Test func theBarNamesTheStepAndTheFile() {
    var p = RenderProgress(stage: .finish, framesDone: 90, totalFrames: 90)
    p.step = .encodingGIF(destination: "/out/preview.gif", frame: 12, frames: 90)
    #expect(ProgressPrinter.bar(p, fps: 30, eta: 0).hasSuffix("finishing: GIF 12/90 (preview.gif)"))
    p.step = .optimizingGIF(destination: "/out/preview.gif")
    #expect(ProgressPrinter.bar(p, fps: 30, eta: 0).hasSuffix("finishing: gifsicle -O3 (preview.gif)"))
    p.step = .fitting(destination: "/out/a.mp4", encoding: 2, setting: "15 fps, 480×270, two-pass 70 kb/s")
    #expect(
      ProgressPrinter.bar(p, fps: 30, eta: 0).hasSuffix(
        "finishing: --max-size, encoding 2: 15 fps, 480×270, two-pass 70 kb/s (a.mp4)"))
    // A step's own time left: known for the encoding pass, not for gifsicle.
    p.step = .encodingGIF(destination: "/out/preview.gif", frame: 30, frames: 90)
    #expect(ProgressPrinter.bar(p, fps: 30, eta: 2).contains("ETA 0:02  finishing: GIF 30/90"))
    p.step = .optimizingGIF(destination: "/out/preview.gif")
    #expect(ProgressPrinter.bar(p, fps: 30, eta: -1).contains("ETA --:--  finishing: gifsicle"))
    #expect(ProgressPrinter.json(p, fps: 30, eta: -1).contains(#""eta":0.00,"#))
    // A terminal's control sequences in a file name are escaped, not sent.
    p.step = .optimizingGIF(destination: "/out/\u{1B}[2Jx.gif")
    #expect(!ProgressPrinter.bar(p, fps: 30, eta: 0).contains("\u{1B}"))
  }

  /// The printer times a GIF's encoding pass from the step's first report: after 1 of 4 frames
  /// in some time t, 3t are left; gifsicle's time is not known.
  @Test func theEncodingPassHasItsOwnETA() throws {
    final class Sink: @unchecked Sendable { var text = "" }
    let sink = Sink()
    let printer = ProgressPrinter(style: .json) { sink.text += $0 }
    var p = RenderProgress(stage: .finish, framesDone: 4, totalFrames: 4)
    p.step = .encodingGIF(destination: "a.gif", frame: 0, frames: 4)
    printer.report(p)
    usleep(300_000)  // past the JSON interval, so the next report is written
    p.step = .encodingGIF(destination: "a.gif", frame: 1, frames: 4)
    printer.report(p)
    p.step = .optimizingGIF(destination: "a.gif")
    printer.report(p)
    let etas = sink.text.split(separator: "\n").compactMap { line -> Double? in
      guard let range = line.range(of: #""eta":"#) else { return nil }
      return Double(line[range.upperBound...].prefix { $0 != "," && $0 != "}" })
    }
    expectEqual(etas.count, 3, "\(sink.text)")
    expectEqual(etas.first, 0, "no frame sent yet: not known")
    let left = try #require(etas.dropFirst().first)
    #expect(left >= 0.9 - 0.01 && left < 30, "3 × about 0.3 s: \(left)")
    expectEqual(etas.last, 0, "gifsicle's time is not known")
  }

  /// Frames of one step are shown at most four times a second (JSON), but a new step, or the
  /// same step for another output, is always shown.
  @Test func everyNewStepIsShownAndItsFramesAreThrottled() {
    final class Sink: @unchecked Sendable { var text = "" }
    let sink = Sink()
    let printer = ProgressPrinter(style: .json) { sink.text += $0 }
    func report(_ step: RenderProgress.Step?) {
      var p = RenderProgress(stage: .finish, framesDone: 9, totalFrames: 9)
      p.step = step
      printer.report(p)
    }
    report(nil)
    for frame in 0...9 { report(.encodingGIF(destination: "a.gif", frame: frame, frames: 9)) }
    report(.optimizingGIF(destination: "a.gif"))
    report(.encodingGIF(destination: "b.gif", frame: 0, frames: 9))
    report(.optimizingGIF(destination: "b.gif"))
    let lines = sink.text.split(separator: "\n")
    // The stage, the first frame of a.gif's pass (the other nine fall within a quarter second),
    // a.gif's gifsicle, b.gif's pass and b.gif's gifsicle.
    expectEqual(lines.count, 5, "\(lines)")
    #expect(lines[1].contains(#""done":0,"of":9"#), "\(lines)")
  }
}
