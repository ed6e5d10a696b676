/// A value turning at a speed that eases to a new one and then holds: what a record player's
/// platter does when it spins up, slows down or stops. The speed goes from ``initialVelocity``
/// to ``targetVelocity`` (units/s; rad/s for a rotation) over ``rampDuration`` seconds along
/// ``timing``, then stays at ``targetVelocity`` for ever; the value is the integral of the speed,
/// in closed form (a cubic Bézier's integral is a polynomial of its parameter), so the curve is
/// C¹ everywhere, pure in time and the same at any frame rate.
///
///     let spinUp = try SpinCurve(from: 0.0, initialVelocity: 0, targetVelocity: 3.49,
///                                timing: .easeInEaseOut, rampDuration: 1.2)
///     spinUp.velocity(at: 5)   // 3.49
///
/// A spin to a speed of zero ends (``duration`` is ``rampDuration``); any other spin never ends
/// (``duration`` is infinite) until a later motion takes over its value and speed.
package struct SpinCurve<Value: Animatable>: AnimationCurve {
  /// The value at local time 0.
  package let from: Value
  /// The speed at local time 0, units/s.
  package let initialVelocity: Value
  /// The speed from ``rampDuration`` on, units/s.
  package let targetVelocity: Value
  /// How the speed goes from ``initialVelocity`` to ``targetVelocity`` (a cubic Bézier).
  package let timing: TimingFunction
  /// How long the speed takes to reach ``targetVelocity``, seconds (≥ 0).
  package let rampDuration: Double
  /// ``rampDuration`` for a spin to rest; infinite otherwise.
  package let duration: Double
  /// The value at the end of the ramp.
  private let rampEnd: Value

  /// A spin from `from` at `initialVelocity` to `targetVelocity`, eased along `timing` over
  /// `rampDuration` seconds. Throws for a timing curve that is not a cubic Bézier (steps, back,
  /// bounce and elastic eases have no closed-form integral here) or a duration that is negative
  /// or not finite.
  package init(
    from: Value, initialVelocity: Value, targetVelocity: Value, timing: TimingFunction = .easeInEaseOut,
    rampDuration: Double
  ) throws(MotionError) {
    guard case .bezier = timing.kind else {
      throw MotionError(
        "a spin eases its speed along a cubic-Bézier curve (linear, easeIn, easeOut, easeInEaseOut, default or "
          + "cubicBezier(…)); steps, back, bounce and elastic curves cannot pace a spin", argument: "curve")
    }
    guard rampDuration.isFinite, rampDuration >= 0 else {
      throw MotionError("a spin's duration must be a finite number of seconds ≥ 0", argument: "duration")
    }
    self.from = from
    self.initialVelocity = initialVelocity
    self.targetVelocity = targetVelocity
    self.timing = timing
    self.rampDuration = rampDuration
    duration = targetVelocity.norm == 0 ? rampDuration : .infinity
    rampEnd =
      from + initialVelocity.scaled(by: rampDuration)
      + (targetVelocity - initialVelocity).scaled(by: rampDuration * Self.integral(timing, upTo: 1))
  }

  package func value(at t: Double) -> Value {
    if t <= 0 { return from }
    if t >= rampDuration { return rampEnd + targetVelocity.scaled(by: t - rampDuration) }
    let x = t / rampDuration
    return from + initialVelocity.scaled(by: t)
      + (targetVelocity - initialVelocity).scaled(by: rampDuration * Self.integral(timing, upTo: x))
  }

  package func velocity(at t: Double) -> Value {
    if t <= 0 { return initialVelocity }
    if t >= rampDuration { return targetVelocity }
    return initialVelocity + (targetVelocity - initialVelocity).scaled(by: timing.progress(at: t / rampDuration))
  }

  /// The value is continuous: the left limit is the value.
  package func value(before t: Double) -> Value { value(at: t) }

  /// The speed is continuous (a Bézier has no jump): the left limit is the speed, at the end of
  /// the ramp the target speed.
  package func velocity(before t: Double) -> Value { velocity(at: t) }

  /// `∫₀ˣ progress(u) du` for a cubic-Bézier timing curve: with `s` the curve parameter at `x`,
  /// `∫₀ˢ y(σ)·x′(σ) dσ`, a polynomial of degree 6 in `s`. A straight line gives `x²/2`.
  static func integral(_ f: TimingFunction, upTo x: Double) -> Double {
    let x = min(max(x, 0), 1)
    if f.c1.x == f.c1.y && f.c2.x == f.c2.y { return x * x / 2 }
    let b = UnitBezier(c1: f.c1, c2: f.c2)
    let s = b.solveX(x, epsilon: 1e-12)
    // y(σ)·x′(σ) = c5 σ⁵ + c4 σ⁴ + c3 σ³ + c2 σ² + c1 σ.
    let c5 = 3 * b.ax * b.ay
    let c4 = 2 * b.bx * b.ay + 3 * b.ax * b.by
    let c3 = b.cx * b.ay + 2 * b.bx * b.by + 3 * b.ax * b.cy
    let c2 = b.cx * b.by + 2 * b.bx * b.cy
    let c1 = b.cx * b.cy
    return ((((c5 / 6 * s + c4 / 5) * s + c3 / 4) * s + c2 / 3) * s + c1 / 2) * s * s
  }
}
