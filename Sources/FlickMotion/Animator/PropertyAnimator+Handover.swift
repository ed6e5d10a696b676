extension PropertyAnimator {
  /// Where an animation of `property` added at scene time `t` starts: the value on screen at
  /// `t`, and the velocity it arrived with to carry (zero at rest, within the property's
  /// threshold) with the seconds over which that momentum fades.
  ///
  /// With a ``handoverBase`` (the animator runs in a scene) the value is the scene's with this
  /// animator's animations in it, and the velocity its left limit (``Handoff/onScreen(at:_:)``). The momentum fades over the animator's duration, or the time left to its end
  /// when that is shorter (as a template's `animator` does). Without a base, the value in this
  /// animator, at rest.
  func handover<Value: Animatable>(of property: AnimatableProperty<Root, Value>, at t: Double) -> (
    from: Value, excess: Value, blend: Double
  ) {
    guard let base = handoverBase else { return (property.read(sample(at: t)), .zero, 0) }
    func shown(_ time: Double) -> Value { property.read(base(time, self)) }
    let state = Handoff.onScreen(at: t, shown)
    let (from, velocity) = (state.value, state.velocity)
    let blend = min(duration, timeLeft(at: t))
    let speed = velocity.norm
    guard blend > 0, speed.isFinite, speed > property.threshold else { return (from, .zero, 0) }
    return (from, velocity, blend)
  }

  /// Seconds from `t` until the animator's current run reaches its end (the whole duration
  /// left when it is inactive or paused: what is left of the time fraction at the current speed).
  package func timeLeft(at t: Double) -> Double {
    switch current.motion {
    case .running: return max(0, remaining(current.motion) - max(0, t - current.start))
    case .held(let u, _): return (reversed ? u : 1 - u) * currentSeconds
    }
  }

  /// The momentum `excess` (units per second) carried into an animation, `age` seconds after it
  /// was added, as an offset of its value: `excess · T · x(1 − x)²` with `x = age / T` over the
  /// `blend` seconds `T` (``AnimatorCurve``'s hand-over): 0 with slope `excess` when added, 0
  /// with slope 0 from `T` on.
  static func fading<Value: Animatable>(_ excess: Value, over blend: Double, at age: Double) -> Value {
    guard blend > 0, age > 0, age < blend else { return .zero }
    let x = age / blend
    return excess.scaled(by: blend * x * (1 - x) * (1 - x))
  }
}
