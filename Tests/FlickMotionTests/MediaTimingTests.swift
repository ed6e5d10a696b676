import FlickExpectations
import Testing

@testable import FlickMotion

@Suite struct MediaTimingTests {
  let linear = BasicAnimation(from: 0.0, to: 10, duration: 1, timingFunction: .linear)

  @Test func delayAndSpeed() {
    let a = linear.timed(MediaTiming(beginTime: 2, speed: 2))
    expectEqual(a.duration, 2.5)
    expectEqual(a.value(at: 1), 0)
    expectEqual(a.isApplied(at: 1), false)
    expectEqual(a.value(at: 2.25), 5)
    expectEqual(a.velocity(at: 2.25), 20)
    expectEqual(a.value(at: 3), 10)
    #expect(a.isApplied(at: 3))
  }

  @Test func fractionalRepeatWithAutoreverse() {
    let a = linear.timed(MediaTiming(repeatCount: 1.5, autoreverses: true))
    expectEqual(a.duration, 3)
    expectEqual(a.value(at: 0.5), 5)
    expectEqual(a.value(at: 1.25), 7.5)  // coming back
    expectEqual(a.velocity(at: 1.25), -10)
    expectEqual(a.value(at: 2.5), 5)
    expectEqual(a.value(at: 3), 10)  // ends mid-way through a forward pass: at its end
    if case .after(let iteration, _, let reversed) = a.phase(at: 4) {
      expectEqual(iteration, 2)
      #expect(!reversed)
    } else {
      Issue.record("expected .after")
    }
  }

  /// Core Animation's `repeatCount` may be fractional below 1 too (only 0 means one iteration):
  /// half a count plays half the curve, and with `autoreverses` half of the way there and back.
  @Test func aRepeatCountBelowOnePlaysPartOfTheCurve() {
    let half = linear.timed(MediaTiming(repeatCount: 0.5))
    expectEqual(half.duration, 0.5)
    expectEqual(half.value(at: 0.25), 2.5)
    expectEqual(half.value(at: 0.75), 5)  // held where the half ended
    let there = linear.timed(MediaTiming(repeatCount: 0.5, autoreverses: true))
    expectEqual(there.duration, 1)
    expectEqual(there.value(at: 0.75), 7.5)
    expectEqual(there.value(at: 2), 10)  // held at the turn
    expectEqual(linear.timed(MediaTiming(repeatCount: 0)).duration, 1)
  }

  @Test func exactEndBelongsToLastIteration() {
    let a = linear.timed(MediaTiming(repeatCount: 2, autoreverses: true))
    expectEqual(a.value(at: 4), 0)  // back at the start after there-and-back twice
    let b = linear.timed(MediaTiming(repeatCount: 3))
    expectEqual(b.value(at: 3), 10)
    expectEqual(b.value(at: 2.5), 5)
  }

  @Test func repeatForeverNeverEnds() {
    let a = linear.timed(MediaTiming(repeatForever: true))
    expectEqual(a.duration, .infinity)
    expectEqual(a.value(at: 1000.25), 2.5)
  }

  @Test func fillModes() {
    let removed = linear.timed(MediaTiming(beginTime: 1, fillMode: .removed))
    #expect(!removed.isApplied(at: 0.5))
    #expect(!removed.isApplied(at: 3))
    #expect(removed.isApplied(at: 1.5))
    let both = linear.timed(MediaTiming(beginTime: 1, fillMode: .both))
    #expect(both.isApplied(at: 0.5))
    #expect(both.isApplied(at: 3))
  }

  @Test func timeOffsetStartsPartWay() {
    let a = linear.timed(MediaTiming(timeOffset: 0.4))
    expectEqual(a.value(at: 0), 4)
    #expect(a.value(at: 0.7) == 1.0000000000000009 || abs(a.value(at: 0.7) - 1) < 1e-9)
  }

  @Test func pausedBySpeedZero() {
    let a = linear.timed(MediaTiming(speed: 0, timeOffset: 0.3))
    expectEqual(a.value(at: 5), 3)
  }
}
