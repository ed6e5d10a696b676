extension PropertyAnimator {
  /// `UIViewAnimatingState`.
  public enum State: String, Sendable, Hashable, CaseIterable {
    /// Not started, or finished: control calls set it up.
    case inactive
    /// Started or paused (or scrubbed): running or ready to run.
    case active
    /// Stopped without finishing: only ``PropertyAnimator/finishAnimation(at:time:)`` is legal.
    case stopped
  }

  /// `UIViewAnimatingPosition`: where the animated properties end up.
  public enum Position: String, Sendable, Hashable, CaseIterable {
    case end, start, current
  }

  /// The animator's timing curve (`UITimingCurveProvider`): cubic or spring.
  public enum TimingParameters: Sendable, Hashable {
    /// `UICubicTimingParameters`.
    case cubic(TimingFunction)
    /// `UISpringTimingParameters(dampingRatio:initialVelocity:)`: a spring with this damping
    /// ratio whose settling time is the animator's duration; `initialVelocity` is UIKit's
    /// distance-normalised velocity (fraction of the distance per second).
    case spring(dampingRatio: Double, initialVelocity: Double)
    /// `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`: the physics decide
    /// the speed; the progress is the spring's, sampled at `u × duration`.
    case springPhysics(SpringParameters, initialVelocity: Double)

    /// The progress curve over the time fraction `u ∈ 0…1` of an animator lasting `duration` seconds.
    func curve(duration: Double) -> ProgressCurve {
      switch self {
      case .cubic(let f): return ProgressCurve(kind: .cubic(f))
      case .spring(let zeta, let v):
        // Settling time scales as 1/ω₀ for a fixed ζ and normalised velocity: solve with ω₀ = 1.
        let unit = SpringParameters(response: 2 * .pi, dampingRatio: max(zeta, 0.01))
        let settle = SpringAnimation(from: 0.0, to: 1, velocity: v, parameters: unit, restThreshold: 0.001).duration
        let omega = max(settle, 1e-9) / max(duration, 1e-9)
        let p = SpringParameters(response: 2 * .pi / omega, dampingRatio: max(zeta, 0.01))
        return ProgressCurve(kind: .spring(SpringAnimation(from: 0.0, to: 1, velocity: v, parameters: p, restThreshold: 0.001)), duration: duration)
      case .springPhysics(let p, let v):
        return ProgressCurve(kind: .spring(SpringAnimation(from: 0.0, to: 1, velocity: v, parameters: p, restThreshold: 0.001)), duration: duration)
      }
    }
  }

  /// Progress (0 → 1, may overshoot for springs) as a function of the time fraction.
  struct ProgressCurve: Sendable {
    enum Kind: Sendable {
      case cubic(TimingFunction)
      case spring(SpringAnimation<Double>)
    }
    var kind: Kind
    var duration: Double = 1

    func progress(_ u: Double) -> Double {
      let u = min(max(u, 0), 1)
      switch kind {
      case .cubic(let f): return f.progress(at: u)
      case .spring(let s): return u >= 1 ? 1 : s.value(at: u * duration)
      }
    }
  }
}
