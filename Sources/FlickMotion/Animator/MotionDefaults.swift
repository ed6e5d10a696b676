/// The defaults of every bare spring, tween and decay of the animator-level and layer-level
/// APIs (``Animator``, ``AnimatorSchedule``, ``ChainGroup``, FlickScene's `PopAnimation` and
/// `LayerMotion`): each of their default arguments is one of these, so the table in
/// docs/motion.md, "Defaults", describes them all.
public enum MotionDefaults {
  /// Pop's default spring (bounciness 4, speed 12: tension 342.1, friction 30.49, mass 1).
  public static let spring = SpringParameters.popDefault
  /// Pop's tween duration, seconds.
  public static let tweenDuration = 0.4
  /// Pop's and Core Animation's default timing curve (0.25, 0.1, 0.25, 1).
  public static let tweenCurve = TimingFunction.default
  /// GPUAnimation's default spring: stiffness 200, damping 10 (`ViewAnimationState`'s
  /// defaults; its kernel has mass 1). The default of every GPUAnimation-style chain group
  /// (FlickScene's `LayerChain`).
  public static let gpuAnimationSpring = SpringParameters.gpuAnimation
  /// GPUAnimation's default rest threshold (`ViewAnimationState.threshold`), value units: the
  /// spring rests once every component's speed and distance to the target are within it.
  public static let gpuAnimationThreshold = 0.01
  /// Velocity kept per millisecond by a decay (Pop, `UIScrollView.DecelerationRate.normal`).
  public static let decayDeceleration = 0.998
}
