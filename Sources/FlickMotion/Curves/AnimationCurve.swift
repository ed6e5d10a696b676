/// A motion as a pure function of local time: the one protocol every FlickMotion animation conforms to.
///
/// Springs, decays, tweens, keyframes and the timing wrapper (``TimedAnimation``) are all
/// `AnimationCurve`s, so the scene layer, the ``Animator`` and `flick curve` sample any of them
/// the same way. Local time `t` is in seconds since the animation started:
///
/// - for `t ≤ 0` the value is the start value and the velocity is the initial velocity;
/// - for `t ≥ duration` the value is the final value (a spring snaps to its target) and the
///   velocity is zero;
/// - in between, ``value(at:)`` and ``velocity(at:)`` are pure: the same `t` always gives the
///   same bits, whatever was sampled before. That is what makes rendering frame-rate
///   independent and seekable.
///
///     let spring = SpringAnimation(from: 0.0, to: 100, parameters: .pop(bounciness: 8, speed: 12))
///     spring.value(at: 0.1)     // 61.9…
///     spring.duration           // settling time, seconds
public protocol AnimationCurve<Value>: Sendable {
  /// The animated value type.
  associatedtype Value: Animatable

  /// The active length in seconds (≥ 0; `.infinity` for a motion that never ends, such as
  /// `repeatForever`). For physics this is the computed settling time.
  var duration: Double { get }

  /// The value at local time `t` seconds.
  func value(at t: Double) -> Value

  /// The rate of change of ``value(at:)`` at local time `t`, in value units per second.
  func velocity(at t: Double) -> Value

  /// Whether the animation shows at local time `t`: Core Animation's fill mode. Always true
  /// unless the curve has timing that says otherwise (a ``TimedAnimation`` before its delay
  /// without a backwards fill, or after its end with a `removed` or `backwards` fill).
  func isApplied(at t: Double) -> Bool
}

extension AnimationCurve {
  public func isApplied(at t: Double) -> Bool { true }

  /// The value once the animation has finished (`value(at: duration)`; the start value if it never ends).
  public var finalValue: Value { duration.isFinite ? value(at: duration) : value(at: 0) }

  /// A type-erased copy.
  public func eraseToAnyAnimationCurve() -> AnyAnimationCurve<Value> { AnyAnimationCurve(self) }
}

/// A type-erased ``AnimationCurve``: stores any curve of a given value type.
public struct AnyAnimationCurve<Value: Animatable>: AnimationCurve {
  /// The wrapped curve.
  public let base: any AnimationCurve<Value>
  public let duration: Double

  public init(_ base: some AnimationCurve<Value>) {
    if let erased = base as? AnyAnimationCurve<Value> {
      self = erased
    } else {
      self.base = base
      self.duration = base.duration
    }
  }

  public func value(at t: Double) -> Value { base.value(at: t) }
  public func velocity(at t: Double) -> Value { base.velocity(at: t) }
  public func isApplied(at t: Double) -> Bool { base.isApplied(at: t) }
}
