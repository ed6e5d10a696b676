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

  /// A spec's own delay hands over when its curve starts: a 100 u/s move taken over at 0.5 s by a
  /// curve delayed 0.2 s is read at 0.7 s (70, 100 u/s), and the curve leaves from there; with a
  /// backwards fill the start value holds from 0.5 s, so it is read there and leaves from rest.
  @Test(arguments: ["easeOut(duration: 0.5, delay: 0.2)", "spring(delay: 0.2)", "decay(delay: 0.2)"])
  func aSpecDelayHandsOverWhenTheCurveStarts(spec written: String) throws {
    let spec = try AnimationSpec(parsing: written, options: .velocityFromHandoff)
    let handover = spec.handover(at: 0.5)
    expectEqual(handover.time, 0.7)
    #expect(!handover.atRest)
    let moving = { (t: Double) in t * 100 }
    let curve = try CurveBuilder(
      spec: spec, from: Handoff(value: moving(handover.time), velocity: 100, time: handover.time), to: 120,
      threshold: 0.5
    ).curve()
    expectLess(abs(curve.value(at: 0.2) - 70), 1e-9, "\(written) at its start")
    expectLess(abs(curve.velocity(at: 0.2) - 100), 1e-6, "\(written) leaves at the arriving speed")

    let held = try AnimationSpec(parsing: "easeOut(duration: 0.5, delay: 0.2, fill: both)").handover(at: 0.5)
    expectEqual(held.time, 0.5)
    #expect(held.atRest)
    let plain = try AnimationSpec(parsing: "easeOut(duration: 0.5)").handover(at: 0.5)
    expectEqual(plain.time, 0.5)
    #expect(!plain.atRest)
  }
}
