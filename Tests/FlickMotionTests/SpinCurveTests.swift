import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// `SpinCurve` (issue 27): a speed eased to a new one and held, its angle the exact integral.
@Suite struct SpinCurveTests {
  static let curves: [TimingFunction] = [
    .linear, .easeIn, .easeOut, .easeInEaseOut, .default, TimingFunction(0.3, 1.4, 0.6, 1),
  ]

  /// The angle is the integral of the speed: against Simpson's rule over the speed, 4000 panels.
  @Test(arguments: curves) func angleIsTheIntegralOfTheSpeed(_ f: TimingFunction) throws {
    let spin = try SpinCurve(from: 0.5, initialVelocity: -1.2, targetVelocity: 3.49, timing: f, rampDuration: 1.2)
    for t in [0.1, 0.37, 0.6, 1.0, 1.2, 2.5] {
      let n = 4000
      let h = t / Double(n)
      var sum = spin.velocity(at: 0) + spin.velocity(at: t)
      for i in 1..<n { sum += spin.velocity(at: Double(i) * h) * (i % 2 == 1 ? 4 : 2) }
      let integral = 0.5 + sum * h / 3
      expectLess(abs(spin.value(at: t) - integral), 1e-7, "t = \(t): \(spin.value(at: t)) vs \(integral)")
    }
  }

  /// The speed eases from the initial velocity to the target and holds; C¹ at the end of the ramp.
  @Test func speedEasesThenHolds() throws {
    let spin = try SpinCurve(from: 0.0, initialVelocity: 1, targetVelocity: 4, timing: .easeInEaseOut, rampDuration: 2)
    expectEqual(spin.velocity(at: 0), 1)
    expectLess(abs(spin.velocity(at: 1) - 2.5), 1e-9)
    expectEqual(spin.velocity(at: 2), 4)
    expectEqual(spin.velocity(at: 100), 4)
    expectEqual(spin.duration, .infinity)
    let d = 1e-7
    expectLess(abs(spin.value(at: 2) - spin.value(at: 2 - d)), 1e-6)
    expectLess(abs(spin.value(at: 50) - spin.value(at: 2) - 4 * 48), 1e-9)
    // The linear ramp's angle in closed form: ∫ (1 + 3t/2) dt over 2 s = 2 + 3 = 5.
    let linear = try SpinCurve(from: 0.0, initialVelocity: 1, targetVelocity: 4, timing: .linear, rampDuration: 2)
    expectLess(abs(linear.value(at: 2) - 5), 1e-12)
  }

  /// A spin to rest ends: its duration is the ramp's, then value held and velocity 0.
  @Test func aSpinToZeroEnds() throws {
    let stop = try SpinCurve(from: 10.0, initialVelocity: 3, targetVelocity: 0, timing: .easeOut, rampDuration: 1.5)
    expectEqual(stop.duration, 1.5)
    expectEqual(stop.velocity(at: 1.5), 0)
    expectEqual(stop.velocity(at: 9), 0)
    expectEqual(stop.value(at: 9), stop.value(at: 1.5))
    expectEqual(stop.finalValue, stop.value(at: 1.5))
    expectGreater(stop.value(at: 1.5), 10)
  }

  @Test func curvesWithoutAClosedFormAreRefused() {
    for f in [TimingFunction.steps(4), .back(.out), .bounce(.out), .elastic(.in)] {
      #expect(throws: MotionError.self) {
        _ = try SpinCurve(from: 0.0, initialVelocity: 0, targetVelocity: 1, timing: f, rampDuration: 1)
      }
    }
    #expect(throws: MotionError.self) {
      _ = try SpinCurve(from: 0.0, initialVelocity: 0, targetVelocity: 1, rampDuration: -1)
    }
  }

  /// The spec and the one hand-over rule: a spin takes the incoming velocity as its start speed.
  @Test func specAndHandover() throws {
    let spec = try AnimationSpec(parsing: "spin(to: 6, curve: easeIn, duration: 0.8)")
    expectEqual(spec.kind, .spin(to: 6, curve: .easeIn, duration: 0.8))
    expectEqual(CurveBuilder<Double>.rule(for: spec.kind), .takesVelocity)
    let curve = try spec.curve(from: Handoff(value: 2.0, velocity: -3, time: 1), to: nil)
    expectEqual(curve.value(at: 0), 2)
    expectEqual(curve.velocity(at: 0), -3)
    expectEqual(curve.velocity(at: 0.8), 6)
    #expect(AnimationSpec.names.contains("spin"))
    // A spin of a point has no speed to reach.
    #expect(throws: MotionError.self) {
      _ = try spec.curve(from: Handoff(value: Point(x: 0, y: 0), velocity: .zero, time: 0), to: nil)
    }
    #expect(throws: MotionError.self) { _ = try AnimationSpec(parsing: "spin(duration: 1)") }
    #expect(throws: MotionError.self) { _ = try AnimationSpec(parsing: "spin(to: 1, curve: bounceOut)") }
  }
}

/// The rubber band (issue 27): UIScrollView's formula and its slope.
@Suite struct RubberBandTests {
  @Test func formulaAndSlope() {
    let band = RubberBand(lower: 0, upper: 300, coefficient: 0.55, dimension: 540)
    expectEqual(band.value(150), 150)
    expectEqual(band.slope(150), 1)
    let o = 40.0
    let expected = 300 + (1 - 1 / (o * 0.55 / 540 + 1)) * 540
    expectLess(abs(band.value(340) - expected), 1e-12)
    expectLess(abs(band.value(-40) - (0 - (expected - 300))), 1e-12)
    // The slope is the derivative: against a central difference.
    for x in [-200.0, -3, 310, 900] {
      let h = 1e-5
      let numeric = (band.value(x + h) - band.value(x - h)) / (2 * h)
      expectLess(abs(band.slope(x) - numeric), 1e-6)
    }
    // It never passes bound + D.
    expectLess(band.value(1e12), 300 + 540)
  }

  /// The resisted drag's velocity is the chain rule through the band, also at the lift (left limit).
  @Test func resistedDragVelocity() throws {
    let finger = try DragCurve(points: [Point(x: 0, y: 0), Point(x: 50, y: 260)], duration: 0.5, timing: .easeIn)
    let pull = ResistedDragCurve(finger, bands: [.init(dimension: 1), RubberBand(upper: 80, dimension: 400)])
    for t in [0.1, 0.3, 0.45] {
      let h = 1e-6
      let numeric = (pull.value(at: t + h) - pull.value(at: t - h)).scaled(by: 1 / (2 * h))
      expectLess((pull.velocity(at: t) - numeric).magnitudeSquared.squareRoot(), 1e-3)
    }
    let end = pull.value(before: 0.5)
    expectLess(abs(end.x - 50), 1e-9)
    expectGreater(end.y, 80)
    expectLess(end.y, 80 + 400)
    expectLess(end.y, 260)
    let lift = pull.velocity(before: 0.5)
    let band = RubberBand(upper: 80, dimension: 400)
    expectLess(abs(lift.y - finger.velocity(before: 0.5).y * band.slope(260)), 1e-9)
    expectEqual(pull.velocity(at: 0.5), .zero)
  }
}
