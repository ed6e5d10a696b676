import FlickExpectations
import FlickVideo
import Testing

@testable import FlickBatch

/// `flick run --progress json`: one event a delivered frame and one a stage, never one a step of
/// a finishing GIF (its encoding pass, gifsicle), which moves no frame count; the bar names the
/// step.
@Suite struct BatchProgressTests {
  @Test func finishStepsAreNotFrameEvents() {
    final class Sink: @unchecked Sendable { var text = "" }
    let sink = Sink()
    let progress = BatchProgress(style: .json, jobs: 1, frames: 2) { sink.text += $0 }
    let job = Plan.Job(
      index: 0, id: "j0", kind: "render", name: "a", template: "", variant: "", width: 1, height: 1, frames: [0, 1],
      outputs: [], merge: nil)
    for done in 0...2 {
      progress.frame(job, RenderProgress(stage: .render, framesDone: done, totalFrames: 2), framesInJob: 2)
    }
    progress.frame(job, RenderProgress(stage: .finish, framesDone: 2, totalFrames: 2), framesInJob: 2)
    for step in [
      RenderProgress.Step.encodingGIF(destination: "a.gif", frame: 1, frames: 2), .optimizingGIF(destination: "a.gif"),
    ] {
      var p = RenderProgress(stage: .finish, framesDone: 2, totalFrames: 2)
      p.step = step
      progress.frame(job, p, framesInJob: 2)
    }
    progress.frame(job, RenderProgress(stage: .done, framesDone: 2, totalFrames: 2), framesInJob: 2)
    let stages = sink.text.split(separator: "\n").map { $0.contains("\"stage\":\"finish\"") ? "finish" : "other" }
    expectEqual(stages.filter { $0 == "finish" }.count, 1, "\(sink.text)")
    expectEqual(stages.count, 5, "\(sink.text)")
  }

  @Test func theBarNamesAFinishStep() {
    final class Sink: @unchecked Sendable { var text = "" }
    let sink = Sink()
    let progress = BatchProgress(style: .bar, jobs: 2, frames: 4) { sink.text += $0 }
    let job = Plan.Job(
      index: 0, id: "j0", kind: "render", name: "slide/1/128x72", template: "", variant: "", width: 1, height: 1,
      frames: [0, 1], outputs: [], merge: nil)
    var p = RenderProgress(stage: .finish, framesDone: 2, totalFrames: 2)
    p.step = .encodingGIF(destination: "/out/slide/1/128x72.gif", frame: 1, frames: 2)
    progress.frame(job, p, framesInJob: 2)
    p.step = .optimizingGIF(destination: "/out/slide/1/128x72.gif")
    progress.frame(job, p, framesInJob: 2)
    let shown = sink.text.split(separator: "\r").filter { !$0.isEmpty }
    expectEqual(shown.count, 2, "a new step is shown at once: \(shown)")
    #expect(shown.first?.hasPrefix("[1/2] slide/1/128x72 finishing: GIF 1/2 (128x72.gif)") == true, "\(shown)")
    #expect(shown.last?.hasPrefix("[1/2] slide/1/128x72 finishing: gifsicle -O3 (128x72.gif)") == true, "\(shown)")
  }
}
