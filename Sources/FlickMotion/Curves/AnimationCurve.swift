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
/// **Left and right limits.** ``value(at:)`` and ``velocity(at:)`` are the *right* limits: at a
/// boundary (the end, an iteration of a repeat, a bound of a rubber band) they give the state
/// from that instant on. ``value(before:)`` and ``velocity(before:)`` are the *left* limits: the
/// state just before `t`. They differ only at boundaries: a tween's `velocity(at: duration)` is
/// 0 (it has ended), its `velocity(before: duration)` is its real end velocity. A hand-over
/// (a release after a drag-length tween, a spring taking over at the instant another motion
/// ends) must use the left limit, so the motion keeps the velocity it had.
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

  /// The left limit of ``value(at:)`` at `t`: the value just before `t` (at `t ≤ 0`, the start value).
  func value(before t: Double) -> Value

  /// The left limit of ``velocity(at:)`` at `t`, units/s: the velocity just before `t`
  /// (`velocity(before: duration)` is the end velocity the motion really had).
  func velocity(before t: Double) -> Value

  /// Whether the animation shows at local time `t`: Core Animation's fill mode. Always true
  /// unless the curve has timing that says otherwise (a ``TimedAnimation`` before its delay
  /// without a backwards fill, or after its end with a `removed` or `backwards` fill).
  func isApplied(at t: Double) -> Bool

  /// Where the value may jump or turn after local time `t`, and how close its other turns come
  /// (``CurveTurns``): what a search for the first time the value crosses a level (a template's
  /// `when`) steps by. The default knows nothing: no break, at most one turn per step of the search.
  func turns(after t: Double) -> CurveTurns

  /// ``turns(after:)`` looking back from `t`: the nearest break before it.
  func turns(before t: Double) -> CurveTurns
}

extension AnimationCurve {
  public func isApplied(at t: Double) -> Bool { true }

  public func turns(after t: Double) -> CurveTurns { .none(forward: true) }

  public func turns(before t: Double) -> CurveTurns { .none(forward: false) }

  /// Default left limit: the curve one ulp before `t` (curves with a closed form override it).
  public func value(before t: Double) -> Value { value(at: t.nextDown) }

  /// Default left limit: the velocity one ulp before `t` (curves with a closed form override it).
  public func velocity(before t: Double) -> Value { velocity(at: t.nextDown) }

  /// The left limits (value, velocity) at `t`: what a hand-over at `t` continues from.
  public func leftLimit(at t: Double) -> (value: Value, velocity: Value) { (value(before: t), velocity(before: t)) }

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
  public func value(before t: Double) -> Value { base.value(before: t) }
  public func velocity(before t: Double) -> Value { base.velocity(before: t) }
  public func isApplied(at t: Double) -> Bool { base.isApplied(at: t) }
  public func turns(after t: Double) -> CurveTurns { base.turns(after: t) }
  public func turns(before t: Double) -> CurveTurns { base.turns(before: t) }
}
