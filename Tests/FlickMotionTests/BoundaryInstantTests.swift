import FlickExpectations
import Testing

@testable import FlickMotion

/// The state at an exact boundary instant is the right limit ("the state from t on"), as WebKit
/// and Core Animation have it: a steps curve that jumps at its start has jumped at 0 (it stayed
/// at 0 one instant too long: a frame on the start showed a step too little), and an
/// autoreversing animation moves back at once at its turn (its velocity there read 0).
@Suite struct BoundaryInstantTests {
  @Test func stepsThatJumpAtTheStartHaveJumpedAtZero() {
    // WebKit's transformProgress: floor(0 · n) + 1 steps of n (jumpStart), of n + 1 (jumpBoth).
    expectEqual(TimingFunction.steps(4, position: .jumpStart).progress(at: 0), 0.25)
    expectEqual(TimingFunction.steps(4, position: .jumpBoth).progress(at: 0), 0.2)
    expectEqual(TimingFunction.steps(1, position: .jumpStart).progress(at: 0), 1)
    expectEqual(TimingFunction.steps(4, position: .jumpEnd).progress(at: 0), 0)
    expectEqual(TimingFunction.steps(4, position: .jumpNone).progress(at: 0), 0)
    // Just before, nothing has happened.
    expectEqual(TimingFunction.steps(4, position: .jumpStart).progress(before: 0), 0)
    expectEqual(TimingFunction.steps(4, position: .jumpStart).progress(at: -0.1), 0)
  }

  @Test func aDelayedJumpStartTweenJumpsAtItsBeginTimeNotBefore() {
    let tween = BasicAnimation(from: 100.0, to: 500, duration: 1, timingFunction: .steps(4, position: .jumpStart))
    let delayed = tween.timed(MediaTiming(beginTime: 0.5, fillMode: .both))
    expectEqual(delayed.value(at: 0.5), 200)
    expectEqual(delayed.value(before: 0.5), 100)
    // Filled backwards, before the begin time it shows the state before the jump (CSS's before flag).
    expectEqual(delayed.value(at: 0.25), 100)
  }

  @Test func anAutoreversingAnimationMovesBackAtItsTurn() {
    let linear = BasicAnimation(from: 0.0, to: 100, duration: 1, timingFunction: .linear)
    let a = linear.timed(MediaTiming(repeatCount: 1.5, autoreverses: true))
    expectEqual(a.value(at: 1), 100)
    expectEqual(a.velocity(at: 1), -100)
    expectEqual(a.velocity(before: 1), 100)
    expectEqual(a.velocity(at: 1.25), -100)
    let eased = BasicAnimation(from: 0.0, to: 100, duration: 1, timingFunction: .easeIn).timed(
      MediaTiming(autoreverses: true))
    expectLess(abs(eased.velocity(at: 1) + eased.velocity(before: 1)), 1e-9)
    #expect(eased.velocity(at: 1) < 0)
  }

  @Test func oneStepWithoutJumpsIsRefused() throws {
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "steps(1, jumpNone, duration: 1)") }
    _ = try AnimationSpec(parsing: "steps(2, jumpNone, duration: 1)")
  }
}
