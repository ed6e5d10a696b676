import FlickExpectations
import Testing

@testable import FlickMotion

/// Issue 26, defects 2 and 3: what `addAnimations(delayFactor:)` and `continueAnimation` do to a
/// running property animator, checked analytically and on the frames at 24, 30, 60 and 120 fps.
@Suite struct AnimatorJoinTests {
  typealias PA = PropertyAnimator<Model>
  static let rates: [Double] = [24, 30, 60, 120]
  static let curves: [TimingFunction] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]

  /// Defect 2: an animation added at 1 s with delayFactor 0.5 to a running 2 s animator waits
  /// 0.5 × the 1 s left, then plays the animator's curve afresh over the 0.5 s left: from rest
  /// with ease-in-ease-out (it used to jump to full speed), ending with the animator.
  @Test(arguments: rates)
  func delayedAdditionStartsFromRestAndEndsWithTheAnimator(fps: Double) throws {
    var a = PA(duration: 2, timingParameters: .cubic(.easeInEaseOut), model: Model())
    try a.addAnimation(AnimatorTests.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    try a.addAnimation(AnimatorTests.p, to: Point(x: 10, y: 0), delayFactor: 0.5, at: 1)
    let fresh = BasicAnimation(from: 0.0, to: 10, duration: 0.5, timingFunction: .easeInEaseOut)
    var n = Int((1 * fps).rounded(.up))
    while Double(n) / fps <= 2 {
      let t = Double(n) / fps
      let expected = t < 1.5 ? 0 : fresh.value(at: t - 1.5)
      expectLess(abs(a.sample(at: t).p.x - expected), 1e-9, "\(fps) fps, t = \(t)")
      n += 1
    }
    // C¹ where it starts: from rest on both sides (the peak speed is 10 × 1.5/0.5 ≈ 30 pt/s).
    let before = a.animationProgress(before: 1.5)[1]
    let at = a.animationProgress(at: 1.5)[1]
    expectEqual(before.progress, 0)
    expectEqual(at.progress, 0)
    expectLessOrEqual(abs(10 * at.rate), 0.01 * 30)
    expectLessOrEqual(abs(10 * before.rate), 0.01 * 30)
    expectEqual(a.sample(at: 2).p.x, 10)
    expectEqual(a.sample(at: 2).x, 100)
  }

  /// The rule holds for every curve and for an animation added while paused: it runs over the
  /// fraction left, so scrubbing moves it on its own curve and reversing takes it back.
  @Test(arguments: curves)
  func additionsFollowTheTimeFractionLeft(curve: TimingFunction) throws {
    var a = PA(duration: 2, timingParameters: .cubic(curve), model: Model())
    try a.addAnimation(AnimatorTests.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    try a.pauseAnimation(at: 0.5)  // fraction 0.25
    try a.addAnimation(AnimatorTests.p, to: Point(x: 10, y: 0), delayFactor: 0.2, at: 0.6)  // starts at 0.4
    try a.setFractionComplete(0.7, at: 0.7)
    expectLess(abs(a.sample(at: 0.7).p.x - 10 * curve.progress(at: 0.5)), 1e-9)
    try a.setFractionComplete(0.3, at: 0.8)
    expectEqual(a.sample(at: 0.8).p.x, 0)
    try a.startAnimation(at: 0.9)
    expectEqual(a.sample(at: 0.9 + 0.7 * 2).p.x, 10)
  }

  /// Defect 3: `continue` with a cubic timing on a running animator ends at the destination,
  /// never passes it and stays monotone (it used to overshoot by 15 % of what was left and come
  /// back), and is C¹ at the join: value jump ≤ 1e-6 of the travel, velocity jump ≤ 1 % of the
  /// peak speed. Every pair of curves, durations and join times, on the frames at every rate.
  @Test(arguments: curves, curves)
  func continueEndsAtTheDestinationMonotoneAndC1(from first: TimingFunction, with next: TimingFunction) throws {
    for factor in [0.1, 0.3, 1, 2] {
      for join in [0.2, 0.5, 0.8] {
        var a = PA(duration: 1, timingParameters: .cubic(first), model: Model())
        try a.addAnimation(AnimatorTests.x, to: 100, at: 0)
        try a.startAnimation(at: 0)
        try a.continueAnimation(withTimingParameters: .cubic(next), durationFactor: factor, at: join)
        let end = join + factor
        let label = "\(first) → \(next), factor \(factor), at \(join)"
        expectLessOrEqual(abs(a.sample(at: join).x - a.progress(before: join) * 100), 1e-6 * 100, "\(label)")
        var peak = 0.0
        for fps in Self.rates {
          var last = -Double.infinity
          var n = 0
          while Double(n) / fps <= end + 0.1 {
            let t = Double(n) / fps
            let x = a.sample(at: t).x
            peak = max(peak, abs(100 * a.progressVelocity(at: t)))
            expectLessOrEqual(x, 100 + 1e-9, "\(label): \(x) at \(t) (\(fps) fps)")
            expectGreaterOrEqual(x, last - 1e-9, "\(label): goes back at \(t) (\(fps) fps)")
            last = x
            n += 1
          }
        }
        expectEqual(a.sample(at: end).x, 100, "\(label)")
        expectEqual(a.completions(through: end + 1).first.map { abs($0.time - end) < 1e-9 }, true, "\(label)")
        let jump = abs(a.progressVelocity(at: join) - a.progressVelocity(before: join)) * 100
        expectLessOrEqual(jump, 0.01 * peak + 1e-9, "\(label): velocity jump \(jump) of peak \(peak)")
      }
    }
  }

  /// The tween that continues a moving value (``ContinuingTween``) carries the part of the
  /// velocity along the travel in its curve: fast incoming motion ends at the target without
  /// passing it, and across the travel the correction fades to zero.
  @Test func continuingTweenStaysBetweenItsEnds() {
    for curve in Self.curves {
      for speed in [0.0, 50, 400, 5000] {
        let tween = ContinuingTween(
          BasicAnimation(from: 0.0, to: 10, duration: 0.5, timingFunction: curve), initialVelocity: speed)
        #expect(tween.velocity(at: 0) == speed || abs(tween.velocity(at: 0) - speed) < 1e-9 * max(1, speed))
        var last = 0.0
        for i in 0...500 {
          let v = tween.value(at: 0.5 * Double(i) / 500)
          expectGreaterOrEqual(v, last - 1e-12, "\(curve) at \(speed)")
          expectLessOrEqual(v, 10 + 1e-12, "\(curve) at \(speed)")
          last = v
        }
        expectEqual(tween.value(at: 0.5), 10)
      }
    }
    // Across the travel: the sideways velocity fades in and out; the end is exact.
    let sideways = ContinuingTween(
      BasicAnimation(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0), duration: 1, timingFunction: .easeOut),
      initialVelocity: Point(x: 300, y: 80))
    expectEqual(sideways.velocity(at: 0), Point(x: 300, y: 80))
    expectEqual(sideways.value(at: 1), Point(x: 100, y: 0))
  }
}
