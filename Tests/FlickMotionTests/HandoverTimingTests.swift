import FlickExpectations
import Testing

@testable import FlickMotion

/// Hand-overs through timing, in the motion engine itself: the velocity a curve is handed is
/// the one it leaves with, whatever its timing's speed.
@Suite struct HandoverTimingTests {
  static let specs = [
    "spring", "easeInEaseOut(duration: 1)", "linear(duration: 0.5)", "decay", "decay(deceleration: 0.99)",
    "spin(to: 0, duration: 0.5)",
  ]

  /// The curve is built in its own time and wrapped in the timing: 100 u/s handed over leaves at 100 u/s.
  @Test(arguments: specs, [0.5, 2, 3])
  func speedDoesNotScaleTheHandedOverVelocity(spec: String, speed: Double) throws {
    let timing = MediaTiming(speed: speed)
    let builder = CurveBuilder(
      spec: try AnimationSpec(parsing: spec, options: .velocityFromHandoff),
      from: Handoff(value: 50.0, velocity: 100, time: 0.5), to: 0,
      threshold: 0.5, timing: timing)
    let curve = TimedAnimation(try builder.untimedCurve(), timing: timing)
    expectLess(abs(curve.velocity(at: 0) - 100), 1e-6, "\(spec) at speed \(speed)")
    expectEqual(curve.value(at: 0), 50)
  }
}
