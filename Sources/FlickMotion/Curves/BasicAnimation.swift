/// A tween: interpolates from `fromValue` to `toValue` over `duration` along a timing curve (Pop's
/// `POPBasicAnimation`, Core Animation's `CABasicAnimation`).
///
/// It is a pure function of local time, so any instant can be sampled in any order.
public struct BasicAnimation<Value: Animatable>: Sendable, Equatable {
  /// The value at local time 0.
  public var fromValue: Value
  /// The value at local time `duration` and after.
  public var toValue: Value
  /// Length in seconds (≥ 0). Pop's default is 0.4 s.
  public var duration: Double
  /// The easing curve; Pop and Core Animation default to ``TimingFunction/default``.
  public var timingFunction: TimingFunction

  public init(
    from fromValue: Value, to toValue: Value, duration: Double = 0.4,
    timingFunction: TimingFunction = .default
  ) {
    self.fromValue = fromValue
    self.toValue = toValue
    self.duration = max(0, duration)
    self.timingFunction = timingFunction
  }

  /// The value at `time` seconds after the start; held at the ends outside `0…duration`.
  public func value(at time: Double) -> Value {
    if duration <= 0 || time >= duration { return toValue }
    if time < 0 { return fromValue }
    // At 0 only a steps curve that jumps at its start has moved (``TimingFunction/progress(at:)``).
    let progress = timingFunction.progress(at: time / duration)
    if time == 0 && progress == 0 { return fromValue }
    return fromValue.interpolated(to: toValue, amount: progress)
  }
}
