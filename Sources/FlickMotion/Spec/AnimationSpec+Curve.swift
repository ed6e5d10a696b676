extension AnimationSpec {
  /// The animation this spec describes, from `fromValue` to `toValue`.
  ///
  /// Spring and decay velocities act along the direction of motion (`toValue − fromValue`); for a
  /// scalar with `fromValue == toValue` they are taken as given (units/s). A decay ignores
  /// `toValue` except for that direction. With timing options the result is a
  /// ``TimedAnimation`` (parent time); otherwise local time.
  ///
  /// - Throws: ``MotionError`` when bounds are used with a non-scalar value.
  package func curve<V: Animatable>(from fromValue: V, to toValue: V) throws(MotionError) -> AnyAnimationCurve<V> {
    let base = try untimedCurve(from: fromValue, to: toValue, handoff: nil)
    guard let timing else { return base }
    return AnyAnimationCurve(TimedAnimation(base, timing: timing))
  }

  /// The animation this spec describes, taking over from a hand-over state (the one builder
  /// templates, `flick curve` and Swift share; use it in ``Animator/add(_:property:timing:at:onChange:onComplete:_:)``):
  ///
  /// - a spring or decay without a given velocity (``velocityIsGiven`` false) starts with the
  ///   hand-over's velocity (a release keeps its motion); with one, the spec's velocity wins;
  /// - a tween starts with the hand-over's velocity and keeps its end value and end velocity
  ///   (``ContinuingTween``, C¹);
  /// - keyframes start from their first key (no velocity to carry).
  package func curve<V: Animatable>(from handoff: Handoff<V>, to toValue: V) throws(MotionError) -> AnyAnimationCurve<V>
  {
    let base = try untimedCurve(from: handoff.value, to: toValue, handoff: handoff.velocity)
    guard let timing else { return base }
    return AnyAnimationCurve(TimedAnimation(base, timing: timing))
  }

  private func direction<V: Animatable>(_ from: V, _ to: V, speed: Double) -> V {
    let delta = to - from
    let length = delta.magnitudeSquared.squareRoot()
    if length > 0 { return delta.scaled(by: speed / length) }
    if let scalar = speed as? V { return scalar }
    return .zero
  }

  private func untimedCurve<V: Animatable>(from: V, to: V, handoff: V?) throws(MotionError) -> AnyAnimationCurve<V> {
    let inherited = velocityIsGiven ? nil : handoff
    switch kind {
    case .spring(let parameters, let velocity, let normalized, let threshold):
      if stepping != .analytic {
        let v = inherited ?? normalized.map { (to - from).scaled(by: $0) } ?? direction(from, to, speed: velocity)
        return AnyAnimationCurve(
          SteppedSpring(
            from: from, to: to, velocity: v, parameters: parameters, threshold: threshold ?? 0.01, stepping: stepping))
      }
      if let inherited {
        return AnyAnimationCurve(
          SpringAnimation(from: from, to: to, velocity: inherited, parameters: parameters, restThreshold: threshold))
      }
      if let normalized {
        return AnyAnimationCurve(
          SpringAnimation(
            from: from, to: to, normalizedVelocity: normalized, parameters: parameters, restThreshold: threshold))
      }
      return AnyAnimationCurve(
        SpringAnimation(
          from: from, to: to, velocity: direction(from, to, speed: velocity), parameters: parameters,
          restThreshold: threshold))
    case .decay(let velocity, let deceleration, let threshold, let bounds):
      if let bounds {
        guard let start = from as? Double, let speed = inherited.map({ $0 as? Double }) ?? velocity else {
          throw MotionError("decay bounds (min/max) apply to numbers only, not \(quoted: V.self)")
        }
        let band = RubberBandDecay(
          from: start, velocity: speed, bounds: bounds, deceleration: deceleration, threshold: threshold)
        guard let erased = AnyAnimationCurve(band) as? AnyAnimationCurve<V> else {
          throw MotionError("decay bounds (min/max) apply to numbers only, not \(quoted: V.self)")
        }
        return erased
      }
      return AnyAnimationCurve(
        DecayAnimation(
          from: from, velocity: inherited ?? direction(from, to, speed: velocity), deceleration: deceleration,
          threshold: threshold))
    case .tween(let f, let duration):
      let tween = BasicAnimation(from: from, to: to, duration: duration, timingFunction: f)
      if let handoff { return AnyAnimationCurve(ContinuingTween(tween, initialVelocity: handoff)) }
      return AnyAnimationCurve(tween)
    case .keyframes(let values, let keyTimes, let curves, let mode, let duration):
      let mapped = values.map { from.interpolated(to: to, amount: $0) }
      return AnyAnimationCurve(
        try KeyframeAnimation(
          values: mapped, keyTimes: keyTimes, timingFunctions: curves, calculationMode: mode, duration: duration))
    case .constant(let value):
      return AnyAnimationCurve(ConstantCurve(value: from.interpolated(to: to, amount: value)))
    case .drag(let points, let curve, let duration):
      let mapped = points.map { from.interpolated(to: to, amount: $0) }
      return AnyAnimationCurve(try DragCurve(points: mapped, duration: duration, timing: curve))
    }
  }
}
