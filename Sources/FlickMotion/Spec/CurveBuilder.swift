/// The one place a motion spec becomes a curve: templates, `flick curve`, the Swift spec path
/// (``AnimationSpec/curve(from:to:)-(V,V)``) and the animator conveniences build every curve
/// here, from a typed ``AnimationSpec`` and a hand-over (the value and velocity the property has
/// when the new motion starts).
///
///     let curve = try CurveBuilder(
///       spec: try AnimationSpec(parsing: "easeOut(duration: 0.3)"),
///       from: Handoff(value: 120.0, velocity: 800, time: 1.2), to: 300, threshold: 0.5
///     ).curve()
///
/// **What a new timing does with the incoming velocity** (``HandoverRule``, written once here):
/// - a spring takes it as its initial velocity, unless the spec gives one (`velocity`,
///   `normalizedVelocity`): the spring starts exactly at the hand-over's value and velocity;
/// - a decay takes it, scaled so that the decay's own start velocity equals it (Pop's closed form
///   starts at `−d·ln d/(1 − d)` of its parameter, 0.999 for d = 0.998), unless the spec gives
///   one: C¹ at a release;
/// - a spin takes it as the speed it eases from (``SpinCurve``), unless a velocity is stated;
/// - a tween continues it: over a moving value (speed above ``threshold`` units/s) it starts
///   with that velocity, keeps its end value and ends with the curve's own end velocity
///   (``ContinuingTween``); from rest, or when it loops (repeats or autoreverses), it is the
///   timing curve itself;
/// - keyframes, a constant and a scripted drag start from their own first value and velocity
///   (their motion is written out in full);
/// - a property animator's timing follows UIKit's rules instead
///   (``AnimationSpec/animatorTiming(for:)``, ``PropertyAnimator``).
///
/// **When the hand-over is read**: at the motion's start, or, for a spec with its own `delay`, when
/// its curve starts (``AnimationSpec/handover(at:)``), so the property goes on moving through the
/// delay.
///
/// Thresholds: a spec's own `threshold` wins (``AnimationSpec/Written/threshold``); otherwise
/// the property's ``threshold`` (its visibility threshold); otherwise the curve's own default.
package struct CurveBuilder<Value: Animatable>: Sendable {
  /// What each family does with the velocity it is handed.
  package enum HandoverRule: Sendable, Hashable {
    /// The new motion starts with the incoming velocity (springs, decays).
    case takesVelocity
    /// The new motion starts with the incoming velocity and bends into its own curve
    /// (``ContinuingTween``): tweens.
    case continuesVelocity
    /// The new motion is written out in full and starts with its own velocity (keyframes,
    /// constants, drags).
    case ownMotion
  }

  /// The motion.
  package var spec: AnimationSpec
  /// The property's state when the motion starts (value, velocity in units/s, scene time).
  package var handoff: Handoff<Value>
  /// The end value; nil for a decay (which finds its own end).
  package var target: Value?
  /// A velocity stated as a value (a template's `velocity: [vx, vy]`), units/s: wins over the
  /// spec's and the hand-over's.
  package var velocity: Value?
  /// The property's visibility threshold in value units (½ pt, 1/255, …), when there is one.
  package var threshold: Double?
  /// A duration that overrides the spec's (a template's `duration` key), seconds.
  package var duration: Double?
  /// Core Animation timing the caller wraps the curve in itself (a template's timing keys); the
  /// spec's own when nil. A tween that repeats or autoreverses is a loop whose iterations are all
  /// the same: it starts as its timing curve and carries no incoming velocity.
  package var timing: MediaTiming?

  package init(
    spec: AnimationSpec, from handoff: Handoff<Value>, to target: Value?, velocity: Value? = nil,
    threshold: Double? = nil, duration: Double? = nil, timing: MediaTiming? = nil
  ) {
    self.spec = spec
    self.handoff = handoff
    self.target = target
    self.velocity = velocity
    self.threshold = threshold
    self.duration = duration
    self.timing = timing
  }

  /// The rule for `kind` (see the type's documentation).
  package static func rule(for kind: AnimationSpec.Kind) -> HandoverRule {
    switch kind {
    case .spring, .decay, .spin: .takesVelocity
    case .tween: .continuesVelocity
    case .keyframes, .constant, .drag: .ownMotion
    }
  }

  /// The curve, with the spec's Core Animation timing when it has some (then in parent time).
  package func curve() throws(MotionError) -> AnyAnimationCurve<Value> {
    let base = try untimedCurve()
    guard let timing = spec.timing else { return base }
    return AnyAnimationCurve(TimedAnimation(base, timing: timing))
  }

  /// The curve in local time, without the spec's timing (for callers that wrap it first, as a
  /// colour space does, and apply timing last).
  ///
  /// The curve runs in its own time, which the timing's `speed` scales (``TimedAnimation``
  /// multiplies a local velocity by it), so the hand-over's velocity, in parent units/s, enters
  /// divided by that speed: the motion leaves the join with exactly the velocity it was handed.
  package func untimedCurve() throws(MotionError) -> AnyAnimationCurve<Value> {
    var local = self
    local.handoff = localHandoff
    return try local.curveInLocalTime()
  }

  /// The hand-over in the curve's local time: its velocity divided by the timing's speed.
  private var localHandoff: Handoff<Value> {
    guard let speed = (timing ?? spec.timing)?.speed, speed > 0, speed != 1 else { return handoff }
    return Handoff(value: handoff.value, velocity: handoff.velocity.scaled(by: 1 / speed), time: handoff.time)
  }

  private func curveInLocalTime() throws(MotionError) -> AnyAnimationCurve<Value> {
    let from = handoff.value
    switch spec.kind {
    case .spring(let parameters, let speed, let normalized, let restThreshold):
      let to = try end()
      let v = try startVelocity { () throws(MotionError) in
        try springVelocity(to: to, speed: speed, normalized: normalized)
      }
      return Self.spring(
        from: Handoff(value: from, velocity: v, time: handoff.time), to: to, parameters: parameters,
        threshold: restThreshold ?? threshold, stepping: spec.stepping)
    case .decay(let speed, let deceleration, let decayThreshold, let bounds):
      let stated: Value? = if let velocity { velocity } else { try statedDecayVelocity(speed: speed) }
      let rest = spec.written.contains(.threshold) ? decayThreshold : threshold ?? decayThreshold
      guard let bounds else {
        return Self.decay(from: handoff, velocity: stated, deceleration: deceleration, threshold: rest)
      }
      let v = stated ?? Self.decayVelocity(handedOver: handoff.velocity, deceleration: deceleration)
      guard let start = from as? Double, let scalar = v as? Double else {
        throw Self.boundsError
      }
      let band = RubberBandDecay(
        from: start, velocity: scalar, bounds: bounds, deceleration: deceleration, threshold: rest)
      guard let erased = AnyAnimationCurve(band) as? AnyAnimationCurve<Value> else { throw Self.boundsError }
      return erased
    case .tween(let f, let specDuration):
      let handed = Handoff(value: from, velocity: velocity ?? handoff.velocity, time: handoff.time)
      return Self.tween(
        from: handed, to: try end(), duration: duration ?? specDuration, timingFunction: f, threshold: threshold,
        loops: (timing ?? spec.timing).map(Self.loops) ?? false)
    case .keyframes(let fractions, let keyTimes, let curves, let mode, let specDuration):
      let to = try end()
      return AnyAnimationCurve(
        try KeyframeAnimation(
          values: fractions.map { from.interpolated(to: to, amount: $0) }, keyTimes: keyTimes,
          timingFunctions: curves, calculationMode: mode, duration: duration ?? specDuration))
    case .constant(let fraction):
      return AnyAnimationCurve(ConstantCurve(value: from.interpolated(to: try end(), amount: fraction)))
    case .drag(let fractions, let curve, let specDuration):
      let to = try end()
      return AnyAnimationCurve(
        try DragCurve(
          points: fractions.map { from.interpolated(to: to, amount: $0) }, duration: duration ?? specDuration,
          timing: curve))
    case .spin(let speed, let curve, let specDuration):
      return try Self.spin(
        from: Handoff(value: from, velocity: velocity ?? handoff.velocity, time: handoff.time), to: speed,
        duration: duration ?? specDuration, curve: curve)
    }
  }

  // MARK: - Rules

  // The rules per family, also called directly by the Swift conveniences that have typed
  // parameters instead of a spec (``Animator``, ``AnimatorSchedule``, ``ChainGroup``, and
  // FlickScene's `LayerMotion` behind the Pop-style and GPUAnimation-style APIs).

  /// The spring rule: a spring from the hand-over's value, starting with its velocity, to
  /// `target`, resting within `threshold` value units (the spring's own default when nil; 0.01
  /// for an engine's stepping); ``Stepping/analytic`` is the closed form, any other stepping
  /// the engine's integrator (``SteppedSpring``).
  package static func spring(
    from handoff: Handoff<Value>, to target: Value, parameters: SpringParameters, threshold: Double?,
    stepping: Stepping = .analytic
  ) -> AnyAnimationCurve<Value> {
    guard stepping == .analytic else {
      return AnyAnimationCurve(
        SteppedSpring(
          from: handoff.value, to: target, velocity: handoff.velocity, parameters: parameters,
          threshold: threshold ?? 0.01, stepping: stepping))
    }
    return AnyAnimationCurve(
      SpringAnimation(
        from: handoff.value, to: target, velocity: handoff.velocity, parameters: parameters, restThreshold: threshold))
  }

  /// The decay rule: a decay from the hand-over's value with the `velocity` stated (units/s,
  /// used as written: Pop's parameter) or, when nil, the hand-over's, scaled so the decay
  /// starts moving at exactly it (``decayVelocity(handedOver:deceleration:)``); it ends when
  /// its speed is below 5 × `threshold`.
  package static func decay(
    from handoff: Handoff<Value>, velocity stated: Value?, deceleration: Double, threshold: Double
  ) -> AnyAnimationCurve<Value> {
    let v = stated ?? decayVelocity(handedOver: handoff.velocity, deceleration: deceleration)
    return AnyAnimationCurve(
      DecayAnimation(from: handoff.value, velocity: v, deceleration: deceleration, threshold: threshold))
  }

  /// The tween rule: a tween from `handoff.value` to `target` over `duration` seconds (a
  /// duration that is not finite is ``MotionDefaults/tweenDuration``, a negative one 0) that
  /// continues `handoff.velocity` (``ContinuingTween``) when its speed is above `threshold`
  /// units/s and the tween does not loop; otherwise the timing curve itself.
  package static func tween(
    from handoff: Handoff<Value>, to target: Value, duration: Double, timingFunction: TimingFunction,
    threshold: Double?, loops: Bool = false
  ) -> AnyAnimationCurve<Value> {
    let duration = duration.isFinite ? max(duration, 0) : MotionDefaults.tweenDuration
    let tween = BasicAnimation(from: handoff.value, to: target, duration: duration, timingFunction: timingFunction)
    let rest = threshold ?? 0
    guard handoff.velocity.norm > rest, !loops else { return AnyAnimationCurve(tween) }
    return AnyAnimationCurve(ContinuingTween(tween, initialVelocity: handoff.velocity))
  }

  /// The spin rule: from the hand-over's value, the speed eases from the hand-over's velocity to
  /// `speed` units/s along `curve` over `duration` seconds, then holds (``SpinCurve``); number
  /// values only (a speed is a number).
  package static func spin(
    from handoff: Handoff<Value>, to speed: Double, duration: Double, curve: TimingFunction
  ) throws(MotionError) -> AnyAnimationCurve<Value> {
    // Made only when thrown: spelling out the type's name costs more than building the curve.
    func notANumber() -> MotionError {
      MotionError(
        "a spin turns a number property (rotation, …) at a speed in units/s, not \(quoted: Value.self)",
        argument: "to")
    }
    guard let start = handoff.value as? Double, let v0 = handoff.velocity as? Double else { throw notANumber() }
    let spin = try SpinCurve(
      from: start, initialVelocity: v0, targetVelocity: speed, timing: curve, rampDuration: duration)
    guard let erased = AnyAnimationCurve(spin) as? AnyAnimationCurve<Value> else { throw notANumber() }
    return erased
  }

  /// The decay rule: the velocity to give ``DecayAnimation`` so that it starts moving at exactly
  /// `velocity` (Pop's closed form starts at `−d·ln d/(1 − d)` of its parameter).
  package static func decayVelocity(handedOver velocity: Value, deceleration: Double) -> Value {
    let probe = DecayAnimation(from: 0.0, velocity: 1e6, deceleration: deceleration, threshold: 1)
    let unit = probe.velocity(at: 0) / 1e6
    return unit > 0 ? velocity.scaled(by: 1 / unit) : velocity
  }

  /// The stated ``velocity``, or `otherwise`'s.
  private func startVelocity(_ otherwise: () throws(MotionError) -> Value) throws(MotionError) -> Value {
    if let velocity { return velocity }
    return try otherwise()
  }

  /// A spring's initial velocity: the spec's (normalised by the distance, or a speed along the
  /// motion) when it gives one, else the hand-over's.
  private func springVelocity(to: Value, speed: Double, normalized: Double?) throws(MotionError) -> Value {
    guard spec.written.contains(.velocity) else { return handoff.velocity }
    if let normalized { return (to - handoff.value).scaled(by: normalized) }
    return try along(to, speed)
  }

  /// A decay's stated initial velocity: the spec's speed (as given for a number, or along the
  /// motion toward ``target``); nil when the spec gives none (the decay takes the hand-over's).
  private func statedDecayVelocity(speed: Double) throws(MotionError) -> Value? {
    guard spec.written.contains(.velocity) else { return nil }
    if let target { return try along(target, speed) }
    if let scalar = speed as? Value { return scalar }
    throw MotionError(
      "a decay with a speed on a value that is not a number needs an end value for its direction (or a velocity "
        + "value)", argument: "velocity")
  }

  /// A velocity of magnitude `speed` along the motion from the hand-over's value to `to` (for a
  /// number that does not move, `speed` as given).
  private func along(_ to: Value, _ speed: Double) throws(MotionError) -> Value {
    let delta = to - handoff.value
    let length = delta.norm
    guard length.isFinite else {
      throw MotionError(
        "the end value is too far from the start value to take a direction from (their difference is not a finite "
          + "number); give the velocity as a value", argument: "velocity")
    }
    if length > 0 { return delta.scaled(by: speed / length) }
    if let scalar = speed as? Value { return scalar }
    throw MotionError(
      "a scalar velocity needs a direction: the end value equals the start value; give the velocity as a value",
      argument: "velocity")
  }

  /// Whether `timing` plays the curve more than once (repeats or autoreverses).
  private static func loops(_ timing: MediaTiming) -> Bool {
    timing.repeatForever || timing.repeatCount > 1 || timing.repeatDuration > 0 || timing.autoreverses
  }

  private func end() throws(MotionError) -> Value {
    guard let target else {
      throw MotionError("\(quoted: spec.kind.noun) needs an end value", argument: "to")
    }
    return target
  }

  private static var boundsError: MotionError {
    MotionError(
      "decay bounds (min/max) apply to number properties (use positionX/positionY for a rubber band), not "
        + "\(quoted: Value.self)", argument: "min")
  }
}

extension AnimationSpec.Kind {
  /// What the motion is called in messages ("a spring", "keyframes given as fractions", …).
  package var noun: String {
    switch self {
    case .spring: "a spring"
    case .decay: "a decay"
    case .tween: "a tween"
    case .keyframes: "keyframes given as fractions"
    case .constant: "a constant"
    case .drag: "a drag given as fractions"
    case .spin: "a spin"
    }
  }

  /// Whether the motion needs an end value (every kind but a decay and a spin, which end at a speed).
  package var needsTarget: Bool {
    switch self {
    case .decay, .spin: false
    default: true
    }
  }
}
