extension BasicAnimation: AnimationCurve {
  /// The velocity at `time`, in value units per second: `(to − from) · curve′(time/duration) / duration`.
  ///
  /// Zero before the start and after the end; at a step of ``TimingFunction/steps(_:position:)`` it is zero too.
  public func velocity(at time: Double) -> Value {
    if duration <= 0 || time >= duration || time < 0 { return .zero }
    return (toValue - fromValue).scaled(by: timingFunction.slope(at: time / duration) / duration)
  }

  /// The left limit: at `duration` the tween's real end velocity, `(to − from) · curve′(1) / duration`.
  public func velocity(before time: Double) -> Value {
    if duration <= 0 || time > duration || time <= 0 { return .zero }
    return (toValue - fromValue).scaled(by: timingFunction.slope(at: time / duration) / duration)
  }

  /// The left limit: the curve's value approaching `time` from below (the end value at `duration`
  /// unless the timing curve jumps there, as `steps(n, jumpEnd)` does).
  public func value(before time: Double) -> Value {
    if duration <= 0 || time <= 0 { return fromValue }
    if time > duration { return toValue }
    return fromValue.interpolated(to: toValue, amount: timingFunction.progress(before: time / duration))
  }
}
