/// A deferred "add this animation under this key" (internal to ``Animator``): it builds its
/// segment when the replay reaches its time, from the hand-over state of the key.
protocol _AddRequestProtocol<Root>: Sendable {
  associatedtype Root: Sendable
  var key: AnimationKey { get }
  /// Run when the animation completes (completion-driven scheduling), if any.
  var continuation: (@Sendable (AnimatorCompletion, inout AnimatorSchedule<Root>) -> Void)? { get }
  func makeSegment(
    id: Int, at time: Double, previous: (any _SegmentProtocol<Root>)?, model: Root, chain: (id: Int, group: Int)?,
    outside: Animator<Root>.OutsideHandover?
  ) -> any _SegmentProtocol<Root>
}

struct _AddRequest<Root: Sendable, Value: Animatable>: _AddRequestProtocol {
  let key: AnimationKey
  let property: AnimatableProperty<Root, Value>
  let timing: MediaTiming
  let make: @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value>
  let onChange: (@Sendable (Value, Value) -> Void)?
  let onComplete: (@Sendable (Bool) -> Void)?
  var continuation: (@Sendable (AnimatorCompletion, inout AnimatorSchedule<Root>) -> Void)? = nil

  func makeSegment(
    id: Int, at time: Double, previous: (any _SegmentProtocol<Root>)?, model: Root, chain: (id: Int, group: Int)?,
    outside: Animator<Root>.OutsideHandover?
  ) -> any _SegmentProtocol<Root> {
    let handoff: Handoff<Value>
    if let writer = outside?(property.name, previous?.start ?? -.infinity, time) {
      // Something outside the animator (a property animator) moved the property since the key's
      // animation started: take over the value and velocity it shows, over the key's own state.
      handoff = Handoff.onScreen(at: time) { x in
        var root = model
        previous?.write(&root, at: x)
        writer(x, &root)
        return property.read(root)
      }
    } else if let p = previous as? _Segment<Root, Value> {
      // Evaluated before the previous segment is cut, so the velocity is the live one; the left
      // limit, so a hand-over at the instant the previous motion ends keeps its end velocity.
      // (One added at this very instant never showed: it hands over its start state.)
      let left = MediaTiming.hasReached(p.start, at: time, leftLimit: true)
      handoff = Handoff(
        value: left ? p.value(before: time) : p.value(at: time),
        velocity: left ? p.velocity(before: time) : p.velocity(at: time), time: time)
    } else if let previous {
      var root = model
      previous.write(&root, at: time)
      handoff = Handoff(value: property.read(root), velocity: .zero, time: time)
    } else {
      handoff = Handoff(value: property.read(model), velocity: .zero, time: time)
    }
    return _Segment(
      id: id, key: key, property: property, timing: timing, curve: make(handoff), start: time, chain: chain,
      onChange: onChange, onComplete: onComplete)
  }
}
