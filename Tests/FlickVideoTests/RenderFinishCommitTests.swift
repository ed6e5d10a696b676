import FlickExpectations
import FlickMotion
import Foundation
import Testing

@testable import FlickVideo

/// A render's outputs change together: every output's temporary is flushed to disk before the
/// first one is put in place, so a full disk or a quota found by the flush leaves every
/// destination as it was (``RenderFinish/finish(beforeCommit:progress:)``).
@Suite struct RenderFinishCommitTests {
  struct Full: Error {}

  /// A sink that notes each step in a shared log and fails the steps it is told to.
  final class NotingSink: FrameSink {
    let destination: String
    let wantsStraightAlpha = false
    let log: Locked<[String]>
    let failsFlush: Bool
    var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { nil }
    var report: SinkReport { SinkReport() }

    init(_ name: String, log: Locked<[String]>, failsFlush: Bool = false) {
      destination = name
      self.log = log
      self.failsFlush = failsFlush
    }

    private func note(_ step: String) { log.withLock { $0.append("\(step) \(destination)") } }
    func write(_ frame: PreparedFrame) throws {}
    func finish() throws { note("finish") }
    func flushForCommit() throws {
      note("flush")
      if failsFlush { throw Full() }
    }
    func commit() throws { note("commit") }
    func abort() { note("abort") }
  }

  static func finish(_ sinks: [NotingSink]) throws {
    let finish = RenderFinish(
      outputs: sinks, discarding: nil, frames: 1, probe: nil,
      summary: { _ in RenderSummary(outputs: [], frames: 1, rendered: 1, width: 2, height: 2) })
    try finish.finish()
  }

  @Test func everyOutputIsFlushedBeforeAnyIsCommitted() throws {
    let log = Locked([String]())
    try Self.finish([NotingSink("a.mp4", log: log), NotingSink("b.gif", log: log), NotingSink("c.webm", log: log)])
    expectEqual(
      log.withLock { $0 },
      [
        "finish a.mp4", "finish b.gif", "finish c.webm", "flush a.mp4", "flush b.gif", "flush c.webm",
        "commit a.mp4", "commit b.gif", "commit c.webm",
      ])
  }

  /// The second output's flush fails (a full disk): the first output, already finished and
  /// flushed, is not put in place either.
  @Test func aFailedFlushCommitsNoOutput() throws {
    let log = Locked([String]())
    #expect(throws: Full.self) {
      try Self.finish([NotingSink("a.mp4", log: log), NotingSink("b.gif", log: log, failsFlush: true)])
    }
    let steps = log.withLock { $0 }
    #expect(!steps.contains { $0.hasPrefix("commit") }, "\(steps)")
    #expect(steps.contains("abort a.mp4") && steps.contains("abort b.gif"), "\(steps)")
  }
}
