/// A tween that starts with a given velocity: C¹ retargeting for tweens (fixes Pop #265, where a
/// retargeted basic animation restarts and loses its velocity).
///
/// The incoming velocity splits into its part along the travel (`to − from`) and the rest:
///
/// - **Along the travel**, a cubic-Bézier timing curve (every named Core Animation curve) is
///   bent to start at the incoming speed: its first control point is moved to `(x₁, m·x₁)`, `m`
///   being the speed along the travel in units of `(to − from)/duration` and `x₁` the curve's own
///   (⅓ when it has none), with `x₁ = 1/m` when `m·x₁` would pass 1. The second control point
///   is kept, or, when it is the end point (1, 1), moved along the curve's end tangent
///   (``bend(_:startSlope:)``). So the tween still ends at `to`, exactly at `duration`, with the
///   curve's own end velocity,
///   and with a curve whose control points lie in `0…1` (linear, ease-in, ease-out, ease-in-out,
///   default) it is **monotone and never passes the target** however fast the value came in;
///   only a value moving *away* from the target has to turn back first.
/// - **Across the travel** (or all of it when there is no travel, or for the non-Bézier eases
///   `back`, `bounce`, `elastic`, `steps`), a correction `Δv·D·h(t/D)` with
///   `h(s) = s(1 − s)²` (h(0) = h(1) = h′(1) = 0, h′(0) = 1) brings the velocity in and fades.
///
/// The start value is unchanged, the start velocity is exactly `initialVelocity`, the end value
/// is `to`.
package struct ContinuingTween<Value: Animatable>: AnimationCurve {
  /// The underlying tween.
  package let tween: BasicAnimation<Value>
  /// The velocity at local time 0, units/s.
  package let initialVelocity: Value
  /// The tween along the travel, its curve bent to start at the incoming speed.
  private let along: BasicAnimation<Value>
  /// The part of the velocity the bent curve does not carry, times the duration.
  private let correction: Value
  package var duration: Double { tween.duration }

  package init(_ tween: BasicAnimation<Value>, initialVelocity: Value) {
    self.tween = tween
    self.initialVelocity = initialVelocity
    let d = tween.duration
    let axis = tween.toValue - tween.fromValue
    let norm = axis.norm
    guard d > 0, norm > 0, norm.isFinite, case .bezier = tween.timingFunction.kind else {
      let own = axis.scaled(by: d > 0 ? tween.timingFunction.slope(at: 0) / d : 0)
      along = tween
      correction = (initialVelocity - own).scaled(by: d)
      return
    }
    // Speed along the travel, in (to − from) per second; as a slope of the unit curve, m.
    let fraction = initialVelocity.projection(onto: axis)
    var bent = tween
    bent.timingFunction = Self.bend(tween.timingFunction, startSlope: fraction * d)
    along = bent
    correction = (initialVelocity - axis.scaled(by: fraction)).scaled(by: d)
  }

  /// `f` with its first control point moved so the curve leaves (0, 0) with slope `m`, ending
  /// with `f`'s own end slope. When the second control point is the end point (1, 1) (linear,
  /// ease-in) the end slope is `(1 − y₁)/(1 − x₁)`, set by the first control point: the second
  /// one then moves along `f`'s end tangent, to `(1 − δ, 1 − s·δ)` (`s` the end slope, `δ` half
  /// the way from x₁ to 1, at most `½/s`), so the bend leaves the end slope alone (a linear
  /// continuation ended at 175 u/s instead of its own 150).
  static func bend(_ f: TimingFunction, startSlope m: Double) -> TimingFunction {
    guard m.isFinite else { return f }
    var x1 = f.c1.x > 0 ? min(f.c1.x, 1) : 1.0 / 3
    if m * x1 > 1 { x1 = 1 / m }
    let c1 = Point(x: x1, y: m * x1)
    var c2 = f.c2
    if c2 == Point(x: 1, y: 1) && c1 != f.c1 {
      let endSlope = f.slope(at: 1)
      guard endSlope > 0, endSlope.isFinite else { return TimingFunction(controlPoint1: c1, controlPoint2: c2) }
      let delta = min(max((1 - x1) / 2, 1.0 / 6), 0.5 / endSlope)
      c2 = Point(x: 1 - delta, y: 1 - endSlope * delta)
    }
    return TimingFunction(controlPoint1: c1, controlPoint2: c2)
  }

  package func value(at t: Double) -> Value {
    let d = tween.duration
    if d <= 0 || t >= d { return tween.toValue }
    if t < 0 { return tween.fromValue }
    // At 0 the correction is 0 and the tween is where its curve starts: its start value, or a
    // step on for a steps curve that jumps at its start.
    if t == 0 { return along.value(at: 0) }
    let s = t / d
    return along.value(at: t) + correction.scaled(by: s * (1 - s) * (1 - s))
  }

  package func velocity(at t: Double) -> Value {
    let d = tween.duration
    if d <= 0 || t >= d { return .zero }
    if t < 0 { return initialVelocity }
    let s = t / d
    return along.velocity(at: t) + correction.scaled(by: (1 - s) * (1 - 3 * s) / d)
  }

  /// The left limit: at `duration` the curve's own end velocity (the correction's slope is 0 there).
  package func velocity(before t: Double) -> Value {
    let d = tween.duration
    if d <= 0 || t > d { return .zero }
    if t <= 0 { return initialVelocity }
    let s = t / d
    return along.velocity(before: t) + correction.scaled(by: (1 - s) * (1 - 3 * s) / d)
  }

  package func value(before t: Double) -> Value {
    let d = tween.duration
    if d <= 0 || t > d { return tween.toValue }
    if t <= 0 { return tween.fromValue }
    let s = t / d
    return along.value(before: t) + correction.scaled(by: s * (1 - s) * (1 - s))
  }
}
