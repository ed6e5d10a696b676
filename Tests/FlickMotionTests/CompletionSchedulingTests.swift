import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// Completion-driven scheduling: the next card swap is added from the completion of the previous
/// one, at the exact completion time, and the timeline stays pure and frame-rate independent.
@Suite struct CompletionSchedulingTests {
  static let x = AnimatorTests.x
  static let kx = AnimatorTests.kx
  typealias Handler = @Sendable (AnimatorCompletion, inout AnimatorSchedule<Model>) -> Void

  /// Springs to `target`, then (from its completion) to `-target`, forever.
  static func swap(to target: Double) -> Handler {
    { completion, schedule in
      guard completion.finished else { return }
      schedule.spring(kx, property: x, to: target, parameters: .popDefault, whenCompleted: swap(to: -target))
    }
  }

  static func seeded(horizon: Double = 20) throws -> Animator<Model> {
    var a = Animator(model: Model())
    a.continuationHorizon = horizon
    try a.add(kx, property: x, at: 0, whenCompleted: swap(to: -100)) { h in
      SpringAnimation(from: h.value, to: 100.0, velocity: h.velocity, parameters: .popDefault, restThreshold: 0.01)
    }
    return a
  }

  @Test func nextAnimationStartsAtTheExactCompletionTime() throws {
    let a = try Self.seeded()
    let events = a.events(after: -.infinity, through: 20)
    let completions = events.filter { if case .completed(true) = $0.kind { return true } else { return false } }
    let starts = events.filter { $0.kind == .start }
    expectGreaterOrEqual(completions.count, 5)
    // Each swap starts when the previous completes — the same Double, not the next frame.
    for (done, next) in zip(completions, starts.dropFirst()) {
      expectEqual(next.time, done.time)
      expectNotEqual(next.animationID, done.animationID)
    }
    // The completion time is the analytic end: start + the spring's own settling time.
    let state = a.state
    for s in state.segments.prefix(5) { expectEqual(s.end, s.naturalEnd) }
    // The swaps alternate between the targets; each starts where the previous one came to rest
    // (its left limit: within the rest threshold of its target) and with its last velocity.
    expectLessOrEqual(abs(a.value(of: Self.kx, as: Double.self, at: starts[1].time)! - 100), 0.01)
    expectLessOrEqual(abs(a.value(of: Self.kx, as: Double.self, at: starts[2].time)! + 100), 0.01)
    let t = starts[2].time
    expectEqual(a.value(of: Self.kx, as: Double.self, before: t), a.value(of: Self.kx, as: Double.self, at: t))
    #expect(a.continuationsWereTruncated)  // the loop goes on past the 20 s horizon
  }

  @Test func playbackAtAnyFrameRateGivesTheSameTimeline() throws {
    let reference = try Self.seeded()
    let end = 6.0
    for fps in [24.0, 30, 60, 120] {
      var a = try Self.seeded()
      var fired: [AnimatorEvent] = []
      var n = 0
      while Double(n) / fps <= end {
        fired += try a.advance(to: Double(n) / fps)
        n += 1
      }
      fired += try a.advance(to: end)
      expectEqual(a.model, reference.sample(at: end), "\(fps) fps")
      expectEqual(fired, reference.events(after: -.infinity, through: end), "\(fps) fps")
    }
  }

  @Test func aRemovedAnimationReportsUnfinishedAtTheRemovalTime() throws {
    let log = Log()
    var a = Animator(model: Model())
    try a.add(
      Self.kx, property: Self.x, at: 0,
      whenCompleted: { c, schedule in
        log.append("\(c.time) \(c.finished)")
        schedule.add(Self.kx, property: Self.x) { h in
          BasicAnimation(from: h.value, to: 0, duration: 0.5, timingFunction: .linear)
        }
      }
    ) { h in BasicAnimation(from: h.value, to: 100, duration: 1, timingFunction: .linear) }
    try a.remove(Self.kx, at: 0.25)
    _ = a.sample(at: 2)
    expectEqual(log.all, ["0.25 false"])
    expectEqual(a.value(of: Self.kx, as: Double.self, at: 0.5), 12.5)  // the handler's tween from 25 at 0.25
    expectEqual(a.value(of: Self.kx, as: Double.self, at: 1), 0)
  }

  @Test func aZeroLengthLoopIsBounded() throws {
    @Sendable func again(_ c: AnimatorCompletion, _ s: inout AnimatorSchedule<Model>) {
      s.add(Self.kx, property: Self.x, whenCompleted: again) { h in BasicAnimation(from: h.value, to: 1, duration: 0) }
    }
    var a = Animator(model: Model())
    a.continuationLimit = 1000
    try a.add(Self.kx, property: Self.x, at: 0, whenCompleted: again) { h in
      BasicAnimation(from: h.value, to: 1, duration: 0)
    }
    #expect(a.continuationsWereTruncated)
    expectLessOrEqual(a.state.segments.count, 1001)
  }
}
