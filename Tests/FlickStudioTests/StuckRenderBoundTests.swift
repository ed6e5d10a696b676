import FlickExpectations
import FlickMotion
import Foundation
import Testing

@testable import FlickStudio

/// Drawings past the frame timeout cannot be stopped and keep their buffers: the pool replaces at
/// most `workers` of them, then answers every frame 503 at once until one returns, so stuck
/// drawings cannot pile up (each save and request used to leave one more behind).
@Suite struct StuckRenderBoundTests {
  /// Submits a job of `template` and waits for its answer: its status and text.
  static func answer(
    _ pool: RenderPool, template: String, work: @escaping RenderPool.Work
  ) -> (status: Int, text: String) {
    let answered = DispatchSemaphore(value: 0)
    let result = Locked((0, ""))
    pool.submit(
      client: nil, sequence: 0, template: template, work: work,
      reply: { response in
        var text = ""
        if case .data(let data) = response.body { text = String(decoding: data, as: UTF8.self) }
        result.withLock { $0 = (response.status, text) }
        answered.signal()
      })
    answered.wait()
    return result.withLock { $0 }
  }

  @Test func stuckDrawingsBeyondTheWorkerCountGetNoNewWorker() {
    let pool = RenderPool(workers: 1, frameTimeout: 0.05)
    defer { pool.stop() }
    let gate = DispatchSemaphore(value: 0)
    let stuck: RenderPool.Work = { _ in
      gate.wait()
      return HTTPResponse(status: 200)
    }
    let quick: RenderPool.Work = { _ in HTTPResponse(status: 200) }
    // The first stuck drawing gets a new worker in its place; the second, none.
    let first = Self.answer(pool, template: "a.json5", work: stuck)
    expectEqual(first.status, 503, "\(first.text)")
    #expect(first.text.contains("has been drawing for more than"), "\(first.text)")
    let second = Self.answer(pool, template: "b.json5", work: stuck)
    expectEqual(second.status, 503, "\(second.text)")
    #expect(second.text.contains("has been drawing for more than"), "\(second.text)")
    // Every worker's place is held by a stuck drawing: refused at once, saying so.
    let refused = Self.answer(pool, template: "c.json5", work: quick)
    expectEqual(refused.status, 503, "\(refused.text)")
    #expect(refused.text.contains("2 frames still draw past --frame-timeout"), "\(refused.text)")
    #expect(refused.text.contains("at most 1 stuck"), "\(refused.text)")
    // One stuck drawing returns: its worker takes the free place and frames are drawn again.
    gate.signal()
    var again = Self.answer(pool, template: "c.json5", work: quick)
    for _ in 0..<2_000 where again.status == 503 {
      usleep(10_000)
      again = Self.answer(pool, template: "c.json5", work: quick)
    }
    expectEqual(again.status, 200, "\(again.text)")
    gate.signal()
  }
}
