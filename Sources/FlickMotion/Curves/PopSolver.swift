/// Pop's `SpringSolver` arithmetic (`POPSpringSolver.h`): classic RK4 on a spring of rest
/// length 0, `a = −(k/m)·p − (b/m)·v`, in Pop's operation order (internal to ``SteppedSpring``).
struct PopSolver<Value: Animatable>: Sendable {
  /// Pop's `solverDt = 0.001f`, a float literal: 0.0010000000475 s as a double.
  static var solverDt: Double { Double(Float(0.001)) }

  let k: Double
  let b: Double
  let m: Double
  /// Pop's thresholds: position (compared per component), squared velocity, squared dv/dt.
  let tp: Double
  let tv: Double
  let ta: Double

  init(stiffness: Double, damping: Double, mass: Double, threshold: Double) {
    k = stiffness
    b = damping
    m = mass
    tp = threshold / 2
    tv = 25 * threshold
    ta = 625 * threshold * threshold
  }

  func acceleration(_ p: Value, _ v: Value) -> Value { p.scaled(by: -k / m) - v.scaled(by: b / m) }

  /// `evaluate(initial, t, dt, d)`: the derivative at `initial` advanced by `d` over `dt`.
  func evaluate(_ s: (p: Value, v: Value), _ dt: Double, _ d: (dp: Value, dv: Value)) -> (dp: Value, dv: Value) {
    let p = s.p + d.dp.scaled(by: dt)
    let v = s.v + d.dv.scaled(by: dt)
    return (v, acceleration(p, v))
  }

  /// One RK4 step of `solverDt`; returns the step's dv/dt (Pop's `_lastDv`).
  func integrate(_ s: inout (p: Value, v: Value)) -> Value {
    let h = Self.solverDt
    let a = (dp: s.v, dv: acceleration(s.p, s.v))
    let b = evaluate(s, h * 0.5, a)
    let c = evaluate(s, h * 0.5, b)
    let d = evaluate(s, h, c)
    let dpdt = (a.dp + (b.dp + c.dp).scaled(by: 2.0) + d.dp).scaled(by: 1.0 / 6.0)
    let dvdt = (a.dv + (b.dv + c.dv).scaled(by: 2.0) + d.dv).scaled(by: 1.0 / 6.0)
    s.p = s.p + dpdt.scaled(by: h)
    s.v = s.v + dvdt.scaled(by: h)
    return dvdt
  }
}
