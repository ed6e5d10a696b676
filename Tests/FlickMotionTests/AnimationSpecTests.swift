import FlickExpectations
import Testing

@testable import FlickMotion

@Suite struct AnimationSpecTests {
  @Test func springFamilies() throws {
    func params(_ s: String) throws -> SpringParameters {
      guard case .spring(let p, _, _, _) = try AnimationSpec(parsing: s).kind else { throw MotionError("not a spring") }
      return p
    }
    try expectEqual(params("spring"), .popDefault)
    try expectEqual(params("spring(mass: 1)"), .coreAnimation)
    try expectEqual(params("spring(bounciness: 8, speed: 12)"), .pop(bounciness: 8, speed: 12))
    try expectEqual(params("spring(stiffness: 200, damping: 10)"), .gpuAnimation)
    try expectEqual(params("spring(duration: 0.5, bounce: 0.3)"), SpringParameters(duration: 0.5, bounce: 0.3))
    try expectEqual(
      params("spring(response: 0.5, dampingRatio: 0.7)"), SpringParameters(response: 0.5, dampingRatio: 0.7))
    try expectEqual(params("spring(visualDuration: 0.3, bounce: 0.3)"), .framer())
    try expectEqual(params("spring(tension: 300, friction: 20)"), .pop(tension: 300, friction: 20))
    try expectEqual(params("bouncy"), .bouncy())
    try expectEqual(params("snappy(duration: 0.4, extraBounce: 0.1)"), .snappy(duration: 0.4, extraBounce: 0.1))
  }

  @Test func tweensAndCurves() throws {
    try expectEqual(AnimationSpec(parsing: "easeOut").kind, .tween(.easeOut, duration: 0.4))
    try expectEqual(AnimationSpec(parsing: "easeInEaseOut(duration: 1.5)").kind, .tween(.easeInEaseOut, duration: 1.5))
    try expectEqual(
      AnimationSpec(parsing: "cubicBezier(0.1, 0.7, 1, 0.1, duration: 2)").kind,
      .tween(TimingFunction(0.1, 0.7, 1, 0.1), duration: 2))
    try expectEqual(
      AnimationSpec(parsing: "steps(4, jumpStart)").kind, .tween(.steps(4, position: .jumpStart), duration: 0.4))
    try expectEqual(
      AnimationSpec(parsing: "tween(curve: backOut(overshoot: 2), duration: 1)").kind,
      .tween(.back(.out, overshoot: 2), duration: 1))
    try expectEqual(
      AnimationSpec(parsing: "elasticOut(period: 0.5)").kind, .tween(.elastic(.out, period: 0.5), duration: 0.4))
  }

  @Test func decayAndKeyframes() throws {
    try expectEqual(
      AnimationSpec(parsing: "decay(velocity: 1000)").kind,
      .decay(velocity: 1000, deceleration: 0.998, threshold: 1, bounds: nil))
    try expectEqual(
      AnimationSpec(parsing: "decay(velocity: -50, min: -10, max: 10)").kind,
      .decay(velocity: -50, deceleration: 0.998, threshold: 1, bounds: -10...10))
    let k = try AnimationSpec(
      parsing:
        "keyframes(values: [0, 1.2, 1], keyTimes: [0, 0.6, 1], curves: [easeOut, easeIn], mode: cubic, duration: 1)")
    expectEqual(
      k.kind,
      .keyframes(
        values: [0, 1.2, 1], keyTimes: [0, 0.6, 1], curves: [.easeOut, .easeIn], mode: .cubic, duration: 1))
    let curve = try k.curve(from: 100.0, to: 200.0)
    expectLess(abs(curve.value(at: 0.6) - 220), 1e-9)
  }

  @Test func timingOptions() throws {
    let s = try AnimationSpec(parsing: "easeIn(duration: 1, delay: 0.5, repeatCount: 2, autoreverses: true)")
    expectEqual(s.timing, MediaTiming(beginTime: 0.5, repeatCount: 2, autoreverses: true))
    let c = try s.curve(from: 0.0, to: 1.0)
    expectEqual(c.duration, 4.5)
  }

  @Test func velocityActsTowardTheTarget() throws {
    let s = try AnimationSpec(parsing: "spring(velocity: 50)")
    try expectEqual(s.curve(from: 100.0, to: 0.0).velocity(at: 0), -50)
    try expectEqual(s.curve(from: Point(x: 0, y: 0), to: Point(x: 3, y: 4)).velocity(at: 0), Point(x: 30, y: 40))
  }

  @Test(arguments: [
    ("sprung", "did you mean 'spring'"),
    ("spring(stiffness: 100, bounciness: 3)", "mix"),
    ("spring(bounciness: 30)", "'bounciness' in spring(…) must be in 0…20, found 30"),
    ("spring(stifness: 100)", "has no option 'stifness'"),
    ("decay", "decay needs a velocity"),
    ("cubicBezier(1.5, 0, 1, 1)", "x1 and x2 in 0…1"),
    ("easeIn(duration: 1", "expected ')'"),
    ("keyframes(values: [0, 1], keyTimes: [0])", "need 2 key times"),
    ("spring(damping: x)", "must be a number"),
    ("easeIn) extra", "after the spec"),
  ])
  func errorsAreClear(_ input: String, _ fragment: String) {
    do {
      _ = try AnimationSpec(parsing: input)
      Issue.record("'\(input)' parsed")
    } catch {
      #expect(error.description.contains(fragment), "\(error)")
      #expect(error.column != nil, "\(error)")
      #expect(!error.message.hasPrefix("column "), "the column is structured, not in the text: \(error.message)")
      if let column = error.column { #expect(error.description.hasPrefix("column \(column): ")) }
    }
  }
}
