extension PropertyAnimator {
  /// Writes every property animation at the progress of scene time `t` into `root` (pure):
  /// ``sample(at:)`` over a model given by the caller instead of ``initialModel``.
  public func write(into root: inout Root, at t: Double) {
    let s = segments[segmentIndex(at: t)]
    let e = evaluate(s, at: t)
    for (i, track) in tracks.enumerated() {
      if let at = track.retiredAt, at <= t {
        track.write(&root, track.retiredQ, track.retiredBlendAt)
      } else if i < s.tracksVisible {
        track.write(&root, track.q(u: e.u, p: e.p), t)
      }
    }
  }
}

extension Animator {
  /// Every key an animation has run under (the replay's, completion handlers included), in
  /// first-use order.
  public var animatedKeys: [AnimationKey] { state.keyOrder }

  /// Every key one of whose animations (completion handlers' included) has a value that is not
  /// a finite number — a NaN or infinite target, start value or velocity — in first-use order.
  package var nonFiniteKeys: [AnimationKey] { state.nonFinite }
}

extension PropertyAnimator {
  /// UIKit's `finishAnimation(at:)`: legal only when stopped; moves the properties to
  /// `position` (`.end`, `.start` or `.current`) at scene time `t` and runs the completions.
  /// (`at:` is a time in every Flick call, so the position is `to:`.)
  public mutating func finishAnimation(to position: Position, at t: Double) throws(AnimatorError) {
    try _finishAnimation(at: position, time: t)
  }
}
