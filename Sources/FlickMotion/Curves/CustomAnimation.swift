/// An animation written as a closure (Pop's `POPCustomAnimation`): `step(time, elapsed)` returns the
/// value and whether to go on.
///
/// To stay frame-rate independent the animation does not stop "at the first frame that says
/// stop": the closure is probed on a fixed grid of `resolution` seconds (default 1 ms, Pop's
/// solver step) and ``duration`` is the first grid time at which it says stop — the same at any
/// frame rate. The value there is held. ``velocity(at:)`` is a central difference.
package struct CustomAnimation<Value: Animatable>: AnimationCurve {
  /// `(time, elapsed)` → (value, keep going). `time` is local seconds since the start; `elapsed`
  /// is the grid step (`resolution`) — Pop passes the frame's elapsed time.
  package typealias Step = @Sendable (_ time: Double, _ elapsed: Double) -> (value: Value, goOn: Bool)

  /// The closure.
  package let step: Step
  /// The probing grid, seconds.
  package let resolution: Double
  package let duration: Double

  /// - Parameters:
  ///   - resolution: Grid step in seconds (default 0.001).
  ///   - limit: Stop looking after this many seconds (default 60): the duration is then `limit`.
  package init(resolution: Double = 0.001, limit: Double = 60, _ step: @escaping Step) {
    let r = resolution.isFinite && resolution > 0 ? resolution : 0.001
    self.step = step
    self.resolution = r
    var n = 0
    let maxSteps = Int((max(limit, 0) / r).rounded(.up))
    while n < maxSteps, step(Double(n) * r, r).goOn { n += 1 }
    duration = Double(n) * r
  }

  package func value(at t: Double) -> Value { step(min(max(t, 0), duration), resolution).value }

  package func velocity(at t: Double) -> Value {
    if t < 0 || t >= duration { return .zero }
    let h = min(resolution / 10, 1e-4)
    let a = max(t - h, 0)
    let b = min(t + h, duration)
    guard b > a else { return .zero }
    return (value(at: b) - value(at: a)).scaled(by: 1 / (b - a))
  }
}
