import FlickExpectations
import Testing

@testable import FlickMotion

/// Left limits at a boundary computed a few ulps off (a repeat, an autoreverse's turn, a
/// `timeOffset` wrap, a key time) are the motion arriving there.
@Suite struct BoundaryLeftLimitTests {
  /// A repeat boundary and an autoreverse turn at 0.1 + … computed one ulp past: the end of the run.
  @Test func repeatBoundaryJustPastIsTheEndOfTheRun() {
    let tween = BasicAnimation(from: 0.0, to: 100, duration: 0.1, timingFunction: .linear)
    let repeated = tween.timed(MediaTiming(repeatCount: 5))
    let t = 0.4 - 0.3  // 0.10000000000000003
    expectLess(abs(repeated.value(before: t) - 100), 1e-9)
    expectLess(abs(repeated.velocity(before: t) - 1000), 1e-6)
    let delayed = tween.timed(MediaTiming(beginTime: 0.3, repeatCount: 5))
    expectLess(abs(delayed.value(before: 0.4) - 100), 1e-9)
    expectLess(abs(delayed.velocity(before: 0.4) - 1000), 1e-6)
    let turning = tween.timed(MediaTiming(repeatCount: 2, autoreverses: true))
    expectLess(abs(turning.value(before: t) - 100), 1e-9)
    expectLess(abs(turning.velocity(before: t) - 1000), 1e-6)
    // Between the runs the right limit is the next run's start, as before.
    expectEqual(repeated.value(at: 0.2), 0)
  }

  /// `timeOffset: 0.5` wraps at 0.5 s: just before, the end of the active duration.
  @Test func timeOffsetWrapIsTheEndJustBefore() {
    let tween = BasicAnimation(from: 0.0, to: 100, duration: 1, timingFunction: .linear)
    let offset = tween.timed(MediaTiming(timeOffset: 0.5))
    expectLess(abs(offset.value(before: 0.5) - 100), 1e-9)
    expectLess(abs(offset.velocity(before: 0.5) - 100), 1e-9)
    expectEqual(offset.value(at: 0.5), 0)
    let repeated = tween.timed(MediaTiming(timeOffset: 0.25, repeatCount: 2.5))
    expectLess(abs(repeated.value(before: 2.25) - 50), 1e-9)
    expectLess(abs(repeated.velocity(before: 2.25) - 100), 1e-9)
  }

  /// A key time reached a few ulps late (0.21 / 0.7 = 0.30000000000000004): the segment arriving.
  @Test func keyTimeJustPastIsTheSegmentArriving() throws {
    let kf = try KeyframeAnimation(values: [0.0, 100, 100], keyTimes: [0, 0.3, 1], duration: 0.7)
    expectLess(abs(kf.velocity(before: 0.21) - 100 / 0.21), 1e-6)
    expectLess(abs(kf.value(before: 0.21) - 100), 1e-9)
    expectEqual(kf.velocity(at: 0.21), 0)
    let discrete = try KeyframeAnimation(
      values: [0.0, 50, 100], keyTimes: [0, 0.3, 1], calculationMode: .discrete, duration: 0.7)
    expectEqual(discrete.value(before: 0.21), 0)
    expectEqual(discrete.value(at: 0.21), 50)
  }
}
