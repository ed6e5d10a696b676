extension Animator {
  /// Writes every key's animation at scene time `t` into `root` (pure; any order): what
  /// ``sample(at:)`` does, over a model given by the caller instead of ``initialModel``. A
  /// scene uses it to lay the animator over the layers its other animations already moved, in
  /// one pass over the keys.
  public func write(into root: inout Root, at t: Double) {
    let state = self.state
    for key in state.keyOrder {
      if let segment = Self.segment(for: key, at: t, in: state) { segment.write(&root, at: t) }
    }
  }
}

extension PropertyAnimator {
  /// Writes every property animation at the progress of scene time `t` into `root` (pure):
  /// ``sample(at:)`` over a model given by the caller instead of ``initialModel``.
  public func write(into root: inout Root, at t: Double) {
    let s = segments[segmentIndex(at: t)]
    let p = evaluate(s, at: t).p
    for (i, track) in tracks.enumerated() {
      if let at = track.retiredAt, at <= t {
        track.write(&root, track.retiredQ)
      } else if i < s.tracksVisible {
        track.write(&root, track.q(p))
      }
    }
  }
}

extension Animator {
  /// Every key an animation has run under (the replay's, completion handlers included), in
  /// first-use order.
  public var animatedKeys: [AnimationKey] { state.keyOrder }
}

extension PropertyAnimator {
  /// UIKit's `finishAnimation(at:)`: legal only when stopped; moves the properties to
  /// `position` (`.end`, `.start` or `.current`) at scene time `t` and runs the completions.
  /// (`at:` is a time in every Flick call, so the position is `to:`.)
  public mutating func finishAnimation(to position: Position, at t: Double) throws(AnimatorError) {
    try _finishAnimation(at: position, time: t)
  }
}
