import FlickExpectations
import Testing

@testable import FlickMotion

/// A continuing tween keeps its end value and its curve's own end velocity.
@Suite struct ContinuingTweenEndTests {
  /// A continuing tween ends with its curve's own end velocity, however fast it starts.
  @Test(arguments: [
    TimingFunction.linear, .easeIn, .easeOut, .easeInEaseOut, .default,
    TimingFunction(controlPoint1: Point(x: 0.6, y: 0.1), controlPoint2: Point(x: 1, y: 1)),
  ])
  func continuingTweenEndsWithTheCurvesOwnVelocity(curve: TimingFunction) {
    let tween = BasicAnimation(from: 50.0, to: 200, duration: 1, timingFunction: curve)
    let own = tween.velocity(before: 1)
    for v in [-300.0, 0.5, 100, 150, 400, 2000] {
      let c = ContinuingTween(tween, initialVelocity: v)
      expectLess(abs(c.velocity(at: 0) - v), 1e-6, "start at \(v)")
      expectLess(abs(c.velocity(before: 1) - own), 1e-6 * max(1, abs(own)), "end after \(v): \(own)")
      expectEqual(c.value(at: 1), 200)
      // Monotone toward the target from a start heading there.
      if v > 0 {
        let samples = (0...200).map { c.value(at: Double($0) / 200) }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 })
      }
    }
  }
}
