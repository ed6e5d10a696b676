import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// Left and right limits, and value + velocity continuity at every kind of hand-over FlickMotion
/// owns, with the joins placed on frames at 24, 30, 60 and 120 fps.
@Suite struct HandoverTests {
  typealias PA = PropertyAnimator<Model>
  static let x = AnimatorTests.x
  static let kx = AnimatorTests.kx
  static let rates: [Double] = [24, 30, 60, 120]
  /// The largest jump allowed at a join, as a fraction of the travel (value) or travel per second (velocity).
  static let tolerance = 1e-6

  static func expectContinuous(
    value before: Double, _ after: Double, velocity vBefore: Double, _ vAfter: Double, travel: Double,
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectLessOrEqual(
      abs(before - after), tolerance * abs(travel), "\(what): value jumps \(before) → \(after)",
      sourceLocation: sourceLocation)
    expectLessOrEqual(
      abs(vBefore - vAfter), tolerance * abs(travel), "\(what): velocity jumps \(vBefore) → \(vAfter)",
      sourceLocation: sourceLocation)
  }

  // MARK: - Left limits on the curve contract

  @Test func tweenEndVelocityIsTheLeftLimit() {
    let tween = BasicAnimation(from: 0.0, to: 100, duration: 0.4, timingFunction: .linear)
    expectEqual(tween.velocity(at: 0.4), 0)  // right limit: it has ended
    expectEqual(tween.velocity(before: 0.4), 250)  // left limit: the speed it ended with
    expectEqual(tween.value(before: 0.4), 100)
    let eased = BasicAnimation(from: 0.0, to: 100, duration: 0.5, timingFunction: .easeIn)
    expectLess(abs(eased.velocity(before: 0.5) - 100 * TimingFunction.easeIn.slope(at: 1) / 0.5), 1e-9)
    expectGreater(eased.velocity(before: 0.5), 100)
    // Inside, the two limits agree.
    expectEqual(eased.velocity(before: 0.2), eased.velocity(at: 0.2))
  }

  @Test func stepsJumpAtTheirBoundaries() {
    let steps = BasicAnimation(from: 0.0, to: 100, duration: 1, timingFunction: .steps(4, position: .jumpEnd))
    expectEqual(steps.value(at: 1), 100)
    expectEqual(steps.value(before: 1), 75)
    expectEqual(steps.value(before: 0.5), 25)
    expectEqual(steps.value(at: 0.5), 50)
  }

  @Test func everyCurveFamilyHasALeftLimitAtItsEnd() throws {
    let spring = SpringAnimation(from: 0.0, to: 100, parameters: .popDefault)
    let decay = DecayAnimation(from: 0.0, velocity: 1000)
    let cont = ContinuingTween(
      BasicAnimation(from: 0.0, to: 100, duration: 0.5, timingFunction: .linear), initialVelocity: -300)
    let timed = BasicAnimation(from: 0.0, to: 100, duration: 0.4, timingFunction: .linear).delayed(by: 0.3)
    let reversedEnd = BasicAnimation(from: 0.0, to: 100, duration: 0.4, timingFunction: .linear)
      .timed(MediaTiming(autoreverses: true))
    // A spring's end: still moving a little (it snaps at `duration`), within its rest threshold.
    expectEqual(spring.velocity(at: spring.duration), 0)
    expectNotEqual(spring.velocity(before: spring.duration), 0)
    expectLessOrEqual(abs(spring.value(before: spring.duration) - 100), spring.restThreshold)
    // A decay ends at Pop's 5 × threshold units/s (its exact derivative is 0.999 × Pop's v₀·dⁿ).
    expectLess(abs(decay.velocity(before: decay.duration) - 5 * 0.999), 0.001)
    expectEqual(decay.velocity(at: decay.duration), 0)
    // A continuing tween ends with the curve's own end velocity (linear from −300 units/s along
    // a 100-unit travel in 0.5 s: slope −1.5 at the start, linear's 1 at the end).
    let bent = ContinuingTween<Double>.bend(.linear, startSlope: -1.5)
    expectLess(abs(cont.velocity(before: 0.5) - 100 * bent.slope(at: 1) / 0.5), 1e-9)
    expectLess(abs(bent.slope(at: 1) - 1), 1e-9)
    // Timing: the end velocity survives the delay; an autoreversed end moves backwards.
    expectLess(abs(timed.velocity(before: 0.7) - 250), 1e-9)
    expectEqual(timed.velocity(before: 0.3), 0)  // before the begin time: at rest
    expectLess(abs(reversedEnd.velocity(before: 0.8) + 250), 1e-9)
    // Erasure forwards the limits.
    expectEqual(AnyAnimationCurve(timed).velocity(before: 0.7), timed.velocity(before: 0.7))
    // Keyframes have their own left limit (the segment arriving at the end).
    let kf = try KeyframeAnimation(values: [0.0, 50, 100], duration: 1)
    expectLess(abs(kf.velocity(before: 1) - 100), 1e-6)
  }

  // MARK: - Animator hand-overs

  /// Defect 1: a release at the instant a tween ends keeps the tween's end velocity.
  @Test(arguments: rates) func tweenToReleaseAtTheTweenEnd(fps: Double) throws {
    let end = (Double(Int(0.4 * fps)) / fps)
    var a = Animator(model: Model())
    try a.tween(Self.kx, property: Self.x, to: 100, duration: end, timingFunction: .linear, at: 0)
    try a.add(Self.kx, property: Self.x, at: end) { h in DecayAnimation(from: h.value, velocity: h.velocity) }
    let v = 100 / end
    expectLess(abs(a.velocity(of: Self.kx, as: Double.self, at: end)! - v * 0.999), 1)  // the decay runs on
    let before = a.value(of: Self.kx, as: Double.self, before: end)!
    let after = a.value(of: Self.kx, as: Double.self, at: end)!
    let vb = a.velocity(of: Self.kx, as: Double.self, before: end)!
    let va = a.velocity(of: Self.kx, as: Double.self, at: end)!
    // Pop's decay reports 0.999·v₀ at t = 0 (its per-millisecond sum): within that, continuous.
    Self.expectContinuous(
      value: before, after, velocity: vb * (-0.998 * log(0.998) / 0.002), va, travel: 100, "tween → release")
    #expect(a.isAnimating(Self.kx, at: end + 0.5))
  }

  @Test(arguments: rates) func springRetargetIsC1(fps: Double) throws {
    let t = Double(Int(0.37 * fps)) / fps
    var a = Animator(model: Model())
    try a.spring(Self.kx, property: Self.x, to: 100, parameters: .popDefault, at: 0)
    try a.spring(Self.kx, property: Self.x, to: -40, parameters: .popDefault, at: t)
    Self.expectContinuous(
      value: a.value(of: Self.kx, as: Double.self, before: t)!, a.value(of: Self.kx, as: Double.self, at: t)!,
      velocity: a.velocity(of: Self.kx, as: Double.self, before: t)!, a.velocity(of: Self.kx, as: Double.self, at: t)!,
      travel: 140, "spring → retarget")
  }

  @Test(arguments: rates) func springTakingOverAtASpringsEnd(fps: Double) throws {
    var a = Animator(model: Model())
    let first = SpringAnimation(from: 0.0, to: 100, parameters: .popDefault, restThreshold: 0.01)
    let end = first.duration
    try a.add(Self.kx, property: Self.x, curve: first, at: 0)
    try a.spring(Self.kx, property: Self.x, to: 0, parameters: .popDefault, at: end)
    Self.expectContinuous(
      value: a.value(of: Self.kx, as: Double.self, before: end)!, a.value(of: Self.kx, as: Double.self, at: end)!,
      velocity: a.velocity(of: Self.kx, as: Double.self, before: end)!,
      a.velocity(of: Self.kx, as: Double.self, at: end)!,
      travel: 100, "spring end → spring at \(fps) fps")
  }

  @Test func decayToRubberBandIsC1() {
    let band = RubberBandDecay(from: 0, velocity: 2000, bounds: 0...300)
    let t = try! #require(band.crossingTime)
    Self.expectContinuous(
      value: band.value(before: t), band.value(at: t), velocity: band.velocity(before: t), band.velocity(at: t),
      travel: 300, "decay → rubber band")
    expectGreater(band.velocity(at: t), 1000)  // it crosses the bound still moving fast
  }

  // MARK: - Property animator: continue, pause, reverse, scrub

  static let families: [(String, PA.TimingParameters)] = [
    ("linear", .cubic(.linear)), ("easeInEaseOut", .cubic(.easeInEaseOut)), ("backOut", .cubic(.back(.out))),
    ("spring(dampingRatio: 0.25)", .spring(dampingRatio: 0.25, initialVelocity: 0)),
    ("spring(dampingRatio: 1)", .spring(dampingRatio: 1, initialVelocity: 0)),
    ("springPhysics", .springPhysics(.popDefault, initialVelocity: 0)),
  ]

  /// The scripts that end in a join at `t`: pause → continue, running → continue, reverse →
  /// continue (live and paused), scrub → continue, each forward and reversed.
  enum Script: String, CaseIterable {
    case pauseContinue, runningContinue, liveReverseContinue, pausedReverseContinue, scrubContinue,
      reversedPauseContinue
  }

  static func animator(_ script: Script, _ initial: PA.TimingParameters, then next: PA.TimingParameters, fps: Double)
    throws
    -> (PA, join: Double)
  {
    let frame = 1 / fps
    var a = PA(duration: 1, timingParameters: initial, model: Model())
    try a.addAnimation(x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    let t1 = 12 * frame
    let join = 20 * frame
    switch script {
    case .pauseContinue:
      try a.pauseAnimation(at: t1)
    case .runningContinue:
      break
    case .liveReverseContinue:
      try a.setReversed(true, at: t1)
    case .pausedReverseContinue:
      try a.pauseAnimation(at: t1)
      try a.setReversed(true, at: t1)
    case .scrubContinue:
      try a.pauseAnimation(at: t1)
      try a.setFractionComplete(0.3, at: t1 + frame)
    case .reversedPauseContinue:
      try a.setReversed(true, at: t1)
      try a.pauseAnimation(at: t1 + 2 * frame)
    }
    try a.continueAnimation(withTimingParameters: next, durationFactor: 0.8, at: join)
    return (a, join)
  }

  @Test(arguments: Script.allCases, rates)
  func continueIsContinuousForEveryFamily(_ script: Script, fps: Double) throws {
    for (initialName, initial) in Self.families {
      for (name, next) in Self.families {
        let (a, join) = try Self.animator(script, initial, then: next, fps: fps)
        let what = "\(script) \(initialName) → \(name) at \(fps) fps"
        Self.expectContinuous(
          value: a.progress(before: join), a.progress(at: join), velocity: a.progressVelocity(before: join),
          a.progressVelocity(at: join), travel: 1, what)
        // The model follows the progress.
        expectLess(abs(a.sample(at: join).x - 100 * a.progress(at: join)), 1e-9, "\(what)")
        // It heads for the current destination and gets there.
        let destination = a.isReversed ? 0.0 : 100
        expectLess(abs(a.sample(at: join + 0.8 + 1e-9).x - destination), 1e-9, "\(what)")
      }
    }
  }

  /// Defect 2, first symptom: paused at rest, continued with a bouncy spring — no velocity spike.
  @Test func pausedDotContinuedWithASpringStartsAtRest() throws {
    var a = PA(duration: 1, timingParameters: .cubic(.easeInEaseOut), model: Model())
    try a.addAnimation(Self.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    try a.pauseAnimation(at: 0.5)
    try a.continueAnimation(
      withTimingParameters: .spring(dampingRatio: 0.25, initialVelocity: 0), durationFactor: 1, at: 1)
    expectEqual(a.progressVelocity(at: 1), 0)
    // One 60 fps frame later it has moved no more than a spring from rest can: ½·ω₀²·Δ·t²
    // (the defect jumped ~23 pt, 1,400 pt/s, in that frame).
    let omega = PA.TimingParameters.calibrated(dampingRatio: 0.25, normalizedVelocity: 0, duration: 1).naturalFrequency
    let t = 1 / 60.0
    let step = a.sample(at: 1 + t).x - a.sample(at: 1).x
    expectGreaterOrEqual(step, 0, "moved \(step) pt in the first frame")
    expectLessOrEqual(step, 0.5 * omega * omega * 50 * t * t, "moved \(step) pt in the first frame")
  }

  /// Defect 2, second symptom: reverse + continue with a spring heads straight for the start.
  @Test func reversedContinueHeadsForTheStart() throws {
    for family in Self.families {
      var a = PA(duration: 1, timingParameters: .spring(dampingRatio: 0.25, initialVelocity: 0), model: Model())
      try a.addAnimation(Self.x, to: 100, at: 0)
      try a.startAnimation(at: 0)
      try a.pauseAnimation(at: 0.3)
      let caught = a.sample(at: 0.3).x
      try a.setReversed(true, at: 0.3)
      try a.continueAnimation(withTimingParameters: family.1, durationFactor: 1, at: 0.3)
      var peak = -Double.infinity
      for n in 0...120 { peak = max(peak, a.sample(at: 0.3 + Double(n) / 120).x) }
      expectLessOrEqual(peak, caught + 1e-9, "\(family.0): swings to \(peak) past \(caught)")
      expectLess(abs(a.sample(at: 1.31).x), 1e-9)
      expectEqual(a.completions(through: 2).map(\.position), [.start])
    }
  }

  // MARK: - One rule implementation

  @Test func commandsApplyTheSameRulesAsTheMethods() throws {
    var a = PA(duration: 1, model: Model())
    try a.addAnimation(Self.x, to: 100, at: 0)
    try expectEqual(a.apply(.start, at: 0), .applied)
    try expectNotEqual(a.apply(.start, at: 0.1), .applied)  // already running: ignored
    try expectEqual(a.apply(.pause, at: 0.2), .applied)
    try expectNotEqual(a.apply(.pause, at: 0.25), .applied)
    try expectEqual(a.apply(.stop(withoutFinishing: false), at: 0.3), .applied)
    // Defect 6: reverse on a stopped animator is ignored (UIKit), not an error.
    guard case .ignored = try a.apply(.setReversed(true), at: 0.4) else {
      Issue.record("reverse on a stopped animator must be ignored")
      return
    }
    #expect(!a.isReversed)
    #expect(throws: AnimatorError.self) { try a.apply(.start, at: 0.5) }
    try expectEqual(a.apply(.finish(at: .end), at: 0.6), .applied)
    expectEqual(a.sample(at: 0.7).x, 100)
  }
}
