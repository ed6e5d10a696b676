import FlickExpectations
import Testing

@testable import FlickMotion

@Suite struct KeyframeTests {
  @Test func linearWithKeyTimesAndCurves() throws {
    let k = try KeyframeAnimation(
      values: [0.0, 100, 50], keyTimes: [0, 0.25, 1], timingFunctions: [.linear, .easeIn], duration: 2)
    expectEqual(k.value(at: 0.25), 50)
    expectEqual(k.value(at: 0.5), 100)
    expectLess(abs(k.value(at: 1.25) - (100 - 50 * TimingFunction.easeIn.progress(at: 0.5))), 1e-12)
    expectEqual(k.velocity(at: 0.25), 200)
    expectEqual(k.value(at: 5), 50)
  }

  @Test func discreteHoldsEachValue() throws {
    let k = try KeyframeAnimation(values: [1.0, 2, 3], calculationMode: .discrete, duration: 3)
    expectEqual(k.value(at: 0.5), 1)
    expectEqual(k.value(at: 1.5), 2)
    expectEqual(k.value(at: 2.9), 3)
    expectEqual(k.velocity(at: 1.5), 0)
  }

  @Test func pacedHasConstantSpeed() throws {
    let k = try KeyframeAnimation(
      values: [Point(x: 0, y: 0), Point(x: 30, y: 0), Point(x: 30, y: 90)], keyTimes: [0, 0.9, 1],
      calculationMode: .paced, duration: 1.2)
    expectEqual(k.keyTimes, [0, 0.25, 1])
    let v1 = k.velocity(at: 0.1).magnitudeSquared.squareRoot()
    let v2 = k.velocity(at: 1.0).magnitudeSquared.squareRoot()
    expectLess(abs(v1 - 100), 1e-9)
    expectLess(abs(v2 - 100), 1e-9)
  }

  @Test func cubicPassesThroughKeysWithContinuousVelocity() throws {
    let k = try KeyframeAnimation(
      values: [0.0, 10, 5, 20], keyTimes: [0, 0.2, 0.7, 1], calculationMode: .cubic, duration: 1)
    expectLess(abs(k.value(at: 0.2) - 10), 1e-12)
    expectLess(abs(k.value(at: 0.7) - 5), 1e-12)
    expectLess(abs(k.velocity(at: 0.2 - 1e-9) - k.velocity(at: 0.2 + 1e-9)), 1e-5)
  }

  @Test func invalidInputThrowsDescriptiveErrors() {
    #expect(throws: MotionError.self) { try KeyframeAnimation<Double>(values: [], duration: 1) }
    #expect(throws: MotionError("3 keyframe values need 3 key times, found 2")) {
      try KeyframeAnimation(values: [0.0, 1, 2], keyTimes: [0, 1], duration: 1)
    }
    #expect(throws: MotionError.self) { try KeyframeAnimation(values: [0.0, 1], keyTimes: [0, 0.5], duration: 1) }
  }
}
