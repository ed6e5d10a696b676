import FlickExpectations
import Testing

@testable import FlickMotion

@Suite struct PropertyAnimatorTests {
  typealias PA = PropertyAnimator<Model>
  static let x = AnimatorTests.x

  /// Puts a fresh animator (1 s, linear, x: 0 → 100 added at 0) into a state at t = 1 … 1.1.
  enum Setup: String, CaseIterable {
    case inactive, running, paused, stopped
    func make() throws -> PA {
      var a = PA(duration: 10, timingParameters: .cubic(.linear), model: Model())
      try a.addAnimation(PropertyAnimatorTests.x, to: 100, at: 0)
      switch self {
      case .inactive: break
      case .running: try a.startAnimation(at: 1)
      case .paused:
        try a.startAnimation(at: 1)
        try a.pauseAnimation(at: 1.1)
      case .stopped:
        try a.startAnimation(at: 1)
        try a.stopAnimation(withoutFinishing: false, at: 1.1)
      }
      return a
    }
  }

  enum Call: String, CaseIterable {
    case start, startAfterDelay, pause, scrub, reverse, stopWithoutFinishing, stopFinishing, finishAtEnd,
      continueAnimation, addAnimation
    func apply(_ a: inout PA) throws {
      let t = 2.0
      switch self {
      case .start: try a.startAnimation(at: t)
      case .startAfterDelay: try a.startAnimation(afterDelay: 0.5, at: t)
      case .pause: try a.pauseAnimation(at: t)
      case .scrub: try a.setFractionComplete(0.3, at: t)
      case .reverse: try a.setReversed(true, at: t)
      case .stopWithoutFinishing: try a.stopAnimation(withoutFinishing: true, at: t)
      case .stopFinishing: try a.stopAnimation(withoutFinishing: false, at: t)
      case .finishAtEnd: try a.finishAnimation(to: .end, at: t)
      case .continueAnimation:
        try a.continueAnimation(withTimingParameters: .cubic(.easeOut), durationFactor: 0.5, at: t)
      case .addAnimation: try a.addAnimation(AnimatorTests.p, to: Point(x: 1, y: 1), at: t)
      }
    }
  }

  /// Expected state after each call from each state, or nil when the call must throw.
  static let table: [Setup: [Call: PA.State?]] = [
    .inactive: [
      .start: .active, .startAfterDelay: .active, .pause: .active, .scrub: .active, .reverse: .inactive,
      .stopWithoutFinishing: nil, .stopFinishing: nil, .finishAtEnd: nil, .continueAnimation: nil,
      .addAnimation: .inactive,
    ],
    .running: [
      .start: .active, .startAfterDelay: nil, .pause: .active, .scrub: nil, .reverse: .active,
      .stopWithoutFinishing: .inactive, .stopFinishing: .stopped, .finishAtEnd: nil, .continueAnimation: .active,
      .addAnimation: .active,
    ],
    .paused: [
      .start: .active, .startAfterDelay: nil, .pause: .active, .scrub: .active, .reverse: .active,
      .stopWithoutFinishing: .inactive, .stopFinishing: .stopped, .finishAtEnd: nil, .continueAnimation: .active,
      .addAnimation: .active,
    ],
    .stopped: [
      .start: nil, .startAfterDelay: nil, .pause: nil, .scrub: nil, .reverse: .stopped,
      .stopWithoutFinishing: nil, .stopFinishing: nil, .finishAtEnd: .inactive, .continueAnimation: nil,
      .addAnimation: nil,
    ],
  ]

  @Test(arguments: Setup.allCases, Call.allCases)
  func transitions(_ setup: Setup, _ call: Call) throws {
    var a = try setup.make()
    let expected = try #require(Self.table[setup]?[call])
    if let state = expected {
      try call.apply(&a)
      expectEqual(a.state(at: 2), state, "\(setup) + \(call)")
    } else {
      #expect(throws: AnimatorError.self, "\(setup) + \(call) must throw") { try call.apply(&a) }
    }
  }

  @Test func runsToTheEndAndCompletes() throws {
    var a = PA(duration: 1, timingParameters: .cubic(.easeInEaseOut), model: Model())
    try a.addAnimation(Self.x, to: 100, at: 0)
    let log = Log()
    a.addCompletion { log.append("\($0)") }
    try a.startAnimation(at: 0.5)
    #expect(a.isRunning(at: 1))
    expectEqual(a.sample(at: 1).x, 50)
    expectEqual(a.advance(to: 1.4), [])
    expectEqual(a.advance(to: 1.5), [.end])
    expectEqual(log.all, ["end"])
    expectEqual(a.state(at: 1.6), .inactive)
    expectEqual(a.sample(at: 3).x, 100)
  }

  @Test func pausesOnCompletionStaysActiveAndCanReverse() throws {
    var a = PA(duration: 1, timingParameters: .cubic(.linear), model: Model())
    a.pausesOnCompletion = true
    try a.addAnimation(Self.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    expectEqual(a.advance(to: 2), [])
    expectEqual(a.state(at: 2), .active)
    try a.setReversed(true, at: 2)
    try a.startAnimation(at: 2)
    expectEqual(a.sample(at: 2.25).x, 75)
  }

  @Test func scriptIsAPureFunctionOfTime() throws {
    // "pause at 1.2 s, reverse at 2 s, scrub to 0.3 at 2.5 s, resume at 3 s"
    var a = PA(duration: 2, timingParameters: .cubic(.linear), model: Model())
    try a.addAnimation(Self.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    try a.pauseAnimation(at: 1.2)
    try a.setReversed(true, at: 2)
    try a.setFractionComplete(0.3, at: 2.5)
    try a.startAnimation(at: 3)
    expectLess(abs(a.sample(at: 0.6).x - 30), 1e-9)
    expectLess(abs(a.sample(at: 1.7).x - 60), 1e-9)  // paused
    expectLess(abs(a.sample(at: 2.7).x - 30), 1e-9)  // scrubbed
    expectLess(abs(a.sample(at: 3.3).x - 15), 1e-9)  // running backwards from 0.3
    expectEqual(a.completions(through: 10).map(\.position), [.start])
    expectLess(abs((a.completions(through: 10).first?.time ?? 0) - 3.6), 1e-12)
    expectLess(abs(a.fractionComplete(at: 1.5) - 0.6), 1e-12)
  }

  @Test func reversingWhileRunningTurnsAround() throws {
    var a = PA(duration: 1, timingParameters: .cubic(.linear), model: Model())
    try a.addAnimation(Self.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    try a.setReversed(true, at: 0.4)
    expectLess(abs(a.sample(at: 0.5).x - 30), 1e-9)
    expectEqual(a.completions(through: 1).map(\.position), [.start])
  }

  @Test func stopAndFinishPositions() throws {
    for (position, expected) in [(PA.Position.end, 100.0), (.start, 0), (.current, 50)] {
      var a = PA(duration: 1, timingParameters: .cubic(.linear), model: Model())
      try a.addAnimation(Self.x, to: 100, at: 0)
      try a.startAnimation(at: 0)
      try a.stopAnimation(withoutFinishing: false, at: 0.5)
      expectEqual(a.sample(at: 0.7).x, 50)  // held while stopped
      try a.finishAnimation(to: position, at: 1)
      expectEqual(a.sample(at: 2).x, expected)
      expectEqual(a.completions(through: 5).map(\.position), [position])
    }
    var b = PA(duration: 1, timingParameters: .cubic(.linear), model: Model())
    try b.addAnimation(Self.x, to: 100, at: 0)
    try b.startAnimation(at: 0)
    try b.stopAnimation(withoutFinishing: true, at: 0.25)
    expectEqual(b.sample(at: 3).x, 25)
    #expect(b.completions(through: 5).isEmpty)
  }

  @Test func addAnimationsWhileRunningCoversTheRemainder() throws {
    var a = PA(duration: 2, timingParameters: .cubic(.linear), model: Model())
    try a.addAnimation(Self.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    try a.addAnimation(AnimatorTests.p, to: Point(x: 10, y: 0), delayFactor: 0.5, at: 1)
    expectEqual(a.sample(at: 1.4).p.x, 0)  // delayed by half the remaining 1 s
    expectLess(abs(a.sample(at: 1.75).p.x - 5), 1e-9)
    expectEqual(a.sample(at: 2).p.x, 10)
  }

  /// UIKit: delay = delayFactor × remaining duration. With an ease-in-out curve, half the time
  /// left is not half the progress left, so the two readings differ.
  @Test func delayFactorIsAFractionOfTheRemainingTime() throws {
    for added in [0.0, 1.0] {
      var a = PA(duration: 2, timingParameters: .cubic(.easeInEaseOut), model: Model())
      try a.addAnimation(Self.x, to: 100, at: 0)
      if added > 0 { try a.startAnimation(at: 0) }
      try a.addAnimation(AnimatorTests.p, to: Point(x: 10, y: 0), delayFactor: 0.5, at: added)
      if added == 0 { try a.startAnimation(at: 0) }
      // Inactive: 0.5 × 2 s = 1 s of delay; running at 1 s: 0.5 × the 1 s left.
      let begins = added == 0 ? 1.0 : 1.5
      expectEqual(a.sample(at: begins - 0.02).p.x, 0, "added at \(added)")
      expectGreater(a.sample(at: begins + 0.02).p.x, 0, "added at \(added)")
      expectEqual(a.sample(at: 2).p.x, 10)
    }
  }

  @Test func springTimingSettlesAtTheDuration() throws {
    var a = PA(duration: 1, timingParameters: .spring(dampingRatio: 0.5, initialVelocity: 0), model: Model())
    try a.addAnimation(Self.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    let peak = (0..<100).map { a.sample(at: Double($0) / 100).x }.max() ?? 0
    expectGreater(peak, 100)  // it bounces
    expectLess(abs(a.sample(at: 0.999).x - 100), 0.2)
    expectEqual(a.sample(at: 1).x, 100)
  }

  @Test func continueWithNewTimingUsesDurationFactor() throws {
    var a = PA(duration: 2, timingParameters: .cubic(.linear), model: Model())
    try a.addAnimation(Self.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    try a.pauseAnimation(at: 1)
    try a.continueAnimation(withTimingParameters: nil, durationFactor: 0.5, at: 1)
    expectEqual(a.completions(through: 5).first?.time, 2)  // the half left takes 0.5 × 2 s (UIKit)
  }

  @Test func controlCallsMustBeInTimeOrder() throws {
    var a = PA(duration: 1, model: Model())
    try a.startAnimation(at: 1)
    #expect(throws: AnimatorError.self) { try a.pauseAnimation(at: 0.5) }
  }
}
