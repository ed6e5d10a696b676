import FlickMotion

/// How a layer animation moves to its target: a spring, a tween or a decay (GPUAnimation's
/// `type`, Pop's animation classes). Every kind starts from the property's current value and
/// velocity (the hand-over), so retargeting a running animation is continuous in value and
/// velocity.
///
/// Defaults (the one table is in docs/motion.md, "Defaults"):
///
/// | call | default |
/// |---|---|
/// | ``spring(_:threshold:)`` | Pop's default spring (bounciness 4, speed 12: tension 342.1, friction 30.49, mass 1), what a bare `spring` means in templates |
/// | ``tween(duration:curve:)`` | 0.4 s, ``TimingFunction/default`` (Pop's and Core Animation's default) |
/// | ``decay(deceleration:)`` | 0.998 per millisecond (Pop, `UIScrollView.DecelerationRate.normal`) |
/// | rest threshold | the property's (half a point, one 8-bit colour step, …) |
public struct LayerMotion: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case spring(SpringParameters, threshold: Double?)
    case tween(duration: Double, curve: TimingFunction)
    case decay(deceleration: Double)
  }

  let kind: Kind

  /// A spring with `parameters` (default Pop's: ``SpringParameters/popDefault``); it rests
  /// within `threshold` value units of its target (default: the property's threshold).
  public static func spring(_ parameters: SpringParameters = .popDefault, threshold: Double? = nil) -> LayerMotion {
    LayerMotion(kind: .spring(parameters, threshold: threshold))
  }

  /// A spring by its physics (GPUAnimation's `.spring(stiffness:damping:threshold:)`).
  public static func spring(
    stiffness: Double, damping: Double, mass: Double = 1, threshold: Double? = nil
  ) -> LayerMotion {
    spring(SpringParameters(mass: mass, stiffness: stiffness, damping: damping), threshold: threshold)
  }

  /// A tween lasting `duration` seconds along `curve`. From rest it follows the curve; taking
  /// over a moving value it starts with that velocity and bends into the curve
  /// (``ContinuingTween``: value and velocity continuous).
  public static func tween(duration: Double = 0.4, curve: TimingFunction = .default) -> LayerMotion {
    LayerMotion(kind: .tween(duration: duration.isFinite ? max(duration, 0) : 0.4, curve: curve))
  }

  /// A Pop decay: slows from its velocity (given, or the hand-over's) by `deceleration` per
  /// millisecond; it ignores the target.
  public static func decay(deceleration: Double = 0.998) -> LayerMotion {
    LayerMotion(kind: .decay(deceleration: deceleration))
  }

  /// The curve that takes `handoff` to `target` (a decay ignores `target`); `velocity`, when
  /// given, replaces the hand-over's velocity (units per second).
  func curve<V: Animatable>(
    from handoff: Handoff<V>, to target: V, velocity: V?, threshold: Double
  ) -> AnyAnimationCurve<V> {
    let v = velocity ?? handoff.velocity
    switch kind {
    case .spring(let parameters, let own):
      return AnyAnimationCurve(
        SpringAnimation(
          from: handoff.value, to: target, velocity: v, parameters: parameters, restThreshold: own ?? threshold))
    case .tween(let duration, let curve):
      let tween = BasicAnimation(from: handoff.value, to: target, duration: duration, timingFunction: curve)
      // From rest the tween keeps its own curve; over a moving value it starts with that velocity (C¹).
      guard v.magnitudeSquared > 0 else { return AnyAnimationCurve(tween) }
      return AnyAnimationCurve(ContinuingTween(tween, initialVelocity: v))
    case .decay(let deceleration):
      return AnyAnimationCurve(
        DecayAnimation(from: handoff.value, velocity: v, deceleration: deceleration, threshold: threshold))
    }
  }
}
