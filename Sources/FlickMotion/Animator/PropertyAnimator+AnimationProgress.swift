extension PropertyAnimator {
  /// Each animation added with ``addAnimation(_:to:delayFactor:at:)``, in the order added: its
  /// own progress at scene time `t` (0 = the value it started from, 1 = its target; a spring
  /// timing may overshoot) and that progress's rate, per second, analytically.
  ///
  /// An animation added with a `delayFactor` stays at 0 until the animator's progress reaches
  /// its start, then covers the rest; one the animator has finished with holds where it ended.
  /// With these a property's value is `from + (to − from)·progress` and its velocity
  /// `(to − from)·rate`, whatever drives the animator.
  public func animationProgress(at t: Double) -> [(progress: Double, rate: Double)] {
    animationProgress(t, p: progress(at: t), rate: progressVelocity(at: t), left: false)
  }

  /// The left limit of ``animationProgress(at:)`` at `t`: each animation just before `t`.
  public func animationProgress(before t: Double) -> [(progress: Double, rate: Double)] {
    animationProgress(t, p: progress(before: t), rate: progressVelocity(before: t), left: true)
  }

  private func animationProgress(_ t: Double, p: Double, rate: Double, left: Bool) -> [(progress: Double, rate: Double)] {
    var i = 0
    for (j, s) in segments.enumerated() where left ? s.start < t : s.start <= t { i = j }
    let visible = segments[i].tracksVisible
    return tracks.enumerated().map { k, track in
      if let at = track.retiredAt, left ? at < t : at <= t { return (track.retiredQ, 0) }
      guard k < visible else { return (0, 0) }
      return (track.q(p), track.slope(p) * rate)
    }
  }
}

extension PropertyAnimator.Track {
  /// d q / d p: how fast the track's own progress moves with the animator's (see `q(_:)`).
  func slope(_ p: Double) -> Double {
    if progressStart >= 1 { return 0 }
    if progressStart > 0 && p < progressStart { return 0 }
    return 1 / (1 - progressStart)
  }
}
