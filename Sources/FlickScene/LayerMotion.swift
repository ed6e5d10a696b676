import FlickMotion

/// How a layer animation moves to its target: a spring, a tween or a decay (GPUAnimation's
/// `type`, Pop's animation classes). Every kind starts from the property's current value and
/// velocity (the hand-over), so retargeting a running animation is continuous in value and
/// velocity.
///
/// Defaults are ``MotionDefaults`` (the table is docs/motion.md, "Defaults"); the rest
/// threshold is the property's (half a point, one 8-bit colour step, …).
public struct LayerMotion: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case spring(SpringParameters, threshold: Double?)
    case tween(duration: Double, curve: TimingFunction)
    case decay(deceleration: Double)
  }

  let kind: Kind
  /// Why the parameters given are not usable (a tween's duration that is negative or not
  /// finite, a decay's deceleration outside 0 < d < 1): the building call that takes this
  /// motion records it as a ``SceneError`` and ``Scene/validate()`` throws it. The motion runs
  /// with the default in its place meanwhile.
  var problem: String? = nil

  /// A spring with `parameters` (default Pop's: ``SpringParameters/popDefault``); it rests
  /// within `threshold` value units of its target (default: the property's threshold).
  public static func spring(_ parameters: SpringParameters = MotionDefaults.spring, threshold: Double? = nil)
    -> LayerMotion
  {
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
  public static func tween(
    duration: Double = MotionDefaults.tweenDuration, curve: TimingFunction = MotionDefaults.tweenCurve
  ) -> LayerMotion {
    let usable = duration.isFinite && duration >= 0
    return LayerMotion(
      kind: .tween(duration: usable ? duration : MotionDefaults.tweenDuration, curve: curve),
      problem: usable ? nil : "a tween's duration must be a finite number of seconds ≥ 0, found \(duration)")
  }

  /// A Pop decay: slows from its velocity (given, or the hand-over's) by `deceleration` per
  /// millisecond (0 < `deceleration` < 1; Pop's default 0.998); it ignores the target.
  public static func decay(deceleration: Double = MotionDefaults.decayDeceleration) -> LayerMotion {
    let usable = deceleration > 0 && deceleration < 1
    return LayerMotion(
      kind: .decay(deceleration: usable ? deceleration : MotionDefaults.decayDeceleration),
      problem: usable
        ? nil : "a decay's deceleration must be above 0 and below 1 (per millisecond), found \(quoted: deceleration)")
  }

  /// The curve that takes `handoff` to `target` (a decay ignores `target`); `velocity`, when
  /// given, replaces the hand-over's velocity (units per second).
  /// Built by FlickMotion's `CurveBuilder` rules, as templates build theirs: a spring and a
  /// tween start with the stated velocity as given; a decay takes a stated velocity as written
  /// and the hand-over's scaled so it starts moving at exactly that speed.
  func curve<V: Animatable>(
    from handoff: Handoff<V>, to target: V, velocity: V?, threshold: Double
  ) -> AnyAnimationCurve<V> {
    var start = handoff
    switch kind {
    case .spring(let parameters, let own):
      if let velocity { start.velocity = velocity }
      return CurveBuilder.spring(from: start, to: target, parameters: parameters, threshold: own ?? threshold)
    case .tween(let duration, let curve):
      if let velocity { start.velocity = velocity }
      return CurveBuilder.tween(
        from: start, to: target, duration: duration, timingFunction: curve, threshold: threshold)
    case .decay(let deceleration):
      return CurveBuilder.decay(from: start, velocity: velocity, deceleration: deceleration, threshold: threshold)
    }
  }
}
