extension PropertyAnimator {
  /// Each animation added with ``addAnimation(_:to:delayFactor:at:)``, in the order added: its
  /// own progress at scene time `t` (0 = the value it started from, 1 = its target; a spring
  /// timing may overshoot) and that progress's rate, per second, analytically.
  ///
  /// An animation added to an inactive animator without a delay follows the animator's
  /// progress. One added with a `delayFactor`, or to a started animator, stays at 0 until its
  /// start (`delayFactor` × the time left when it was added), then plays the timing curve afresh
  /// over the time that is left, ending with the animator: from rest with a curve that starts
  /// at rest (UIKit's `addAnimations(_:delayFactor:)`). One the animator has finished with holds
  /// where it ended.
  /// With these a property's value is `from + (to − from)·progress` and its velocity
  /// `(to − from)·rate`, whatever drives the animator.
  public func animationProgress(at t: Double) -> [(progress: Double, rate: Double)] {
    let s = segments[segmentIndex(at: t)]
    let e = evaluate(s, at: t)
    return animationProgress(
      t, u: e.u, p: e.p, rate: progressVelocity(at: t), uRate: fractionRate(s, at: t), left: false)
  }

  /// The left limit of ``animationProgress(at:)`` at `t`: each animation just before `t`.
  public func animationProgress(before t: Double) -> [(progress: Double, rate: Double)] {
    animationProgress(
      t, u: fraction(before: t), p: progress(before: t), rate: progressVelocity(before: t),
      uRate: fractionRate(before: t), left: true)
  }

  private func animationProgress(
    _ t: Double, u: Double, p: Double, rate: Double, uRate: Double, left: Bool
  ) -> [(progress: Double, rate: Double)] {
    var i = 0
    for (j, s) in segments.enumerated() where left ? s.start < t : s.start <= t { i = j }
    let visible = segments[i].tracksVisible
    return tracks.enumerated().map { k, track in
      if let at = track.retiredAt, left ? at < t : at <= t { return (track.retiredQ, 0) }
      guard k < visible else { return (0, 0) }
      switch track.run {
      case .follows: return (p, rate)
      case .fresh: return (track.q(u: u, p: p), track.slope(u) * uRate)
      }
    }
  }
}

extension PropertyAnimator.Track {
  /// The track's own progress at animator time fraction `u` and progress `p`.
  func q(u: Double, p: Double) -> Double {
    switch run {
    case .follows: return p
    case .fresh(let start, let end, let curve):
      if start == end { return (end >= start ? u >= end : u <= end) ? 1 : 0 }
      let s = (u - start) / (end - start)
      return s <= 0 ? 0 : curve.progress(min(s, 1))
    }
  }

  /// d q / d u for a ``Run/fresh`` track (0 before its start and after its end).
  func slope(_ u: Double) -> Double {
    guard case .fresh(let start, let end, let curve) = run, start != end else { return 0 }
    let s = (u - start) / (end - start)
    guard s > 0, s < 1 else { return 0 }
    return curve.slope(s) / (end - start)
  }
}
