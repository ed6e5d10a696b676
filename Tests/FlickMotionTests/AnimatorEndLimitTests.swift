import FlickExpectations
import Testing

@testable import FlickMotion

/// `PropertyAnimator`'s left limits at its natural end are the motion arriving there, not the
/// ended state: `progress(before:)`, `progressVelocity(before:)` and `animationProgress(before:)`
/// (an animation following the progress, and one added with a delay) equal the limits of the
/// motion read just before the end, for cubic and spring timing, forwards and reversed, at the
/// end itself and a rounding step past it.
@Suite struct AnimatorEndLimitTests {
  typealias PA = PropertyAnimator<Model>
  static let timings: [PA.TimingParameters] = [
    .cubic(.linear), .cubic(.easeIn), .cubic(.easeInEaseOut),
    .cubic(TimingFunction(controlPoint1: Point(x: 0.3, y: 0.1), controlPoint2: Point(x: 0.6, y: 0.8))),
    .spring(dampingRatio: 0.3, initialVelocity: 0),
    .springPhysics(SpringParameters(response: 0.3, dampingRatio: 0.5), initialVelocity: 0),
  ]

  @Test(arguments: timings, [false, true])
  func theLeftLimitAtTheEndIsTheArrivingMotion(timing: PA.TimingParameters, reversed: Bool) throws {
    var a = PA(duration: 1, timingParameters: timing, model: Model())
    try a.addAnimation(AnimatorTests.x, to: 100, at: 0)
    try a.addAnimation(AnimatorTests.p, to: Point(x: 10, y: 0), delayFactor: 0.3, at: 0)
    try a.startAnimation(at: 0)
    if reversed { try a.setReversed(true, at: 0.5) }
    let end = 1.0  // reversed at 0.5, it is back at the start at 1 s
    let h = 1e-6
    for t in [end, end.nextUp, end.nextDown] {
      let label = "\(timing), reversed \(reversed), at \(t)"
      let p1 = a.progress(at: end - h)
      let p2 = a.progress(at: end - 2 * h)
      let v1 = a.progressVelocity(at: end - h)
      let v2 = a.progressVelocity(at: end - 2 * h)
      let mid = (v1 + v2) / 2
      expectLess(abs((p1 - p2) / h - mid), 1e-3 * max(1, abs(mid)), "\(label): finite difference \((p1 - p2) / h)")
      // The limit: the reads just before the end, extrapolated linearly to it.
      expectLess(abs(a.progress(before: t) - (p1 + h * v1)), 1e-7, "\(label): progress \(a.progress(before: t))")
      expectLess(
        abs(a.progressVelocity(before: t) - (2 * v1 - v2)), 1e-3 * max(1, abs(v1)),
        "\(label): rate \(a.progressVelocity(before: t)) vs \(v1)")
      let all = a.animationProgress(before: t)
      let just = a.animationProgress(at: end - h)
      let earlier = a.animationProgress(at: end - 2 * h)
      for k in 0..<2 {
        expectLess(abs(all[k].progress - (just[k].progress + h * just[k].rate)), 1e-7, "\(label), animation \(k)")
        expectLess(
          abs(all[k].rate - (2 * just[k].rate - earlier[k].rate)), 1e-3 * max(1, abs(just[k].rate)),
          "\(label), animation \(k): \(all[k].rate) vs \(just[k].rate)")
      }
    }
    // Past the end (by more than rounding) it is the ended state at rest.
    expectEqual(a.progressVelocity(before: 1.001), 0)
  }
}
