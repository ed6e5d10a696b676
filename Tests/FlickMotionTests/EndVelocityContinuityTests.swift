import FlickExpectations
import Testing

@testable import FlickMotion

/// Curves that compose a timing curve with a path or with keyframes keep their velocity up to
/// the last ulp before they end: easeIn and easeInEaseOut reach progress 1 a few ulps before
/// x = 1, which must not read the composed path's end (where its velocity is 0). Every time in
/// `[end − 1e-9, end)` reads the velocity the motion arrives with.
@Suite struct EndVelocityContinuityTests {
  static let timings: [(String, TimingFunction)] = [
    ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInEaseOut", .easeInEaseOut),
    ("cubic(0.6, 0.1, 0.9, 0.6)", TimingFunction(0.6, 0.1, 0.9, 0.6)), ("linear", .linear),
  ]

  /// Times in `[end − 1e-9, end)`, down to the last representable one (`ulps: false`: only
  /// those outside ``MediaTiming/boundaryTolerance(_:_:)``, where an inner key time computed a few
  /// ulps off counts as on it, by design).
  static func lastTimes(before end: Double, ulps: Bool = true) -> [Double] {
    var times = [end - 1e-9, end - 1e-10, end - 1e-12, end - 1e-14]
    var t = end
    for _ in 0..<(ulps ? 16 : 0) {
      t = t.nextDown
      times.append(t)
    }
    return times.filter { $0 < end }
  }

  /// `velocity(at:)` in `[end − 1e-9, end)` agrees with the left limit at the end, and that is
  /// the motion's: the velocities 1 and 2 µs before, extrapolated to the end.
  static func expectContinuousToTheEnd<C: AnimationCurve>(
    _ curve: C, end: Double, ulps: Bool = true, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) where C.Value == Double {
    let arriving = curve.velocity(before: end)
    let extrapolated = 2 * curve.velocity(at: end - 1e-6) - curve.velocity(at: end - 2e-6)
    let scale = max(abs(arriving), 1)
    expectLess(
      abs(extrapolated - arriving), 1e-3 * scale, "\(label): extrapolated \(extrapolated), arriving \(arriving)",
      sourceLocation: sourceLocation)
    for t in lastTimes(before: end, ulps: ulps) {
      let v = curve.velocity(at: t)
      expectLess(
        abs(v - arriving), 1e-3 * scale, "\(label): velocity at end − \(end - t) is \(v), arriving \(arriving)",
        sourceLocation: sourceLocation)
    }
  }

  /// A drag along a straight path and along a curved one (Catmull-Rom through three points), and
  /// the same under a rubber band, for every timing curve.
  @Test(arguments: timings.map(\.0))
  func dragVelocityHoldsToTheLift(name: String) throws {
    let timing = try #require(Self.timings.first { $0.0 == name }?.1)
    for (points, start) in [([0.0, 100], 2.6), ([0.0, 40, 100], 0), ([100.0, 30, 60, -20], 1)] {
      let drag = try DragCurve(points: points, duration: 0.22, timing: timing)
      Self.expectContinuousToTheEnd(drag, end: 0.22, "drag \(points) \(name)")
      // Placed on a timeline (the template's `at: 2.6`): the end is 2.8200000000000003.
      let placed = drag.delayed(by: start)
      Self.expectContinuousToTheEnd(placed, end: placed.duration, "drag \(points) \(name) at \(start)")
      let resisted = ResistedDragCurve(drag, bands: [RubberBand(upper: 60, dimension: 400)])
      Self.expectContinuousToTheEnd(resisted, end: 0.22, "resisted drag \(points) \(name)")
    }
  }

  /// The finding: `drag: { by: [0, 100], duration: 0.22, curve: "easeIn" }` at 2.6 s read 0 at
  /// 2.82 (a few ulps before its end, 2.8200000000000003) between 779 and 783.5 u/s.
  @Test func easeInDragAt2Point6ReadsItsSpeedAt2Point82() throws {
    let drag = try DragCurve(points: [0.0, 100], duration: 0.22, timing: .easeIn).delayed(by: 2.6)
    let v = drag.velocity(at: 2.82)
    expectGreater(v, 779)
    expectLess(v, drag.velocity(before: drag.duration) + 1e-6)
    let tween = BasicAnimation(from: 0.0, to: 100, duration: 0.22, timingFunction: .easeIn).delayed(by: 2.6)
    expectLess(abs(v - tween.velocity(at: 2.82)), 1e-6)
  }

  /// Tweens, keyframes eased per segment (a key time inside and the end), spins and link maps.
  @Test(arguments: timings.map(\.0))
  func easedCurvesHoldTheirVelocityToTheEnd(name: String) throws {
    let timing = try #require(Self.timings.first { $0.0 == name }?.1)
    let tween = BasicAnimation(from: 0.0, to: 100, duration: 0.22, timingFunction: timing)
    Self.expectContinuousToTheEnd(tween, end: 0.22, "tween \(name)")
    let keyframes = try KeyframeAnimation(
      values: [0.0, 100, 40], keyTimes: [0, 0.3, 1], timingFunctions: [timing, timing], duration: 0.7)
    Self.expectContinuousToTheEnd(keyframes, end: 0.7, "keyframes \(name)")
    Self.expectContinuousToTheEnd(keyframes, end: 0.21, ulps: false, "keyframes \(name) at the key time")
    let spin = try SpinCurve(from: 0.0, initialVelocity: 10, targetVelocity: 0, timing: timing, rampDuration: 0.5)
    Self.expectContinuousToTheEnd(spin, end: 0.5, "spin \(name)")
    let map = try InterpolationMap(input: [0, 0.3, 1], output: [0.0, 100, 40], timing: [timing])
    for (stop, side) in [(0.3, InterpolationSide.below), (1, .below)] {
      let arriving = map.slope(at: stop, side: side)
      for x in Self.lastTimes(before: stop) {
        expectLess(abs(map.slope(at: x, side: side) - arriving), 1e-3 * max(abs(arriving), 1), "map \(name) at \(x)")
      }
    }
  }
}
