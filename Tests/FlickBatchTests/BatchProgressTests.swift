import FlickExpectations
import FlickVideo
import Foundation
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

  /// `--progress json` printed a job's time and the ETA with `%.3f` and `%.2f`, which write
  /// `nan` and `inf`: no JSON. Such a number is `null`, as everywhere Flick writes JSON by hand.
  @Test func aTimeThatIsNotFiniteIsNull() throws {
    final class Sink: @unchecked Sendable { var text = "" }
    let sink = Sink()
    let progress = BatchProgress(style: .json, jobs: 3, frames: 6) { sink.text += $0 }
    for (i, seconds) in [Double.nan, .infinity, 0.87].enumerated() {
      let job = Plan.Job(
        index: i, id: "j\(i)", kind: "render", name: "n\(i)", template: "", variant: "", width: 1, height: 1,
        frames: [0, 1], outputs: [], merge: nil)
      progress.finished(job, .rendered, seconds: seconds, frames: 2)
    }
    let lines = sink.text.split(separator: "\n").map(String.init)
    expectEqual(lines.count, 3, "\(sink.text)")
    for line in lines {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
    }
    #expect(lines[0].contains("\"seconds\":null,") && lines[1].contains("\"seconds\":null,"), "\(lines)")
    #expect(lines[2].contains("\"seconds\":0.870,"), "\(lines[2])")
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

  /// A job finishing in the background (`flick run` draws the next one meanwhile): its frames
  /// count once, the bar numbers the next job after it, and JSON says it was handed over.
  @Test func aJobFinishingInTheBackgroundCountsOnce() {
    final class Sink: @unchecked Sendable { var text = "" }
    let sink = Sink()
    let progress = BatchProgress(style: .json, jobs: 3, frames: 6) { sink.text += $0 }
    let jobs = (0..<3).map { i in
      Plan.Job(
        index: i, id: "j\(i)", kind: "render", name: "n\(i)", template: "", variant: "", width: 1, height: 1,
        frames: [0, 1], outputs: [], merge: nil)
    }
    progress.frame(jobs[0], RenderProgress(stage: .render, framesDone: 2, totalFrames: 2), framesInJob: 2)
    progress.finishing(jobs[0], frames: 2)
    progress.frame(jobs[1], RenderProgress(stage: .render, framesDone: 1, totalFrames: 2), framesInJob: 2)
    progress.finished(jobs[0], .rendered, seconds: 0.5, frames: 2)
    // Job 0's two frames and the one of job 1 drawn so far, each once.
    expectEqual(Double(progress.framesDone) + progress.current, 3)
    progress.frame(jobs[1], RenderProgress(stage: .render, framesDone: 2, totalFrames: 2), framesInJob: 2)
    progress.finished(jobs[1], .rendered, seconds: 0.5, frames: 2)
    expectEqual(Double(progress.framesDone) + progress.current, 4)
    let events = sink.text.split(separator: "\n").map(String.init)
    expectEqual(
      events.map { $0.split(separator: ",")[0] },
      [
        "{\"event\":\"frame\"", "{\"event\":\"finishing\"", "{\"event\":\"frame\"", "{\"event\":\"job\"",
        "{\"event\":\"frame\"", "{\"event\":\"job\"",
      ], "\(events)")
    #expect(events[1].contains("\"job\":\"j0\"") && events[1].contains("\"done\":0"), "\(events[1])")
    expectEqual(progress.done, 2)

    let barSink = Sink()
    let bar = BatchProgress(style: .bar, jobs: 3, frames: 6) { barSink.text += $0 }
    bar.finishing(jobs[0], frames: 2)
    bar.frame(jobs[1], RenderProgress(stage: .done, framesDone: 2, totalFrames: 2), framesInJob: 2)
    #expect(barSink.text.hasPrefix("\r[2/3] n1 2/2 · 1 finishing  ETA"), "\(barSink.text)")
    // A job that failed in the background and is drawn again counts its frames again.
    bar.retrying(jobs[0], attempt: 2, of: 2, error: "x")
    #expect(barSink.text.contains("[1/3] retrying n0 (attempt 2 of 2)"), "\(barSink.text)")
    expectEqual(bar.framesDone, 0)
  }
}
