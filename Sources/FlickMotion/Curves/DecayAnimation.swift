import Foundation

/// Momentum that slows down exponentially (Pop's `POPDecayAnimation`), in closed form.
///
/// Pop semantics: `deceleration` is the fraction of velocity kept per millisecond (default
/// 0.998), the initial velocity is in units per second, and the position after `n` ms is
/// `x₀ + (v₀/1000)·d·(1 − dⁿ)/(1 − d)`: Pop's per-millisecond sum, evaluated exactly for real
/// `n = 1000·t` in double precision (Pop uses float32). ``velocity(at:)`` is the exact time
/// derivative of ``value(at:)``, so hand-overs (a spring taking over) are C¹; at `t = 0` it is
/// `v₀·(−d·ln d)/(1 − d)` = 0.999·v₀ for d = 0.998 (Pop reports `v₀·dⁿ`, 0.1 % higher).
///
/// ``duration`` and ``finalValue`` are known up front: the motion ends when the speed drops
/// below `5·threshold` units/s (Pop's `kPOPAnimationDecayMinimalVelocityFactor`), and then
/// holds. With v₀ = 1000 pt/s and threshold 1: 2.647 s and 496.5 pt.
public struct DecayAnimation<Value: Animatable>: AnimationCurve, Equatable {
  /// Start value.
  public let fromValue: Value
  /// Initial velocity in units per second.
  public let initialVelocity: Value
  /// Velocity kept per millisecond, in `0 < d < 1` (Pop default 0.998).
  public let deceleration: Double
  /// Pop's property threshold: the motion stops below `5·threshold` units/s.
  public let threshold: Double
  /// Time until the speed falls below `5·threshold`, seconds (0 if it starts below).
  public let duration: Double
  /// `d / (1000·(1 − d))`: distance per unit of initial velocity, before the `(1 − e^{−λt})` factor.
  @usableFromInline let reach: Double
  /// λ = −1000·ln d, the exponential rate in 1/s.
  @usableFromInline let rate: Double

  /// A decay from `fromValue` with `velocity` (units/s).
  ///
  /// - Parameters:
  ///   - deceleration: Velocity kept per millisecond; clamped to `0.5…0.999999` (default 0.998).
  ///   - threshold: Rest threshold in value units (Pop's `POPAnimatableProperty.threshold`;
  ///     default 1, a point); the decay ends when |v| < 5·threshold units/s.
  public init(
    from fromValue: Value, velocity: Value, deceleration: Double = 0.998, threshold: Double = 1
  ) {
    let d = deceleration.isFinite ? min(max(deceleration, 0.5), 0.999_999) : 0.998
    self.fromValue = fromValue
    self.initialVelocity = velocity
    self.deceleration = d
    self.threshold = max(threshold, 0)
    self.rate = -1000 * log(d)
    self.reach = d / (1000 * (1 - d))
    let speed = velocity.norm
    let k = 5 * self.threshold
    if speed <= k || speed == 0 {
      duration = 0
    } else if k == 0 {
      duration = .infinity
    } else {
      // Pop: ln(k_ms / v_ms) / (1000·ln d), with k_ms = 5·threshold/1000.
      duration = log(k / speed) / (1000 * log(d))
    }
  }

  /// The fraction of the total reach covered at `t`: `1 − dⁿ`, n = 1000·t.
  @inlinable func covered(_ t: Double) -> Double { -expm1(-rate * t) }

  @inlinable
  public func value(at t: Double) -> Value {
    let tc = min(max(t, 0), duration)
    return fromValue + initialVelocity.scaled(by: reach * covered(tc))
  }

  @inlinable
  public func velocity(at t: Double) -> Value {
    if t >= duration { return .zero }
    return initialVelocity.scaled(by: reach * rate * exp(-rate * max(t, 0)))
  }

  /// The value is continuous: the left limit equals ``value(at:)``.
  public func value(before t: Double) -> Value { value(at: t) }

  /// The left limit: at ``duration`` the speed the decay stopped from (5·threshold units/s), not 0.
  public func velocity(before t: Double) -> Value {
    if t > duration { return .zero }
    return initialVelocity.scaled(by: reach * rate * exp(-rate * max(t, 0)))
  }

  /// The position the motion tends to as t → ∞ (`x₀ + v₀·d/(1000(1 − d))`), beyond ``finalValue``.
  public var limitValue: Value { fromValue + initialVelocity.scaled(by: reach) }
}
