/// An animation's completion, as a completion-driven scheduler sees it.
public struct AnimatorCompletion: Sendable, Hashable {
  /// The exact (analytic) scene time it completed: its natural end, or when it was replaced or removed.
  public var time: Double
  /// Its key.
  public var key: AnimationKey
  /// Its id (as in ``AnimatorEvent``).
  public var animationID: Int
  /// True when it ran to its end; false when replaced or removed.
  public var finished: Bool
}

/// What a completion handler (``Animator/add(_:property:timing:at:onChange:onComplete:whenCompleted:_:)``)
/// may do: add and remove animations at or after the completion's exact time. This is how the
/// next card swap is added from the completion block of the previous one: the animator replays
/// the handler when its replay reaches the completion, so the new animation starts at the exact
/// completion time (not at the next frame), the timeline stays a pure function of time (any
/// frame, any order) and nothing has to mutate the animator from inside an `@Sendable` closure.
///
/// Handlers must be deterministic (the replay may run them again). A chain of handlers that
/// never ends (a loop) is replayed up to ``Animator/continuationHorizon`` seconds and at most
/// ``Animator/continuationLimit`` scheduled calls (both settable); ``Animator/continuationsWereTruncated`` says
/// when a limit was hit.
public struct AnimatorSchedule<Root: Sendable>: Sendable {
  /// The completion being handled.
  public let completion: AnimatorCompletion
  /// The completion's exact time, seconds (the default time of what is scheduled).
  public var time: Double { completion.time }
  var commands: [(time: Double, command: Animator<Root>.Command)] = []

  init(completion: AnimatorCompletion) { self.completion = completion }

  /// Adds an animation for `key`, built from the key's hand-over state at `time` (default: the
  /// completion time; earlier times are taken as the completion time). It may have its own
  /// completion handler (`whenCompleted`), so a loop schedules itself.
  public mutating func add<Value: Animatable, Curve: AnimationCurve<Value>>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, timing: MediaTiming = MediaTiming(),
    at time: Double? = nil, onChange: (@Sendable (Value, Value) -> Void)? = nil,
    onComplete: (@Sendable (Bool) -> Void)? = nil,
    whenCompleted: (@Sendable (AnimatorCompletion, inout AnimatorSchedule<Root>) -> Void)? = nil,
    _ make: @escaping @Sendable (Handoff<Value>) -> Curve
  ) {
    let erased: @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value> = { h in AnyAnimationCurve(make(h)) }
    let request = _AddRequest<Root, Value>(
      key: key, property: property, timing: timing, make: erased, onChange: onChange, onComplete: onComplete,
      continuation: whenCompleted)
    commands.append((max(time ?? self.time, self.time), .add(request, onAdded: -1)))
  }

  // spring, tween and decay: as on ``Animator`` (same names, order and defaults), at `time`
  // (default: the completion time), with an optional completion handler of their own.

  /// Springs `key` to `target` from its current value and velocity (as
  /// ``Animator/spring(_:property:to:parameters:at:onChange:onComplete:)``).
  public mutating func spring<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, to target: Value,
    parameters: SpringParameters = MotionDefaults.spring, at time: Double? = nil,
    onChange: (@Sendable (Value, Value) -> Void)? = nil, onComplete: (@Sendable (Bool) -> Void)? = nil,
    whenCompleted: (@Sendable (AnimatorCompletion, inout AnimatorSchedule<Root>) -> Void)? = nil
  ) {
    add(
      key, property: property, at: time, onChange: onChange, onComplete: onComplete, whenCompleted: whenCompleted,
      { [threshold = property.threshold] h in
        CurveBuilder.spring(from: h, to: target, parameters: parameters, threshold: threshold)
      })
  }

  /// Tweens `key` to `target` (as ``Animator/tween(_:property:to:duration:timingFunction:at:onChange:onComplete:)``).
  public mutating func tween<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, to target: Value,
    duration: Double = MotionDefaults.tweenDuration, timingFunction: TimingFunction = MotionDefaults.tweenCurve,
    at time: Double? = nil, onChange: (@Sendable (Value, Value) -> Void)? = nil,
    onComplete: (@Sendable (Bool) -> Void)? = nil,
    whenCompleted: (@Sendable (AnimatorCompletion, inout AnimatorSchedule<Root>) -> Void)? = nil
  ) {
    add(
      key, property: property, at: time, onChange: onChange, onComplete: onComplete, whenCompleted: whenCompleted,
      { [threshold = property.threshold] h in
        CurveBuilder.tween(
          from: h, to: target, duration: duration, timingFunction: timingFunction, threshold: threshold)
      })
  }

  /// Lets `key` coast (as ``Animator/decay(_:property:velocity:deceleration:at:onChange:onComplete:)``).
  public mutating func decay<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, velocity: Value? = nil,
    deceleration: Double = MotionDefaults.decayDeceleration, at time: Double? = nil,
    onChange: (@Sendable (Value, Value) -> Void)? = nil, onComplete: (@Sendable (Bool) -> Void)? = nil,
    whenCompleted: (@Sendable (AnimatorCompletion, inout AnimatorSchedule<Root>) -> Void)? = nil
  ) {
    add(
      key, property: property, at: time, onChange: onChange, onComplete: onComplete, whenCompleted: whenCompleted,
      { [threshold = property.threshold] h in
        CurveBuilder.decay(from: h, velocity: velocity, deceleration: deceleration, threshold: threshold)
      })
  }

  /// Stops the animation under `key` at `time` (default: the completion time).
  public mutating func remove(_ key: AnimationKey, at time: Double? = nil) {
    commands.append((max(time ?? self.time, self.time), .remove(key)))
  }
}
