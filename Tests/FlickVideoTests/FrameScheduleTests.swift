import FlickMotion
import FlickRaster
import FlickScene
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// One schedule decides the rates, the frames each output keeps, the frames rendered and the
/// counts the summary reports.
@Suite struct FrameScheduleTests {
  @Test func ratesAndCountsComeFromTheOutputs() throws {
    let s = try FrameSchedule(
      renderFPS: 60, frames: 0..<180, outputs: [.gif, .mp4], options: EncodingOptions(gifFPS: 25))
    expectEqual(s.outputs.map(\.fps), [25, 60])
    expectEqual(s.outputs.map(\.frameCount), [75, 180])
    expectEqual(s.outputs.map(\.duration), [3, 3])
    expectEqual(s.rendered, Array(0..<180), "the MP4 keeps every frame")
    let gif = try FrameSchedule(renderFPS: 60, frames: 0..<180, outputs: [.gif], options: EncodingOptions(gifFPS: 25))
    expectEqual(gif.rendered.count, 75)
    expectEqual(gif.rendered, (0..<180).filter { FrameSchedule.keepsFrame($0, from: 60, to: 25) })
    // The default GIF rate is the render's, capped at 50.
    let capped = try FrameSchedule(renderFPS: 60, frames: 0..<60, outputs: [.gif], options: EncodingOptions())
    expectEqual(capped.outputs[0].fps, 50)
    expectEqual(capped.rendered.count, 50)
    // Positions count from the render's first frame (`--frames`).
    let part = try FrameSchedule(renderFPS: 60, frames: 30..<90, outputs: [.gif], options: EncodingOptions(gifFPS: 25))
    expectEqual(part.rendered, gif.rendered.filter { $0 < 60 }.map { $0 + 30 })
    // A sink that discards frames (`--null`) gets every frame.
    let all = try FrameSchedule(
      renderFPS: 60, frames: 0..<60, outputs: [.gif], options: EncodingOptions(gifFPS: 25), everyFrame: true)
    #expect(all.rendered.count == 60 && all.outputs[0].frameCount == 25)
  }

  @Test func gifRatesThatDoNotFitAreRefused() {
    for (fps, gifFPS) in [(60, 60), (20, 25), (60, 0)] {
      #expect(throws: VideoError.self) {
        try FrameSchedule(renderFPS: fps, frames: 0..<60, outputs: [.gif], options: EncodingOptions(gifFPS: gifFPS))
      }
    }
    // One frame at 60 fps makes no frame at 10 fps.
    #expect(throws: VideoError.self) {
      try FrameSchedule(renderFPS: 60, frames: 0..<1, outputs: [.gif], options: EncodingOptions(gifFPS: 10))
    }
  }

  /// With several outputs the render rasterises the union of what they keep, and each output
  /// gets its own frames: the GIF beside an APNG (which keeps every frame) is byte for byte the
  /// GIF rendered alone, which rasterises only its own frames.
  @Test func severalOutputsRasteriseTheUnionAndEachGetsItsOwnFrames() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = TestSupport.movingScene(width: 64, height: 48, fps: 60, duration: 1)
    let options = EncodingOptions(gifFPS: 20)
    func render(_ names: [String]) throws -> (Int, RenderSummary) {
      let counter = Locked(0)
      var pipeline = RenderPipeline(jobs: 2)
      pipeline.reusesUnchangedFrames = false
      pipeline.makeRenderer = { scale in
        let renderer = FrameRenderer(scale: scale)
        return { tree in
          counter.withLock { $0 += 1 }
          return try renderer.render(tree)
        }
      }
      let outputs = try names.map { try OutputTarget(path: dir.appendingPathComponent($0).path) }
      let summary = try RenderSession(scene: scene, outputs: outputs, options: options, pipeline: pipeline).run()
      return (counter.withLock { $0 }, summary)
    }
    let (alone, summary) = try render(["alone.gif"])
    expectEqual(alone, 20)
    expectEqual(summary.rendered, 20)
    expectEqual(summary.frames, 60)
    expectEqual(summary.outputs[0].frames, 20)
    let (both, pair) = try render(["pair.gif", "pair.apng"])
    expectEqual(both, 60)
    expectEqual(pair.rendered, 60)
    expectEqual(pair.outputs.map(\.frames), [20, 60])
    let a = try Data(contentsOf: dir.appendingPathComponent("alone.gif"))
    expectEqual(a, (try Data(contentsOf: dir.appendingPathComponent("pair.gif"))))
    expectEqual(pair.outputs[0].bytes, a.count)
  }
}
