import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// Distances and speeds in motion code are ``Animatable/norm`` (scaled, so its squares cannot
/// overflow or underflow), not `magnitudeSquared.squareRoot()`, which is infinite past
/// 1.3·10¹⁵⁴: a spring from 10²⁰⁰ to −10²⁰⁰ took an infinite rest threshold and snapped to its
/// target at t = 0. Each site that measured one that way is checked here with such values.
@Suite struct LargeValueNormTests {
  /// Not component-wise: what the norm's generic fallbacks see.
  struct Pair: Animatable {
    var a, b: Double
    static let zero = Pair(a: 0, b: 0)
    static func + (l: Pair, r: Pair) -> Pair { Pair(a: l.a + r.a, b: l.b + r.b) }
    static func - (l: Pair, r: Pair) -> Pair { Pair(a: l.a - r.a, b: l.b - r.b) }
    func scaled(by f: Double) -> Pair { Pair(a: a * f, b: b * f) }
    var magnitudeSquared: Double { a * a + b * b }
  }

  @Test func normNeitherOverflowsNorUnderflows() {
    expectLess(abs(Point(x: 3e200, y: 4e200).norm / 5e200 - 1), 1e-15)
    expectLess(abs(Point(x: 3e-200, y: 4e-200).norm / 5e-200 - 1), 1e-15)
    expectEqual(Point(x: 3, y: 4).norm, 5)
    expectEqual(Double(-1e300).norm, 1e300)
    expectEqual(Pair(a: 1e308, b: 0).norm, 1e308)
    expectEqual(Point.zero.norm, 0)
    expectEqual(Point(x: .infinity, y: 1).norm, .infinity)
    #expect(Point(x: .nan, y: 1).norm.isNaN)
  }

  @Test func projectionIsTheUnscaledArithmeticWhereThatFits() {
    let v = Point(x: 3.7, y: -1.25)
    let axis = Point(x: 0.3, y: 8.1)
    let plain = ((v + axis).magnitudeSquared - (v - axis).magnitudeSquared) / (4 * axis.magnitudeSquared)
    expectEqual(v.projection(onto: axis), plain)
    expectLess(abs(Point(x: 2e200, y: 0).projection(onto: Point(x: 1e200, y: 1e200)) - 1), 1e-15)
    #expect(v.projection(onto: .zero).isNaN)
  }

  @Test func springFarFromItsTargetSettlesLikeTheSameSpringScaled() {
    let unit = SpringAnimation(from: 1.0, to: -1.0)
    for scale in [1e200, 1e-200, 1e300] {
      let big = SpringAnimation(from: scale, to: -scale)
      #expect(abs(big.duration - unit.duration) <= 1e-9 * unit.duration, "scale \(scale): \(big.duration)")
      expectEqual(big.restThreshold, 0.001 * (2 * scale))
      let mid = big.value(at: unit.duration / 4) / scale
      expectLess(abs(mid - unit.value(at: unit.duration / 4)), 1e-9)
    }
    let point = SpringAnimation(from: Point(x: 1e200, y: 1e200), to: Point(x: -1e200, y: -1e200))
    #expect(abs(point.duration - unit.duration) <= 1e-9 * unit.duration, "\(point.duration)")
    // A velocity past 10¹⁵⁴ sets the scale too, instead of an infinite one.
    let thrown = SpringAnimation(from: 0.0, to: 0.0, velocity: 1e200)
    #expect(thrown.duration.isFinite && thrown.duration > 0, "\(thrown.duration)")
  }

  @Test func steppedSpringMeasuresAValueThatIsNotComponentWiseByItsNorm() {
    expectLess(abs(SteppedSpring<Pair>.largest(Pair(a: 3e200, b: 4e200)) / 5e200 - 1), 1e-15)
  }

  @Test func decayOfAHugeVelocityStopsWhenPopWould() {
    let d = DecayAnimation(from: Point.zero, velocity: Point(x: 3e200, y: 4e200), deceleration: 0.998, threshold: 1)
    let expected = log(5 / 5e200) / (1000 * log(0.998))
    expectLess(abs(d.duration - expected), 1e-9 * expected)
  }

  @Test func pacedKeyframesAndDragsPaceValuesFarApart() throws {
    let k = try KeyframeAnimation(values: [1e200, -1e200, 0.0], calculationMode: .paced, duration: 3)
    // By distance: 2·10²⁰⁰ then 10²⁰⁰, so the second value at 2 s of 3.
    expectLess(abs(k.value(at: 2) / 1e200 + 1), 1e-9)
    let drag = try DragCurve(points: [1e200, -1e200, 0.0], duration: 3)
    expectLess(abs(drag.value(at: 2) / 1e200 + 1), 1e-9)
    // Past the largest Double the path's length is still refused.
    #expect(throws: MotionError.self) {
      try KeyframeAnimation(values: [1e308, -1e308], calculationMode: .paced, duration: 1)
    }
  }

  @Test func continuingTweenAndCrossingsProjectHugeMotion() {
    let tween = BasicAnimation(from: 1e200, to: -1e200, duration: 1, timingFunction: .easeInEaseOut)
    let c = ContinuingTween(tween, initialVelocity: -4e200)
    expectEqual(c.velocity(at: 0), -4e200)
    expectLess(abs(c.value(at: 0.5) / 1e200), 1)
    expectEqual(c.value(at: 1), -1e200)
  }

  @Test func spinOfATinySpeedNeverEnds() throws {
    let spin = try SpinCurve(from: 0.0, initialVelocity: 0, targetVelocity: 1e-200, rampDuration: 1)
    expectEqual(spin.duration, .infinity)
  }
}
