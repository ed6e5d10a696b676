extension AnimationSpec {
  /// The animation this spec describes, from `fromValue` (at rest) to `toValue`: the
  /// ``CurveBuilder`` with a hand-over at rest.
  ///
  /// Spring and decay speeds act along the direction of motion (`toValue − fromValue`); for a
  /// number with `fromValue == toValue` they are taken as given (units/s). A decay ignores
  /// `toValue` except for that direction. With timing options the result is a
  /// ``TimedAnimation`` (parent time); otherwise local time.
  ///
  /// - Throws: ``MotionError`` when bounds are used with a value that is not a number.
  package func curve<V: Animatable>(from fromValue: V, to toValue: V) throws(MotionError) -> AnyAnimationCurve<V> {
    try CurveBuilder(spec: self, from: Handoff(value: fromValue, velocity: .zero, time: 0), to: toValue).curve()
  }

  /// The animation this spec describes, taking over from a hand-over state: the
  /// ``CurveBuilder`` (springs and decays take the hand-over's velocity unless the spec gives
  /// one, tweens continue it, keyframes start from their first key). `threshold` is the
  /// property's visibility threshold, when there is one.
  package func curve<V: Animatable>(from handoff: Handoff<V>, to toValue: V?, threshold: Double? = nil)
    throws(MotionError) -> AnyAnimationCurve<V>
  {
    try CurveBuilder(spec: self, from: handoff, to: toValue, threshold: threshold).curve()
  }

  /// When a motion of this spec placed at `start` (scene time, seconds) takes the property over,
  /// and whether it leaves from rest: the time to read the hand-over (``Handoff``) at. The
  /// spec's own `delay` (`"easeOut(duration: 0.5, delay: 0.2)"`, the timing's `beginTime`)
  /// starts the curve later, and until then what the property was doing goes on, so the
  /// hand-over happens when the curve starts, as for a template entry's `delay`. With a
  /// backwards fill (`fill: both`/`backwards`) the start value shows from `start` on instead:
  /// the hand-over happens at `start` and the curve leaves the hold from rest, so the value
  /// never jumps.
  package func handover(at start: Double) -> (time: Double, atRest: Bool) {
    guard let timing, timing.beginTime > 0 else { return (start, false) }
    if timing.fillMode.fillsBackwards { return (start, true) }
    return (start + timing.beginTime, false)
  }

  /// This spec as a property animator's timing (`UITimingCurveProvider`): a tween is
  /// `UICubicTimingParameters` along its curve; a spring that gave `dampingRatio` without
  /// `response` (``Written/dampingRatioWithoutResponse``) is
  /// `UISpringTimingParameters(dampingRatio:initialVelocity:)`, which settles within the
  /// animator's duration; any other spring is `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`.
  /// Its `normalizedVelocity` is UIKit's `initialVelocity`.
  ///
  /// - Throws: ``MotionError`` for a decay, keyframes, a constant, a drag or a spin, which UIKit's
  ///   animators have no timing for.
  package func animatorTiming<Root>(for _: Root.Type = Root.self) throws(MotionError)
    -> PropertyAnimator<Root>.TimingParameters
  {
    switch kind {
    case .tween(let f, _):
      return .cubic(f)
    case .spring(let parameters, _, let normalized, _):
      if written.contains(.dampingRatioWithoutResponse) {
        return .spring(dampingRatio: parameters.dampingRatio, initialVelocity: normalized ?? 0)
      }
      return .springPhysics(parameters, initialVelocity: normalized ?? 0)
    case .decay, .keyframes, .constant, .drag, .spin:
      throw MotionError("an animator's curve is a timing curve (\"easeOut\", [x1, y1, x2, y2]) or a spring")
    }
  }
}
