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
    return animationProgress(t, u: e.u, p: e.p, rate: progressVelocity(at: t), uRate: fractionRate(s, at: t))
  }

  /// The left limit of ``animationProgress(at:)`` at `t`: each animation just before `t` (at the
  /// animator's natural end, arriving with its end velocity).
  public func animationProgress(before t: Double) -> [(progress: Double, rate: Double)] {
    let i = leftSegmentIndex(at: t)
    let e = evaluate(segments[i], before: t)
    let visible = segments[i].tracksVisible
    return tracks.enumerated().map { k, track in
      if let at = track.retiredAt, MediaTiming.hasReached(at, at: t, leftLimit: true) { return (track.retiredQ, 0) }
      guard k < visible else { return (0, 0) }
      switch track.run {
      case .follows: return (e.p, e.rate)
      case .fresh: return track.leftLimit(u: e.u, p: e.p, uRate: e.uRate)
      }
    }
  }

  private func animationProgress(_ t: Double, u: Double, p: Double, rate: Double, uRate: Double)
    -> [(progress: Double, rate: Double)]
  {
    let visible = segments[segmentIndex(at: t)].tracksVisible
    return tracks.enumerated().map { k, track in
      if let at = track.retiredAt, MediaTiming.hasReached(at, at: t) { return (track.retiredQ, 0) }
      guard k < visible else { return (0, 0) }
      switch track.run {
      case .follows: return (p, rate)
      case .fresh: return (track.q(u: u, p: p), track.slope(u) * uRate)
      }
    }
  }

  /// Each animation (as ``animationProgress(at:)``) while something outside the animator moves
  /// its time fraction `u` at `uRate` and its progress `p` at `rate` at `t` (a template's scrub
  /// that glides): from `left`, the limit as they approach `t`.
  package func animationProgress(at t: Double, u: Double, p: Double, rate: Double, uRate: Double, left: Bool)
    -> [(progress: Double, rate: Double)]
  {
    guard left else { return animationProgress(t, u: u, p: p, rate: rate, uRate: uRate) }
    let visible = segments[leftSegmentIndex(at: t)].tracksVisible
    return tracks.enumerated().map { k, track in
      if let at = track.retiredAt, MediaTiming.hasReached(at, at: t, leftLimit: true) { return (track.retiredQ, 0) }
      guard k < visible else { return (0, 0) }
      switch track.run {
      case .follows: return (p, rate)
      case .fresh: return track.leftLimit(u: u, p: p, uRate: uRate)
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

  /// The track's (progress, rate) just before the animator reaches fraction `u` moving at
  /// `uRate`: where it reaches its own end (or, going back, its start) it arrives with its curve's
  /// slope there, not at rest.
  func leftLimit(u: Double, p: Double, uRate: Double) -> (progress: Double, rate: Double) {
    guard case .fresh(let start, let end, let curve) = run, start != end else { return (q(u: u, p: p), 0) }
    let s = (u - start) / (end - start)
    let ds = uRate / (end - start)
    // Coming from below, s ∈ (0, 1] is inside the track; from above, s ∈ [0, 1).
    let inside = ds > 0 ? s > 0 && s <= 1 : ds < 0 && s >= 0 && s < 1
    guard inside else { return (q(u: u, p: p), 0) }
    if ds > 0 { return (curve.progress(arriving: s), curve.slope(arriving: s) * ds) }
    return (curve.progress(s), curve.slope(s) * ds)
  }
}
