import FlickExpectations
import Testing

import FlickMotion

/// The curves a template's `set`, `drag` and `animator` entries compile to, used from Swift:
/// public, analytic, with exact left limits at their ends.
@Suite struct TemplateCurvesTests {
  @Test func constantHoldsItsValueWithZeroVelocity() {
    let c = ConstantCurve(value: Point(x: 3, y: -4))
    expectEqual(c.duration, 0)
    for t in [-1.0, 0, 0.5, 100] {
      expectEqual(c.value(at: t), Point(x: 3, y: -4))
      expectEqual(c.velocity(at: t), .zero)
      expectEqual(c.velocity(before: t), .zero)
    }
  }

  @Test func dragPassesThroughItsPointsAtAnEvenPace() throws {
    // 0 → 40 → 100: key times by distance (0, 0.4, 1), linear timing.
    let drag = try DragCurve(points: [0.0, 40, 100], duration: 2)
    expectEqual(drag.duration, 2)
    expectEqual(drag.value(at: 0), 0)
    expectLess(abs(drag.value(at: 0.8) - 40), 1e-9)
    expectEqual(drag.value(at: 2), 100)
    expectEqual(drag.value(at: 5), 100)
    // Two points: a straight line at 50 units/s; the lift velocity is the left limit at the end.
    let line = try DragCurve(points: [0.0, 100], duration: 2)
    expectLess(abs(line.velocity(at: 1) - 50), 1e-9)
    expectLess(abs(line.velocity(before: 2) - 50), 1e-9)
    expectEqual(line.velocity(at: 2), 0)
  }

  @Test func dragLiftVelocityIsTheLeftLimitOfItsMotion() throws {
    let drag = try DragCurve(
      points: [Point(x: 0, y: 0), Point(x: 80, y: 30), Point(x: 200, y: 0)], duration: 0.6, timing: .easeIn)
    let lift = drag.velocity(before: 0.6)
    let h = 1e-6
    let numeric = (drag.value(at: 0.6) - drag.value(at: 0.6 - h)).scaled(by: 1 / h)
    expectLess((lift - numeric).magnitudeSquared.squareRoot(), 1e-3 * lift.magnitudeSquared.squareRoot())
    expectGreater(lift.magnitudeSquared, 0)
    expectEqual(drag.velocity(at: 0.6), .zero)
  }

  @Test func dragNeedsPoints() {
    #expect(throws: MotionError.self) { try DragCurve<Double>(points: [], duration: 1) }
  }

  @Test func animatorCurveFollowsAPropertyAnimatorsGroup() throws {
    let slot = AnimatableProperty<[Double], Double>(
      name: "group 0", threshold: 0.001, read: { $0[0] }, write: { $0[0] = $1 })
    var animator = PropertyAnimator(duration: 1, timingParameters: .cubic(.easeInEaseOut), model: [0.0])
    try animator.addAnimation(slot, to: 1, at: 0)
    try animator.startAnimation(at: 0)
    let curve = AnimatorCurve(from: 100.0, to: 400, source: animator, group: 0, duration: 1)
    for t in stride(from: 0.0, through: 1.2, by: 0.1) {
      let progress = animator.animationProgress(at: t)[0]
      expectLess(abs(curve.value(at: t) - (100 + 300 * progress.progress)), 1e-9)
      expectLess(abs(curve.velocity(at: t) - 300 * progress.rate), 1e-9)
    }
    expectLess(abs(curve.value(at: 0.5) - 250), 1e-6)  // ease-in-out is half way at half time
    expectLess(abs(curve.value(at: 1) - 400), 1e-9)
    // A group that was never added reads as progress 0.
    let missing = AnimatorCurve(from: 7.0, to: 9, source: animator, group: 3, duration: 1)
    expectEqual(missing.value(at: 0.5), 7)
  }

  @Test func animatorCurveLeftLimitAtAPause() throws {
    let slot = AnimatableProperty<[Double], Double>(
      name: "group 0", threshold: 0.001, read: { $0[0] }, write: { $0[0] = $1 })
    var animator = PropertyAnimator(duration: 1, timingParameters: .cubic(.linear), model: [0.0])
    try animator.addAnimation(slot, to: 1, at: 0)
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.5)
    let curve = AnimatorCurve(from: 0.0, to: 100, source: animator, group: 0, duration: 0.5)
    expectLess(abs(curve.velocity(before: 0.5) - 100), 1e-9)  // moving until the pause
    expectEqual(curve.velocity(at: 0.5), 0)  // held from the pause on
    expectLess(abs(curve.value(before: 0.5) - curve.value(at: 0.5)), 1e-9)
  }
}
