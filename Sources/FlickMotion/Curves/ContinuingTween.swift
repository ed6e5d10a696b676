/// A tween that starts with a given velocity: C¹ retargeting for tweens (fixes Pop #265, where a
/// retargeted basic animation restarts and loses its velocity).
///
/// `value(t) = tween(t) + Δv·D·h(t/D)` with `h(s) = s(1 − s)²` (h(0) = h(1) = h′(1) = 0,
/// h′(0) = 1) and `Δv` the difference between the wanted initial velocity and the tween's own:
/// the start and end values are unchanged, the start velocity is exactly `initialVelocity`, and
/// the end velocity is the tween's own.
public struct ContinuingTween<Value: Animatable>: AnimationCurve {
  /// The underlying tween.
  public let tween: BasicAnimation<Value>
  /// The velocity at local time 0, units/s.
  public let initialVelocity: Value
  private let correction: Value
  public var duration: Double { tween.duration }

  public init(_ tween: BasicAnimation<Value>, initialVelocity: Value) {
    self.tween = tween
    self.initialVelocity = initialVelocity
    let own = (tween.toValue - tween.fromValue).scaled(by: tween.duration > 0 ? tween.timingFunction.slope(at: 0) / tween.duration : 0)
    correction = (initialVelocity - own).scaled(by: tween.duration)
  }

  public func value(at t: Double) -> Value {
    let d = tween.duration
    if d <= 0 || t >= d { return tween.toValue }
    if t <= 0 { return tween.fromValue }
    let s = t / d
    return tween.value(at: t) + correction.scaled(by: s * (1 - s) * (1 - s))
  }

  public func velocity(at t: Double) -> Value {
    let d = tween.duration
    if d <= 0 || t >= d { return .zero }
    if t < 0 { return initialVelocity }
    let s = t / d
    return tween.velocity(at: t) + correction.scaled(by: (1 - s) * (1 - 3 * s) / d)
  }

  /// The left limit: at `duration` the tween's own end velocity (the correction's slope is 0 there).
  public func velocity(before t: Double) -> Value {
    let d = tween.duration
    if d <= 0 || t > d { return .zero }
    if t <= 0 { return initialVelocity }
    let s = t / d
    return tween.velocity(before: t) + correction.scaled(by: (1 - s) * (1 - 3 * s) / d)
  }

  public func value(before t: Double) -> Value {
    let d = tween.duration
    if d <= 0 || t > d { return tween.toValue }
    if t <= 0 { return tween.fromValue }
    let s = t / d
    return tween.value(before: t) + correction.scaled(by: s * (1 - s) * (1 - s))
  }
}
