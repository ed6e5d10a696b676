/// The curve builders behind every spring, tween and decay convenience (``Animator``,
/// ``AnimatorSchedule``, ``ChainGroup``, and FlickScene's `LayerMotion`): one definition of what
/// each does from a hand-over.
package enum _Motion {
  /// A spring from the hand-over's value and velocity to `target`.
  package static func spring<Value: Animatable>(
    _ parameters: SpringParameters, to target: Value, threshold: Double
  ) -> @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value> {
    { h in
      AnyAnimationCurve(
        SpringAnimation(from: h.value, to: target, velocity: h.velocity, parameters: parameters, restThreshold: threshold))
    }
  }

  /// A tween from the hand-over's value to `target`: from rest the curve itself; over a moving
  /// value it starts with that velocity and bends into the curve (``ContinuingTween``, C¹). A
  /// speed of at most `threshold` units per second (it would move less than the property's
  /// threshold in a second: the rounding left at the end of an ease-out) counts as rest.
  package static func tween<Value: Animatable>(
    to target: Value, duration: Double, timingFunction: TimingFunction, threshold: Double
  ) -> @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value> {
    let duration = duration.isFinite ? max(duration, 0) : MotionDefaults.tweenDuration
    return { h in
      let tween = BasicAnimation(from: h.value, to: target, duration: duration, timingFunction: timingFunction)
      guard h.velocity.magnitudeSquared > threshold * threshold else { return AnyAnimationCurve(tween) }
      return AnyAnimationCurve(ContinuingTween(tween, initialVelocity: h.velocity))
    }
  }

  /// A decay from the hand-over's value with `velocity` (default: the hand-over's); it ends
  /// when its speed is below 5 × `threshold`.
  package static func decay<Value: Animatable>(
    velocity: Value?, deceleration: Double, threshold: Double
  ) -> @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value> {
    { h in
      AnyAnimationCurve(
        DecayAnimation(from: h.value, velocity: velocity ?? h.velocity, deceleration: deceleration, threshold: threshold))
    }
  }
}
