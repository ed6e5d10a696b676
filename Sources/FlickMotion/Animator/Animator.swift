/// Runs animations on a model `Root` against a virtual clock (Pop's `POPAnimator`, without the
/// display link): add under an (object, key), replace, remove, chain — and sample any time.
///
/// **Pure in time.** Every control call carries its scene time. The animator keeps the calls as
/// a script and derives from it, exactly, which animation owns each key at each instant (a
/// replacement cuts the old one at the new one's start time; a chain's next group starts at the
/// exact completion time of the previous one). So:
///
/// - ``sample(at:)`` is a pure function of `t`: render frame `n` alone, in any order, on any
///   machine — the same bits;
/// - ``advance(to:)`` is the playback convenience: it fires the events in `(time, t]` in their
///   documented order (see ``AnimatorEvent``), writes `sample(at: t)` into ``model`` and calls
///   the per-sample observers. Stepping at 24, 30, 60 or 120 fps or jumping straight to `t`
///   gives the same model at `t` bit for bit, and the same events with the same times.
///
/// **Hand-over.** A new animation under a used key is built from a ``Handoff`` — the old
/// animation's value and velocity at that instant — so springs retarget, decays hand over to
/// springs, and tweens continue (``ContinuingTween``) with continuous position and velocity.
/// The replaced animation completes with `finished = false` at that time (Pop's rule).
///
/// Control calls must not go back before ``time`` (what has been played is history); calls
/// after it may come in any order, and scheduling in the future is allowed.
///
///     var animator = Animator(model: Model())
///     try animator.add(key, property: opacity, at: 0) { h in
///       SpringAnimation(from: h.value, to: 1, velocity: h.velocity)
///     }
///     let frame = animator.sample(at: 1.25)
public struct Animator<Root: Sendable>: Sendable {
  /// The model before any animation.
  public let initialModel: Root
  /// The model as last written by ``advance(to:)``.
  public internal(set) var model: Root
  /// The clock: the last time passed to ``advance(to:)`` (starts at 0).
  public internal(set) var time: Double = 0
  /// When set, every fired event and written value is recorded (Pop's tracer).
  package var tracer: AnimationTracer?

  enum Command: Sendable {
    case add(any _AddRequestProtocol<Root>, onAdded: Int)
    case remove(AnimationKey)
    case chainGroup(chain: Int, group: Int)
    /// The natural end of segment `index`, which has a completion handler.
    case completion(segment: Int)
  }

  /// Completion handlers that keep scheduling (a loop) are replayed up to this scene time,
  /// seconds (default 3,600): what they schedule later is dropped.
  public var continuationHorizon: Double = 3600 {
    didSet { box = _ReplayBox() }
  }

  /// A second bound on how far completion handlers are replayed, scene seconds (default none):
  /// FlickScene's `Scene` sets it to its duration, so a loop costs only the frames shown.
  package var replayBound: Double = .infinity {
    didSet { if replayBound != oldValue { box = _ReplayBox() } }
  }

  /// What moves a property besides this animator, when it runs in a ``FlickScene/Scene`` with
  /// property animators: given a property's name, the start of the key's animation in force
  /// (`-infinity` for none) and a scene time `t`, the writer of the animation of that property
  /// that started since then and before `t`, if any (it writes its value at a time into a model).
  /// An animation added at `t` takes over its value and velocity there, as it does its key's.
  package var outsideHandover: OutsideHandover? = nil {
    didSet { box = _ReplayBox() }
  }

  /// See ``outsideHandover``.
  package typealias OutsideHandover =
    @Sendable (_ name: String, _ since: Double, _ t: Double) -> (
      @Sendable (_ time: Double, _ root: inout Root) -> Void
    )?

  /// At most this many calls scheduled by completion handlers are replayed (default 100,000):
  /// a loop of zero-length animations cannot hang the replay.
  public var continuationLimit = 100_000 {
    didSet { box = _ReplayBox() }
  }

  /// Whether completion handlers scheduled past ``continuationHorizon`` or beyond
  /// ``continuationLimit`` (and were cut there).
  public var continuationsWereTruncated: Bool { state.truncated }

  struct Scheduled: Sendable {
    var time: Double
    var seq: Int
    var command: Command
  }

  /// The user's calls, in call order.
  var script: [Scheduled] = []
  var nextSeq = 0
  var nextID = 0
  var chains: [AnimationChain<Root>] = []
  /// Whether `advance(to:)` has run (the first call also fires events at exactly its time).
  var started = false
  /// The replay of `script`, computed on first use after each change (a fresh box per change,
  /// so copies of an animator never share a stale replay).
  var box = _ReplayBox<ReplayState>()

  /// The replay result (segments, ownership, callbacks).
  var state: ReplayState {
    box.value {
      ReplayState.replay(
        script: script, chains: chains, model: initialModel, horizon: min(continuationHorizon, replayBound),
        limit: continuationLimit, outside: outsideHandover)
    }
  }

  struct ReplayState: Sendable {
    var segments: [any _SegmentProtocol<Root>] = []
    var current: [AnimationKey: Int] = [:]
    /// Each key's segment indices, in start order.
    var byKey: [AnimationKey: [Int]] = [:]
    /// Segment index by animation id.
    var indexByID: [Int: Int] = [:]
    var keyOrder: [AnimationKey] = []
    var cancelledChains: Set<Int> = []
    var chainGroupSegments: [Int: [Int: [Int]]] = [:]
    var callbacks: [(time: Double, order: Int, id: Int, chain: Int, group: Int)] = []
    /// Commands still to process, sorted by (time, seq) descending (next one last).
    var pending: [Scheduled] = []
    /// Ids for animations created by chains (after every user id).
    var nextChainID = 1 << 40
    var nextSeq = 1 << 40
    /// Completion handlers by segment index, and those already run.
    var continuations: [Int: @Sendable (AnimatorCompletion, inout AnimatorSchedule<Root>) -> Void] = [:]
    var continued: Set<Int> = []
    var continuationCalls = 0
    var horizon = 3600.0
    var limit = 100_000
    var truncated = false
    /// Keys whose animation has a value that is not a finite number (a NaN target, …), in order.
    var nonFinite: [AnimationKey] = []
    var outside: OutsideHandover?
  }

  public init(model: Root) {
    initialModel = model
    self.model = model
  }

  // MARK: - Control

  /// Adds an animation for `key` at scene time `time`, built from the key's hand-over state.
  ///
  /// - Parameters:
  ///   - timing: Delay (`beginTime`, relative to `time`), speed, repeat, autoreverse. During the
  ///     delay the key holds its hand-over value.
  ///   - onChange: Called by ``advance(to:)`` with (value, velocity) for every sample.
  ///   - onComplete: Called with `finished` when the animation ends, is replaced or removed.
  ///   - make: Builds the animation from the ``Handoff`` (current value and velocity).
  /// - Returns: The animation's id (in events).
  /// - Throws: ``AnimatorError`` if `time` is before ``time`` or not finite.
  @discardableResult
  public mutating func add<Value: Animatable, Curve: AnimationCurve<Value>>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, timing: MediaTiming = MediaTiming(),
    at time: Double, onChange: (@Sendable (Value, Value) -> Void)? = nil,
    onComplete: (@Sendable (Bool) -> Void)? = nil,
    _ make: @escaping @Sendable (Handoff<Value>) -> Curve
  ) throws(AnimatorError) -> Int {
    let erased: @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value> = { h in AnyAnimationCurve(make(h)) }
    let request = _AddRequest<Root, Value>(
      key: key, property: property, timing: timing, make: erased, onChange: onChange, onComplete: onComplete)
    let id = nextID
    nextID += 1
    try schedule(.add(request, onAdded: id), at: time)
    return id
  }

  /// Adds an animation for `key` at `time` whose completion handler may schedule more (the
  /// next card swap from the completion block of this one) at the exact completion time; see
  /// ``AnimatorSchedule``. The handler runs when the replay reaches the completion (its natural
  /// end, or when it is replaced or removed), not on the playback thread.
  @discardableResult
  public mutating func add<Value: Animatable, Curve: AnimationCurve<Value>>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, timing: MediaTiming = MediaTiming(),
    at time: Double, onChange: (@Sendable (Value, Value) -> Void)? = nil,
    onComplete: (@Sendable (Bool) -> Void)? = nil,
    whenCompleted: @escaping @Sendable (AnimatorCompletion, inout AnimatorSchedule<Root>) -> Void,
    _ make: @escaping @Sendable (Handoff<Value>) -> Curve
  ) throws(AnimatorError) -> Int {
    let erased: @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value> = { h in AnyAnimationCurve(make(h)) }
    let request = _AddRequest<Root, Value>(
      key: key, property: property, timing: timing, make: erased, onChange: onChange, onComplete: onComplete,
      continuation: whenCompleted)
    let id = nextID
    nextID += 1
    try schedule(.add(request, onAdded: id), at: time)
    return id
  }

  /// Adds a fixed curve (its own start value; no hand-over) for `key` at `time`.
  @discardableResult
  public mutating func add<Curve: AnimationCurve>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Curve.Value>, curve: Curve,
    timing: MediaTiming = MediaTiming(), at time: Double,
    onChange: (@Sendable (Curve.Value, Curve.Value) -> Void)? = nil,
    onComplete: (@Sendable (Bool) -> Void)? = nil
  ) throws(AnimatorError) -> Int {
    try add(key, property: property, timing: timing, at: time, onChange: onChange, onComplete: onComplete) { _ in curve
    }
  }

  // The spring, tween and decay conveniences below share their parameter names, order and
  // defaults (``MotionDefaults``) with ``AnimatorSchedule`` and ``ChainGroup``; `onChange`
  // gets (value, velocity) on every sample ``advance(to:)`` writes, `onComplete` gets `finished`.

  /// Springs `key` to `target` from its current value and velocity (retargeting a running
  /// spring, or taking over from a decay or tween, with C¹ continuity), resting within the
  /// property's threshold.
  @discardableResult
  public mutating func spring<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, to target: Value,
    parameters: SpringParameters = MotionDefaults.spring, at time: Double,
    onChange: (@Sendable (Value, Value) -> Void)? = nil, onComplete: (@Sendable (Bool) -> Void)? = nil
  ) throws(AnimatorError) -> Int {
    try add(key, property: property, at: time, onChange: onChange, onComplete: onComplete) {
      [threshold = property.threshold] h in
      CurveBuilder.spring(from: h, to: target, parameters: parameters, threshold: threshold)
    }
  }

  /// Springs `key` to `target` the way a device engine steps it (``Stepping/pop(fps:)``,
  /// ``Stepping/gpuAnimation(fps:)``), from the current value and velocity, with the property's
  /// threshold as the engine's rest threshold (``SteppedSpring``). ``Stepping/analytic`` is the
  /// closed-form ``spring(_:property:to:parameters:at:onChange:onComplete:)``.
  @discardableResult
  public mutating func spring<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, to target: Value,
    parameters: SpringParameters = MotionDefaults.spring, stepping: Stepping, at time: Double,
    onChange: (@Sendable (Value, Value) -> Void)? = nil, onComplete: (@Sendable (Bool) -> Void)? = nil
  ) throws(AnimatorError) -> Int {
    guard stepping != .analytic else {
      return try spring(
        key, property: property, to: target, parameters: parameters, at: time, onChange: onChange,
        onComplete: onComplete)
    }
    return try add(key, property: property, at: time, onChange: onChange, onComplete: onComplete) {
      [threshold = property.threshold] h in
      CurveBuilder.spring(from: h, to: target, parameters: parameters, threshold: threshold, stepping: stepping)
    }
  }

  /// Tweens `key` to `target` over `duration` seconds along `timingFunction`; over a moving
  /// value it starts with the current velocity and bends into the curve (C¹, ``ContinuingTween``).
  @discardableResult
  public mutating func tween<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, to target: Value,
    duration: Double = MotionDefaults.tweenDuration, timingFunction: TimingFunction = MotionDefaults.tweenCurve,
    at time: Double, onChange: (@Sendable (Value, Value) -> Void)? = nil, onComplete: (@Sendable (Bool) -> Void)? = nil
  ) throws(AnimatorError) -> Int {
    try add(
      key, property: property, at: time, onChange: onChange, onComplete: onComplete,
      { [threshold = property.threshold] h in
        CurveBuilder.tween(
          from: h, to: target, duration: duration, timingFunction: timingFunction, threshold: threshold)
      })
  }

  /// Lets `key` coast from its current value with `velocity` (units/s; default the current
  /// velocity), slowing by `deceleration` per millisecond (Pop's `POPDecayAnimation`) until its
  /// speed is below 5 × the property's threshold.
  @discardableResult
  public mutating func decay<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<Root, Value>, velocity: Value? = nil,
    deceleration: Double = MotionDefaults.decayDeceleration, at time: Double,
    onChange: (@Sendable (Value, Value) -> Void)? = nil, onComplete: (@Sendable (Bool) -> Void)? = nil
  ) throws(AnimatorError) -> Int {
    try add(
      key, property: property, at: time, onChange: onChange, onComplete: onComplete,
      { [threshold = property.threshold] h in
        CurveBuilder.decay(from: h, velocity: velocity, deceleration: deceleration, threshold: threshold)
      })
  }

  /// Stops the animation under `key` at `time`: the value stays where it is and the animation
  /// completes with `finished = false` (nothing happens if none is running).
  public mutating func remove(_ key: AnimationKey, at time: Double) throws(AnimatorError) {
    try schedule(.remove(key), at: time)
  }

  /// Starts a chain at `time`; returns its id.
  @discardableResult
  public mutating func run(_ chain: AnimationChain<Root>, at time: Double) throws(AnimatorError) -> Int {
    let id = chains.count
    chains.append(chain)
    try schedule(.chainGroup(chain: id, group: 0), at: time)
    return id
  }

  private mutating func schedule(_ command: Command, at t: Double) throws(AnimatorError) {
    guard t.isFinite else { throw AnimatorError("control time must be finite, found \(t)") }
    guard t >= time else {
      throw AnimatorError("cannot schedule at \(t) s: the animator has already played up to \(time) s")
    }
    script.append(Scheduled(time: t, seq: nextSeq, command: command))
    nextSeq += 1
    box = _ReplayBox()
  }

  // MARK: - Queries (pure)

  /// The model at scene time `t`: every key's animation evaluated at `t` (pure; any order).
  public func sample(at t: Double) -> Root {
    var root = initialModel
    let state = self.state
    for key in state.keyOrder {
      if let segment = Self.segment(for: key, at: t, in: state) { segment.write(&root, at: t) }
    }
    return root
  }

  /// The animation owning `key` at `t` (the latest one added at or before `t`).
  func segment(for key: AnimationKey, at t: Double) -> (any _SegmentProtocol<Root>)? {
    Self.segment(for: key, at: t, in: state)
  }

  static func segment(for key: AnimationKey, at t: Double, in state: ReplayState) -> (any _SegmentProtocol<Root>)? {
    guard let list = state.byKey[key] else { return nil }
    // Segments of a key are appended in non-decreasing start order: the last one started by t
    // wins, a start a few ulps after t (0.1 + 0.2 for the frame at 0.3) counting as started.
    for i in list.reversed() where MediaTiming.hasReached(state.segments[i].start, at: t) { return state.segments[i] }
    return nil
  }

  /// The value of `key` at `t`, or `nil` if no animation has touched it by then (or the type differs).
  public func value<Value: Animatable>(of key: AnimationKey, as _: Value.Type = Value.self, at t: Double) -> Value? {
    guard let s = segment(for: key, at: t) as? _Segment<Root, Value> else { return nil }
    return s.value(at: t)
  }

  /// The velocity of `key` at `t` in units/s (GPUAnimation's velocity lookup); zero once it has ended.
  public func velocity<Value: Animatable>(of key: AnimationKey, as _: Value.Type = Value.self, at t: Double) -> Value? {
    guard let s = segment(for: key, at: t) as? _Segment<Root, Value> else { return nil }
    return s.velocity(at: t)
  }

  /// The left limit of the value of `key` at `t`: what a hand-over at `t` continues from.
  public func value<Value: Animatable>(of key: AnimationKey, as _: Value.Type = Value.self, before t: Double) -> Value?
  {
    guard let s = segment(before: key, at: t) as? _Segment<Root, Value> else { return nil }
    return s.value(before: t)
  }

  /// The left limit of the velocity of `key` at `t`, units/s: at the instant an animation ends,
  /// the velocity it ended with (``velocity(of:as:at:)`` is already zero there).
  public func velocity<Value: Animatable>(of key: AnimationKey, as _: Value.Type = Value.self, before t: Double)
    -> Value?
  {
    guard let s = segment(before: key, at: t) as? _Segment<Root, Value> else { return nil }
    return s.velocity(before: t)
  }

  /// The animation owning `key` just before `t` (the latest one added before `t` by more than
  /// the boundary tolerance: one added within it starts at `t`).
  func segment(before key: AnimationKey, at t: Double) -> (any _SegmentProtocol<Root>)? {
    let state = self.state
    guard let list = state.byKey[key] else { return nil }
    for i in list.reversed() where MediaTiming.hasReached(state.segments[i].start, at: t, leftLimit: true) {
      return state.segments[i]
    }
    return nil
  }

  /// Whether an animation is running under `key` at `t` (started and not yet ended).
  public func isAnimating(_ key: AnimationKey, at t: Double) -> Bool {
    guard let s = segment(for: key, at: t) else { return false }
    return !MediaTiming.hasReached(s.end, at: t)
  }

  /// When the animation under `key` at `t` ends (`.infinity` for repeat-forever).
  public func endTime(of key: AnimationKey, at t: Double) -> Double? { segment(for: key, at: t)?.end }
}
