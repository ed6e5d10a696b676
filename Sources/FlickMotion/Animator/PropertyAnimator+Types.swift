extension PropertyAnimator {
  /// `UIViewAnimatingState`.
  public enum State: String, Sendable, Hashable, CaseIterable {
    /// Not started, or finished: control calls set it up.
    case inactive
    /// Started or paused (or scrubbed): running or ready to run.
    case active
    /// Stopped without finishing: only ``PropertyAnimator/finishAnimation(to:at:)`` is legal.
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

    /// The progress curve that takes over at progress `p0` moving at `v0` (progress/s) and heads
    /// for `target` (1, or 0 reversed), reaching it `seconds` later: value and velocity are
    /// continuous at the join (``PropertyAnimator/continueAnimation(withTimingParameters:durationFactor:at:)``).
    ///
    /// - cubic: a ``ContinuingTween``: the timing curve with its first control point bent so it
    ///   starts at exactly `v0`; it ends at `target` at `seconds` and, for a curve with control
    ///   points in 0…1 (linear and the named curves) and `v0` toward the target, it is monotone:
    ///   it never passes the target however fast the progress came in;
    /// - `spring(dampingRatio:)`: a spring with that damping ratio tuned (as at init) to settle a
    ///   unit move in `seconds`, starting at `v0` plus its own normalised `initialVelocity`;
    /// - `springPhysics`: the given spring from (`p0`, `v0` + normalised `initialVelocity`).
    ///
    /// A spring that has not settled when the time is up snaps to `target` then, as the
    /// animator ends (UIKit's spring animators also end at their duration).
    package func takeover(from p0: Double, velocity v0: Double, to target: Double, seconds: Double)
      -> AnyAnimationCurve<Double>
    {
      let seconds = seconds.isFinite ? max(seconds, 0) : 0
      switch self {
      case .cubic(let f):
        return AnyAnimationCurve(
          ContinuingTween(
            BasicAnimation(from: p0, to: target, duration: seconds, timingFunction: f), initialVelocity: v0))
      case .spring(let zeta, let vn):
        let p = Self.calibrated(dampingRatio: zeta, normalizedVelocity: vn, duration: seconds)
        return AnyAnimationCurve(
          SpringAnimation(from: p0, to: target, velocity: v0 + vn * (target - p0), parameters: p, restThreshold: 0.001))
      case .springPhysics(let p, let vn):
        return AnyAnimationCurve(
          SpringAnimation(from: p0, to: target, velocity: v0 + vn * (target - p0), parameters: p, restThreshold: 0.001))
      }
    }

    /// `UISpringTimingParameters(dampingRatio:)` for an animator of `duration` seconds: the
    /// spring with damping ratio ζ whose unit move (with normalised velocity `v`) settles then.
    static func calibrated(dampingRatio zeta: Double, normalizedVelocity v: Double, duration: Double)
      -> SpringParameters
    {
      // Settling time scales as 1/ω₀ for a fixed ζ and normalised velocity: solve with ω₀ = 1.
      let unit = SpringParameters(response: 2 * .pi, dampingRatio: max(zeta, 0.01))
      let settle = SpringAnimation(from: 0.0, to: 1, velocity: v, parameters: unit, restThreshold: 0.001).duration
      let omega = max(settle, 1e-9) / max(duration, 1e-9)
      return SpringParameters(response: 2 * .pi / omega, dampingRatio: max(zeta, 0.01))
    }

    /// The progress curve over the time fraction `u ∈ 0…1` of an animator lasting `duration` seconds.
    func curve(duration: Double) -> ProgressCurve {
      switch self {
      case .cubic(let f): return ProgressCurve(kind: .cubic(f))
      case .spring(let zeta, let v):
        let p = Self.calibrated(dampingRatio: zeta, normalizedVelocity: v, duration: duration)
        return ProgressCurve(
          kind: .spring(SpringAnimation(from: 0.0, to: 1, velocity: v, parameters: p, restThreshold: 0.001)),
          duration: duration)
      case .springPhysics(let p, let v):
        return ProgressCurve(
          kind: .spring(SpringAnimation(from: 0.0, to: 1, velocity: v, parameters: p, restThreshold: 0.001)),
          duration: duration)
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

    /// d(progress)/du.
    func slope(_ u: Double) -> Double {
      guard u >= 0, u <= 1 else { return 0 }
      switch kind {
      case .cubic(let f): return f.slope(at: u)
      case .spring(let s): return u >= 1 ? 0 : s.velocity(at: u * duration) * duration
      }
    }

    /// The left limit of ``progress(_:)`` at `u` coming from below: at 1, the spring's progress
    /// arriving there (it has not quite settled; the curve snaps to 1 at 1 itself).
    func progress(arriving u: Double) -> Double {
      if case .spring(let s) = kind, u >= 1 { return s.value(before: duration) }
      return progress(u)
    }

    /// The left limit of ``slope(_:)`` at `u` coming from below: at 1, the slope arriving there
    /// (a cubic's end slope; a spring's velocity at the end of its time).
    func slope(arriving u: Double) -> Double {
      if case .spring(let s) = kind, u >= 1 { return s.velocity(before: duration) * duration }
      return slope(min(u, 1))
    }
  }

  /// One control call as a value (UIKit's `UIViewPropertyAnimator` methods), so a script — a
  /// template's `events`, a test, a replay — goes through exactly the rules the Swift methods
  /// apply (see the state table on ``PropertyAnimator``).
  public enum Command: Sendable, Hashable {
    /// ``PropertyAnimator/startAnimation(at:)``.
    case start
    /// ``PropertyAnimator/startAnimation(afterDelay:at:)``, seconds.
    case startAfterDelay(Double)
    /// ``PropertyAnimator/pauseAnimation(at:)``.
    case pause
    /// ``PropertyAnimator/setFractionComplete(_:at:)`` (0…1).
    case setFractionComplete(Double)
    /// ``PropertyAnimator/setReversed(_:at:)``.
    case setReversed(Bool)
    /// ``PropertyAnimator/stopAnimation(withoutFinishing:at:)``.
    case stop(withoutFinishing: Bool)
    /// ``PropertyAnimator/finishAnimation(to:at:)``.
    case finish(at: Position)
    /// ``PropertyAnimator/continueAnimation(withTimingParameters:durationFactor:at:)``.
    case continueAnimation(TimingParameters?, durationFactor: Double)
  }

  /// What a legal control call did.
  public enum Outcome: Sendable, Hashable {
    /// It changed the animator.
    case applied
    /// UIKit ignores it in this state (reverse on a stopped animator, start while running, pause
    /// while paused, reversing to the direction it already has); the reason says why.
    case ignored(String)
  }

  /// Applies one control call at scene time `t` with UIKit's rules: the same code the Swift
  /// methods run. Illegal calls throw ``AnimatorError``; calls UIKit ignores return
  /// ``Outcome/ignored(_:)`` (templates can warn, never fail, on those).
  @discardableResult
  public mutating func apply(_ command: Command, at t: Double) throws(AnimatorError) -> Outcome {
    let inOrder = t.isFinite && MediaTiming.hasReached(lastTime, at: t)
    let state = inOrder ? self.state(at: t) : .inactive
    let running = inOrder ? isRunning(at: t) : false
    switch command {
    case .start:
      if state == .active && running {
        try startAnimation(at: t)
        return .ignored("the animator is already running")
      }
      try startAnimation(at: t)
    case .startAfterDelay(let delay): try startAnimation(afterDelay: delay, at: t)
    case .pause:
      if state == .active && !running {
        try pauseAnimation(at: t)
        return .ignored("the animator is already paused")
      }
      try pauseAnimation(at: t)
    case .setFractionComplete(let f): try setFractionComplete(f, at: t)
    case .setReversed(let value):
      let wasStopped = state == .stopped
      let same = value == reversed
      try setReversed(value, at: t)
      if wasStopped { return .ignored("a stopped animator ignores isReversed (UIKit); only finish applies") }
      if same { return .ignored("the animator is already \(value ? "reversed" : "running forwards")") }
    case .stop(let withoutFinishing): try stopAnimation(withoutFinishing: withoutFinishing, at: t)
    case .finish(let position): try finishAnimation(to: position, at: t)
    case .continueAnimation(let parameters, let factor):
      try continueAnimation(withTimingParameters: parameters, durationFactor: factor, at: t)
    }
    return .applied
  }
}

/// A scrub still moving an animator when a `continue` takes over (per second): its progress rate
/// and its time-fraction rate.
package struct ScrubMotion: Sendable, Hashable {
  package var progressRate: Double
  package var fractionRate: Double
  package init(progressRate: Double, fractionRate: Double) {
    self.progressRate = progressRate
    self.fractionRate = fractionRate
  }
}

/// A curve read `shift` seconds later (a running takeover re-anchored at a later control call).
struct ShiftedCurve: AnimationCurve {
  let base: AnyAnimationCurve<Double>
  let shift: Double
  var duration: Double { max(0, base.duration - shift) }
  func value(at t: Double) -> Double { base.value(at: t + shift) }
  func velocity(at t: Double) -> Double { base.velocity(at: t + shift) }
  func value(before t: Double) -> Double { base.value(before: t + shift) }
  func velocity(before t: Double) -> Double { base.velocity(before: t + shift) }
  func turns(after t: Double) -> CurveTurns { base.turns(after: t + shift).mapped(origin: -shift, scale: 1) }
  func turns(before t: Double) -> CurveTurns { base.turns(before: t + shift).mapped(origin: -shift, scale: 1) }
}
