import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

struct Model: Sendable, Equatable {
  var x = 0.0
  var p = Point(x: 0, y: 0)
}

/// Collects callback results from @Sendable closures (tests run single-threaded per animator).
final class Log: Sendable {
  private let items = Locked([String]())
  func append(_ s: String) { items.withLock { $0.append(s) } }
  var all: [String] { items.withLock { $0 } }
}

@Suite struct AnimatorTests {
  static let x = AnimatableProperty<Model, Double>(name: "x", threshold: 0.01, read: { $0.x }, write: { $0.x = $1 })
  static let p = AnimatableProperty<Model, Point>(name: "p", threshold: 0.5, read: { $0.p }, write: { $0.p = $1 })
  static let kx = AnimationKey(object: "box", key: "x")
  static let kp = AnimationKey(object: "box", key: "p")

  /// A script with every kind of interruption.
  static func scripted() throws -> Animator<Model> {
    var a = Animator(model: Model())
    try a.spring(kx, property: x, to: 100, parameters: .popDefault, at: 0)
    try a.spring(kx, property: x, to: -40, parameters: .popDefault, at: 0.37)  // spring retarget
    try a.add(kp, property: p, at: 0.1) { h in DecayAnimation(from: h.value, velocity: Point(x: 900, y: -300)) }
    try a.spring(kp, property: p, to: Point(x: 10, y: 10), parameters: .gpuAnimation, at: 0.81)  // decay → spring
    try a.tween(kx, property: x, to: 250, duration: 0.9, timingFunction: .easeInEaseOut, at: 0.62)
    try a.tween(kx, property: x, to: 0, duration: 0.7, timingFunction: .easeOut, at: 1.12)  // tween retarget
    return a
  }

  @Test func frameRateIndependentAndSeekable() throws {
    let reference = try Self.scripted()
    var results: [[Model]] = []
    var eventLists: [[AnimatorEvent]] = []
    for fps in [24.0, 30, 60, 120] {
      var a = try Self.scripted()
      var samples: [Model] = []
      var events: [AnimatorEvent] = []
      let frames = Int(3 * fps)
      for n in 0...frames {
        let t = Double(n) / fps
        events += try a.advance(to: t)
        if n % Int(fps / 6) == 0 { samples.append(a.model) }  // t = k/6 s: common to all rates
        expectEqual(a.model, reference.sample(at: t), "fps \(fps) frame \(n)")
      }
      results.append(samples)
      eventLists.append(events)
    }
    for r in results.dropFirst() { expectEqual(r, results[0]) }
    for e in eventLists.dropFirst() { expectEqual(e, eventLists[0]) }
    // Seeking straight to a time with nothing before gives the same bits.
    var jump = try Self.scripted()
    try jump.advance(to: 2.5)
    expectEqual(jump.model, results[0][15])
  }

  @Test func velocityIsContinuousAcrossEveryInterruption() throws {
    let a = try Self.scripted()
    for (key, t) in [(Self.kx, 0.37), (Self.kx, 0.62), (Self.kx, 1.12)] {
      let before = try #require(a.velocity(of: key, as: Double.self, at: t.nextDown))
      let after = try #require(a.velocity(of: key, as: Double.self, at: t))
      expectLess(abs(before - after), 1e-6 * max(1, abs(after)), "velocity jump at \(t)")
      let vb = try #require(a.value(of: key, as: Double.self, at: t.nextDown))
      let va = try #require(a.value(of: key, as: Double.self, at: t))
      expectLess(abs(vb - va), 1e-9 * max(1, abs(va)), "value jump at \(t)")
      expectGreater(abs(before), 1, "the test needs a moving value at \(t)")
    }
    let pb = try #require(a.velocity(of: Self.kp, as: Point.self, at: 0.81.nextDown))
    let pa = try #require(a.velocity(of: Self.kp, as: Point.self, at: 0.81))
    expectLess((pb - pa).magnitudeSquared.squareRoot(), 1e-6 * pa.magnitudeSquared.squareRoot())
  }

  @Test func replacingCompletesTheOldOneFirst() throws {
    let log = Log()
    var a = Animator(model: Model())
    let first = try a.spring(kx(), property: Self.x, to: 100, at: 0, onComplete: { log.append("first \($0)") })
    let second = try a.spring(kx(), property: Self.x, to: 50, at: 0.5, onComplete: { log.append("second \($0)") })
    let events = try a.advance(to: 10)
    expectEqual(log.all, ["first false", "second true"])
    let kinds = events.map { "\($0.animationID):\($0.kind)" }
    expectEqual(kinds.first, "\(first):start")
    let cut = try #require(kinds.firstIndex(of: "\(first):completed(finished: false)"))
    let next = try #require(kinds.firstIndex(of: "\(second):start"))
    expectLess(cut, next)
    #expect(events[cut].time == 0.5 && events[next].time == 0.5)
    expectEqual(kinds.last, "\(second):completed(finished: true)")
    expectEqual(a.model.x, 50)
  }

  func kx() -> AnimationKey { Self.kx }

  @Test func popIssue414TargetEqualToCurrentStillPlaysAndCompletesOnce() throws {
    // The model is already at 100 (the target) but the animation starts from 0: it must play.
    var a = Animator(model: Model(x: 100))
    let log = Log()
    let spring = SpringAnimation(from: 0.0, to: 100, parameters: .popDefault)
    let id = try a.add(Self.kx, property: Self.x, curve: spring, at: 0, onComplete: { log.append("done \($0)") })
    var events: [AnimatorEvent] = []
    for n in 0...120 { events += try a.advance(to: Double(n) / 60) }
    expectEqual(log.all, ["done true"])
    expectEqual(events.map(\.kind), [.start, .reachedTarget, .completed(finished: true)])
    #expect(events.allSatisfy { $0.animationID == id })
    #expect(events[0].time == 0 && events[2].time == spring.duration)
    expectLess(a.sample(at: 0.05).x, 100)  // it really moves
  }

  @Test func zeroLengthAnimationFiresInOrder() throws {
    var a = Animator(model: Model(x: 5))
    try a.spring(Self.kx, property: Self.x, to: 5, at: 1)
    let events = try a.advance(to: 1)
    expectEqual(events.map(\.kind), [.start, .reachedTarget, .completed(finished: true)])
    #expect(events.allSatisfy { $0.time == 1 })
  }

  @Test func removeLeavesTheValueAndReportsUnfinished() throws {
    var a = Animator(model: Model())
    let log = Log()
    try a.add(
      Self.kx, property: Self.x, curve: BasicAnimation(from: 0.0, to: 10, duration: 1, timingFunction: .linear), at: 0,
      onComplete: { log.append("\($0)") })
    try a.remove(Self.kx, at: 0.25)
    try a.advance(to: 2)
    expectEqual(a.model.x, 2.5)
    expectEqual(log.all, ["false"])
    #expect(!a.isAnimating(Self.kx, at: 0.3))
    #expect(a.isAnimating(Self.kx, at: 0.2))
  }

  @Test func repeatsAndDelayEvents() throws {
    var a = Animator(model: Model())
    try a.add(
      Self.kx, property: Self.x, curve: BasicAnimation(from: 0.0, to: 10, duration: 1, timingFunction: .linear),
      timing: MediaTiming(beginTime: 0.5, repeatCount: 2, autoreverses: true), at: 1)
    let events = try a.advance(to: 10)
    expectEqual(events.map(\.time), [1.5, 2.5, 2.5, 3.5, 4.5, 5.5])
    expectEqual(
      events.map(\.kind),
      [
        .start, .reachedTarget, .repeated(iteration: 1), .repeated(iteration: 2), .repeated(iteration: 3),
        .completed(finished: true),
      ])
    expectEqual(a.sample(at: 1.2).x, 0)
    expectEqual(a.sample(at: 3).x, 5)
  }

  @Test func chainStartsEachGroupAtTheExactCompletionTime() throws {
    let log = Log()
    let chain = AnimationChain<Model>()
      .animate { $0.spring(Self.kx, Self.x, to: 100, onChange: { _, _ in }, onComplete: { _ in }) }
      .animate { $0.tween(Self.kp, Self.p, to: Point(x: 5, y: 5), duration: 0.2) }
      .then.animate { $0.tween(Self.kx, Self.x, to: 0, duration: 0.5) }
      .delay(0.25)
      .animate { $0.spring(Self.kp, Self.p, to: .zero) }
      .then { t in log.append("callback \(t)") }
    var a = Animator(model: Model())
    try a.run(chain, at: 0.1)
    // A chain group's spring is GPUAnimation's (200/10, mass 1, rest 0.01).
    let springEnd = 0.1 + SpringAnimation(from: 0.0, to: 100, parameters: .gpuAnimation, restThreshold: 0.01).duration
    let events = try a.advance(to: 20)
    let starts = events.filter { $0.kind == .start }.map(\.time)
    expectEqual(starts.count, 4)
    #expect(starts[0] == 0.1 && starts[1] == 0.1)
    expectEqual(starts[2], springEnd)  // max of the spring and the 0.2 s tween
    expectEqual(starts[3], springEnd + 0.5 + 0.25)
    expectEqual(log.all.count, 1)
    expectEqual(events.last?.kind, .callback)
  }

  @Test func interruptingAChainStopsIt() throws {
    let chain = AnimationChain<Model>()
      .animate { $0.tween(Self.kx, Self.x, to: 10, duration: 1) }
      .then.animate { $0.tween(Self.kx, Self.x, to: 20, duration: 1) }
    var a = Animator(model: Model())
    try a.run(chain, at: 0)
    try a.remove(Self.kx, at: 0.5)
    let events = try a.advance(to: 5)
    expectEqual(events.filter { $0.kind == .start }.count, 1)
    #expect(events.contains { $0.kind == .completed(finished: false) })
  }

  @Test func controlCallsCannotRewriteHistory() throws {
    var a = Animator(model: Model())
    try a.advance(to: 1)
    #expect(throws: AnimatorError.self) { try a.spring(Self.kx, property: Self.x, to: 1, at: 0.5) }
    #expect(throws: AnimatorError.self) { try a.advance(to: 0.5) }
  }

  @Test func tracerRecordsEventsAndWrites() throws {
    var a = Animator(model: Model())
    a.tracer = AnimationTracer()
    try a.add(
      Self.kx, property: Self.x, curve: BasicAnimation(from: 0.0, to: 1, duration: 0.1, timingFunction: .linear), at: 0)
    try a.advance(to: 0.05)
    try a.advance(to: 0.2)
    let text = a.tracer?.records.map(\.description) ?? []
    #expect(text.contains("0.05 box.x write x = 0.5"))
    expectEqual(a.tracer?.events.map(\.kind), [.start, .applied, .reachedTarget, .completed(finished: true)])
  }
}

@Suite struct AnimatorScriptOrderTests {
  @Test func callOrderDoesNotMatterForDifferentTimes() throws {
    var a = Animator(model: Model())
    var b = Animator(model: Model())
    try a.spring(AnimatorTests.kx, property: AnimatorTests.x, to: 100, at: 0)
    try a.spring(AnimatorTests.kx, property: AnimatorTests.x, to: 10, at: 0.3)
    try a.spring(AnimatorTests.kp, property: AnimatorTests.p, to: Point(x: 4, y: 4), at: 0.1)
    try b.spring(AnimatorTests.kp, property: AnimatorTests.p, to: Point(x: 4, y: 4), at: 0.1)
    try b.spring(AnimatorTests.kx, property: AnimatorTests.x, to: 10, at: 0.3)
    try b.spring(AnimatorTests.kx, property: AnimatorTests.x, to: 100, at: 0)
    for i in 0...40 {
      let t = Double(i) / 20
      expectEqual(a.sample(at: t), b.sample(at: t))
    }
    expectEqual(a.events(after: -1, through: 5).map(\.kind), b.events(after: -1, through: 5).map(\.kind))
  }
}
