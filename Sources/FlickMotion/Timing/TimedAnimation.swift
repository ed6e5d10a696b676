/// Any ``AnimationCurve`` placed on a parent timeline with ``MediaTiming`` (delay, speed, offset,
/// repeat, autoreverse, fill). It is itself an `AnimationCurve` over **parent** time: its
/// ``duration`` is the parent time at which it ends (`beginTime + active/speed`).
///
///     let wobble = TimedAnimation(
///       SpringAnimation(from: 0.0, to: 1), timing: MediaTiming(beginTime: 0.5, autoreverses: true))
///     wobble.value(at: 0.2)   // 0: not begun (fill forwards shows the start value anyway)
///
/// ``value(at:)`` always returns a value (the start value before the beginning, the final value
/// after the end); ``isApplied(at:)`` says whether the fill mode shows it.
public struct TimedAnimation<Base: AnimationCurve>: AnimationCurve {
  public typealias Value = Base.Value
  /// The animation in its own (local) time.
  public let base: Base
  /// The timing.
  public let timing: MediaTiming
  /// Parent time at which the active interval ends (`.infinity` for repeat-forever or speed 0).
  public let duration: Double

  public init(_ base: Base, timing: MediaTiming) {
    self.base = base
    self.timing = timing
    self.duration = timing.endTime(simpleDuration: base.duration)
  }

  /// Where `parentTime` falls (before, active in iteration k, after).
  public func phase(at parentTime: Double) -> MediaTiming.Phase {
    timing.phase(at: parentTime, simpleDuration: base.duration)
  }

  /// Whether the fill mode applies the animation at `parentTime`.
  public func isApplied(at parentTime: Double) -> Bool {
    switch phase(at: parentTime) {
    case .before: return timing.fillMode.fillsBackwards
    case .active: return true
    case .after: return timing.fillMode.fillsForwards
    }
  }

  public func value(at parentTime: Double) -> Value {
    switch phase(at: parentTime) {
    case .before:
      // Before the begin time (filled backwards) the state before the curve starts: a steps
      // curve that jumps at its start has not jumped yet (CSS's before flag).
      return base.value(before: startLocalTime)
    case .active(_, let u, let reversed):
      // Backwards in local time the right limit in parent time is the local left limit.
      return reversed ? base.value(before: u) : base.value(at: u)
    case .after(_, let u, _):
      return base.value(at: u)
    }
  }

  public func velocity(at parentTime: Double) -> Value {
    switch phase(at: parentTime) {
    case .before, .after: return .zero
    case .active(_, let u, let reversed):
      // Reversed, the local left limit: at the turn of an autoreversing animation (u at the
      // base's end) the base's velocity as it arrived, reversed; its right limit there is 0.
      return reversed
        ? base.velocity(before: u).scaled(by: -timing.speed) : base.velocity(at: u).scaled(by: timing.speed)
    }
  }

  /// The left limit at `parentTime`. At the begin time (and before) it is the state before the
  /// animation (start value, no velocity); at the end it is the base curve's left limit at its
  /// last local time (its real end velocity, with speed and direction); at a repeat boundary or
  /// the wrap of a `timeOffset`, the end of the previous iteration; past the end, the hold. The
  /// phase is the left one (``MediaTiming/phase(at:simpleDuration:leftLimit:)``), so a time
  /// written in decimals a few ulps off a boundary is on it.
  public func value(before parentTime: Double) -> Value {
    if parentTime <= timing.beginTime { return base.value(before: startLocalTime) }
    switch timing.phase(at: parentTime, simpleDuration: base.duration, leftLimit: true) {
    case .before: return base.value(before: startLocalTime)
    case .after(_, let u, _): return base.value(at: u)
    case .active(_, let u, let reversed):
      // Backwards in local time the left limit in parent time is the local right limit.
      return reversed ? base.value(at: u) : base.value(before: u)
    }
  }

  public func velocity(before parentTime: Double) -> Value {
    if parentTime <= timing.beginTime { return .zero }
    switch timing.phase(at: parentTime, simpleDuration: base.duration, leftLimit: true) {
    case .before, .after: return .zero
    case .active(_, let u, let reversed):
      return reversed
        ? base.velocity(at: u).scaled(by: -timing.speed) : base.velocity(before: u).scaled(by: timing.speed)
    }
  }

  /// The curve's local time at the very start of the active interval (non-zero with `timeOffset`).
  private var startLocalTime: Double {
    if case .active(_, let u, _) = timing.phase(at: timing.beginTime, simpleDuration: base.duration) {
      return u
    }
    return 0
  }
}

extension AnimationCurve {
  /// This curve with Core Animation timing.
  package func timed(_ timing: MediaTiming) -> TimedAnimation<Self> { TimedAnimation(self, timing: timing) }

  /// This curve starting `seconds` later on its parent timeline.
  package func delayed(by seconds: Double) -> TimedAnimation<Self> {
    TimedAnimation(self, timing: MediaTiming(beginTime: seconds))
  }
}
