/// A sequence of animation groups (GPUAnimation's builder): consecutive ``animate(_:)`` calls
/// run in parallel as one group; ``then`` starts a new group when every animation of the
/// previous group has finished; ``delay(_:)`` waits; ``then(_:)`` runs a callback.
///
///     let chain = AnimationChain<Model>()
///       .animate { $0.spring(opacityKey, opacity, to: 0.5) ; $0.spring(positionKey, position, to: p) }
///       .then.animate { $0.tween(opacityKey, opacity, to: 1, duration: 0.3) }
///       .delay(2).animate { $0.spring(positionKey, position, to: .zero) }
///       .then { time in print("done at", time) }
///     try animator.run(chain, at: 0)
///
/// Each group starts at the exact time the previous one completed (not at the next frame). If
/// any animation of a group is interrupted (replaced or removed), the chain stops: later groups
/// never start.
public struct AnimationChain<Root: Sendable>: Sendable {
  struct Group: Sendable {
    var requests: [any _AddRequestProtocol<Root>] = []
    var callbacks: [@Sendable (Double) -> Void] = []
    var delayBefore: Double = 0
  }

  var groups: [Group] = [Group()]
  private var sealed = false

  public init() {}

  /// Adds animations to the current group (they run together).
  public func animate(_ build: (inout ChainGroup<Root>) -> Void) -> AnimationChain {
    var copy = self
    if copy.sealed {
      copy.groups.append(Group())
      copy.sealed = false
    }
    var g = ChainGroup<Root>()
    build(&g)
    copy.groups[copy.groups.count - 1].requests += g.requests
    return copy
  }

  /// Starts a new group: what follows waits for everything before to finish.
  public var then: AnimationChain {
    var copy = self
    copy.sealed = true
    return copy
  }

  /// Waits `seconds` after the previous group finished before the next group starts.
  public func delay(_ seconds: Double) -> AnimationChain {
    var copy = self
    copy.groups.append(Group(delayBefore: max(0, seconds.isFinite ? seconds : 0)))
    copy.sealed = true
    return copy
  }

  /// Runs `callback` (with the exact scene time) once the previous group has finished.
  public func then(_ callback: @escaping @Sendable (Double) -> Void) -> AnimationChain {
    var copy = self
    copy.groups.append(Group(callbacks: [callback]))
    copy.sealed = true
    return copy
  }
}

/// The animations of one chain group, collected by ``AnimationChain/animate(_:)``.
public struct ChainGroup<Root: Sendable>: Sendable {
  var requests: [any _AddRequestProtocol<Root>] = []

  /// Any animation, built from the key's hand-over state when the group starts.
  public mutating func add<Value: Animatable, Curve: AnimationCurve<Value>>(
    _ key: AnimationKey, _ property: AnimatableProperty<Root, Value>, timing: MediaTiming = MediaTiming(),
    onChange: (@Sendable (Value, Value) -> Void)? = nil, onComplete: (@Sendable (Bool) -> Void)? = nil,
    _ make: @escaping @Sendable (Handoff<Value>) -> Curve
  ) {
    let erased: @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value> = { h in AnyAnimationCurve(make(h)) }
    let request = _AddRequest<Root, Value>(
      key: key, property: property, timing: timing, make: erased, onChange: onChange, onComplete: onComplete)
    requests.append(request)
  }

  // spring, tween and decay share their parameter names, order and defaults
  // (``MotionDefaults``) with ``Animator`` and ``AnimatorSchedule``; `onChange` gets (value,
  // velocity) on every sample ``Animator/advance(to:)`` writes, `onComplete` gets `finished`.

  /// A spring to `target` from the key's current value and velocity when the group starts
  /// (GPUAnimation's `target =`). As in GPUAnimation it defaults to stiffness 200, damping 10,
  /// mass 1, resting within 0.01 value units (``MotionDefaults/gpuAnimationSpring``,
  /// ``MotionDefaults/gpuAnimationThreshold``).
  public mutating func spring<Value: Animatable>(
    _ key: AnimationKey, _ property: AnimatableProperty<Root, Value>, to target: Value,
    parameters: SpringParameters = MotionDefaults.gpuAnimationSpring,
    threshold: Double = MotionDefaults.gpuAnimationThreshold, onChange: (@Sendable (Value, Value) -> Void)? = nil,
    onComplete: (@Sendable (Bool) -> Void)? = nil
  ) {
    add(
      key, property, onChange: onChange, onComplete: onComplete,
      { h in CurveBuilder.spring(from: h, to: target, parameters: parameters, threshold: threshold) })
  }

  /// A tween to `target` from the key's current value: from rest along `timingFunction`, over a
  /// moving value continuing its velocity (C¹).
  public mutating func tween<Value: Animatable>(
    _ key: AnimationKey, _ property: AnimatableProperty<Root, Value>, to target: Value,
    duration: Double = MotionDefaults.tweenDuration, timingFunction: TimingFunction = MotionDefaults.tweenCurve,
    onChange: (@Sendable (Value, Value) -> Void)? = nil, onComplete: (@Sendable (Bool) -> Void)? = nil
  ) {
    add(
      key, property, onChange: onChange, onComplete: onComplete,
      { [threshold = property.threshold] h in
        CurveBuilder.tween(
          from: h, to: target, duration: duration, timingFunction: timingFunction, threshold: threshold)
      })
  }

  /// A decay from the key's current value with `velocity` (default: its current velocity).
  public mutating func decay<Value: Animatable>(
    _ key: AnimationKey, _ property: AnimatableProperty<Root, Value>, velocity: Value? = nil,
    deceleration: Double = MotionDefaults.decayDeceleration, onChange: (@Sendable (Value, Value) -> Void)? = nil,
    onComplete: (@Sendable (Bool) -> Void)? = nil
  ) {
    add(
      key, property, onChange: onChange, onComplete: onComplete,
      { [threshold = property.threshold] h in
        CurveBuilder.decay(from: h, velocity: velocity, deceleration: deceleration, threshold: threshold)
      })
  }
}
