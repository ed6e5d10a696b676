/// A damped spring from `fromValue` to `toValue`, solved in closed form (Pop's
/// `POPSpringAnimation`, Core Animation's `CASpringAnimation`, SwiftUI's `Spring`).
///
/// `value(at:)` and `velocity(at:)` are exact, pure functions of local time in double precision,
/// for under-, critically and over-damped springs, so a spring gives identical values at any
/// frame rate and can be sampled in any order. ``duration`` is the computed settling time: after
/// it the value is exactly `toValue` and the velocity zero (the spring snaps; the jump is at
/// most ``restThreshold``).
///
///     let s = SpringAnimation(from: 0.0, to: 100, velocity: 0, parameters: .popDefault)
///     s.value(at: 0.1)   // 61.67 (Pop's default spring)
public struct SpringAnimation<Value: Animatable>: AnimationCurve, Equatable {
  /// The value at local time 0.
  public let fromValue: Value
  /// The rest position.
  public let toValue: Value
  /// The velocity at local time 0, in value units per second.
  public let initialVelocity: Value
  /// Mass, stiffness and damping.
  public let parameters: SpringParameters
  /// Rest distance (Euclidean, value units): once the spring stays this close to `toValue` it has
  /// settled. The velocity threshold is `restThreshold · ω₀`.
  public let restThreshold: Double
  /// The settling time in seconds (see ``restThreshold``); `.infinity` for an undamped spring.
  public let duration: Double
  /// The closed-form solver (cached basis constants).
  @usableFromInline package let solver: SpringSolver

  /// A spring.
  ///
  /// - Parameters:
  ///   - fromValue: Start value.
  ///   - toValue: Target (rest) value.
  ///   - velocity: Initial velocity in value units per second (Pop's `velocity`).
  ///   - parameters: The spring's physics (default Core Animation's 1/100/10).
  ///   - restThreshold: Settling distance in value units; `nil` uses 0.1 % of the motion's scale
  ///     (max of |to − from| and |v₀|/ω₀), like SwiftUI's `settlingDuration` epsilon 0.001.
  ///     Pass the property's visibility threshold (½ pt, 1/255) for the tightest settle.
  public init(
    from fromValue: Value, to toValue: Value, velocity: Value = .zero,
    parameters: SpringParameters = .coreAnimation, restThreshold: Double? = nil
  ) {
    self.fromValue = fromValue
    self.toValue = toValue
    self.initialVelocity = velocity
    self.parameters = parameters
    let solver = SpringSolver(parameters)
    self.solver = solver
    let d0 = (fromValue - toValue).norm
    let v0 = velocity.norm
    let omega0 = solver.naturalFrequency
    let threshold = restThreshold.map { max($0, 0) } ?? 0.001 * max(d0, v0 / omega0)
    self.restThreshold = threshold
    self.duration =
      threshold > 0 || (d0 == 0 && v0 == 0)
      ? solver.settlingTime(
        displacement: d0, speed: v0, positionThreshold: threshold,
        velocityThreshold: threshold * omega0)
      : .infinity
  }

  /// A spring whose initial velocity is UIKit's distance-normalised velocity:
  /// `normalizedVelocity · (toValue − fromValue)` units per second (a 200 pt move with a
  /// 100 pt/s flick is 0.5).
  public init(
    from fromValue: Value, to toValue: Value, normalizedVelocity: Double,
    parameters: SpringParameters = .coreAnimation, restThreshold: Double? = nil
  ) {
    self.init(
      from: fromValue, to: toValue, velocity: (toValue - fromValue).scaled(by: normalizedVelocity),
      parameters: parameters, restThreshold: restThreshold)
  }

  @inlinable
  public func value(at t: Double) -> Value {
    if t >= duration { return toValue }
    if t <= 0 { return fromValue }
    let (a, b, _, _) = solver.basis(at: t)
    return toValue + (fromValue - toValue).scaled(by: a) + initialVelocity.scaled(by: b)
  }

  @inlinable
  public func velocity(at t: Double) -> Value {
    if t >= duration { return .zero }
    if t <= 0 { return initialVelocity }
    let (_, _, da, db) = solver.basis(at: t)
    return (fromValue - toValue).scaled(by: da) + initialVelocity.scaled(by: db)
  }

  /// The left limit: just before ``duration`` the spring is still moving (it snaps at `duration`),
  /// so this is the closed form at `t`, not the snapped target.
  public func value(before t: Double) -> Value {
    if t > duration { return toValue }
    if t <= 0 { return fromValue }
    let (a, b, _, _) = solver.basis(at: t)
    return toValue + (fromValue - toValue).scaled(by: a) + initialVelocity.scaled(by: b)
  }

  /// The left limit of the velocity: the closed form at `t ≤ duration` (at most the rest threshold · ω₀ at the end).
  public func velocity(before t: Double) -> Value {
    if t > duration { return .zero }
    if t <= 0 { return initialVelocity }
    let (_, _, da, db) = solver.basis(at: t)
    return (fromValue - toValue).scaled(by: da) + initialVelocity.scaled(by: db)
  }

  /// The same spring, started from the state this one has at `t`, heading to `newTarget`:
  /// position and velocity are continuous (C¹) across the change (Pop's live `toValue` change).
  public func retargeted(to newTarget: Value, at t: Double) -> SpringAnimation {
    SpringAnimation(
      from: value(at: t), to: newTarget, velocity: velocity(at: t), parameters: parameters,
      restThreshold: restThreshold)
  }
}
