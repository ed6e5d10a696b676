extension BasicAnimation: AnimationCurve {
  /// The velocity at `time`, in value units per second: `(to − from) · curve′(time/duration) / duration`.
  ///
  /// Zero before the start and after the end; at a step of ``TimingFunction/steps(_:position:)`` it is zero too.
  public func velocity(at time: Double) -> Value {
    if duration <= 0 || time >= duration || time < 0 { return .zero }
    return (toValue - fromValue).scaled(by: timingFunction.slope(at: time / duration) / duration)
  }
}
