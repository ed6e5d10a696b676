import FlickMotion

/// One Pop animation of a layer property (`POPSpringAnimation`, `POPBasicAnimation`,
/// `POPDecayAnimation`), added with ``PopLayer/add(_:for:forKey:at:whenCompleted:)``.
///
/// It starts from the property's current value and velocity (``fromValue`` and ``velocity``
/// override them), so adding one under a running key retargets with continuous motion.
public struct PopAnimation<Value: Animatable>: Sendable {
  /// Spring, tween or decay.
  public var motion: LayerMotion
  /// The target (`toValue`); a decay has none.
  public var toValue: Value?
  /// Starts here instead of the current value (the property jumps).
  public var fromValue: Value?
  /// Initial velocity in value units per second instead of the current one.
  public var velocity: Value?
  /// Seconds after the add time before the animation starts (Pop's `beginTime`, relative);
  /// meanwhile the property holds its current value.
  public var beginTime: Double = 0
  /// Called by ``Animator/advance(to:)`` with (value, velocity) for every sample (playback
  /// only; rendering never calls it).
  public var onChange: (@Sendable (Value, Value) -> Void)?
  /// Called by ``Animator/advance(to:)`` with `finished` when the animation ends, is
  /// replaced or removed (Pop's `completionBlock`, playback only). To schedule the next
  /// animation at the exact completion time, pass `whenCompleted` to `add`.
  public var completionBlock: (@Sendable (Bool) -> Void)?

  public init(motion: LayerMotion, toValue: Value?, fromValue: Value? = nil, velocity: Value? = nil) {
    self.motion = motion
    self.toValue = toValue
    self.fromValue = fromValue
    self.velocity = velocity
  }

  /// A spring to `target` (default: Pop's default spring).
  public static func spring(
    to target: Value, _ parameters: SpringParameters = MotionDefaults.spring, velocity: Value? = nil
  ) -> PopAnimation {
    PopAnimation(motion: .spring(parameters), toValue: target, velocity: velocity)
  }

  /// A tween to `target` lasting `duration` seconds along `curve` (defaults 0.4 s, `.default`).
  public static func tween(
    to target: Value, duration: Double = MotionDefaults.tweenDuration, curve: TimingFunction = MotionDefaults.tweenCurve
  ) -> PopAnimation {
    PopAnimation(motion: .tween(duration: duration, curve: curve), toValue: target)
  }

  /// A decay from the current value with `velocity` (default: the current velocity).
  public static func decay(
    velocity: Value? = nil, deceleration: Double = MotionDefaults.decayDeceleration
  ) -> PopAnimation {
    PopAnimation(motion: .decay(deceleration: deceleration), toValue: nil, velocity: velocity)
  }

  var kindName: String {
    switch motion.kind {
    case .spring: "spring"
    case .tween: "tween"
    case .decay: "decay"
    }
  }

  /// The builder of the curve from the hand-over state.
  func make(threshold: Double) -> @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value> {
    let animation = self
    return { h in
      var start = h
      if let from = animation.fromValue { start.value = from }
      return animation.motion.curve(
        from: start, to: animation.toValue ?? start.value, velocity: animation.velocity, threshold: threshold)
    }
  }
}

/// What Pop-style calls write into: the scene's animator, or a completion handler's schedule.
public protocol LayerAnimationSink: Sendable {
  /// The layer tree the calls animate (to check layer ids), when known.
  var layerTree: LayerTree? { get }
  /// Adds an animation built from the key's hand-over state.
  mutating func addLayerAnimation<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<LayerTree, Value>, timing: MediaTiming, at time: Double?,
    onChange: (@Sendable (Value, Value) -> Void)?, onComplete: (@Sendable (Bool) -> Void)?,
    whenCompleted: (@Sendable (AnimatorCompletion, inout LayerSchedule) -> Void)?,
    _ make: @escaping @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value>
  ) throws(AnimatorError)
  /// Stops the animation under `key`.
  mutating func removeLayerAnimation(_ key: AnimationKey, at time: Double?) throws(AnimatorError)
}

/// What a completion handler may schedule: `next.pop["card"].add(…)`, at or after the exact
/// completion time.
public typealias LayerSchedule = AnimatorSchedule<LayerTree>

extension Animator: LayerAnimationSink where Root == LayerTree {
  public var layerTree: LayerTree? { initialModel }

  public mutating func addLayerAnimation<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<LayerTree, Value>, timing: MediaTiming, at time: Double?,
    onChange: (@Sendable (Value, Value) -> Void)?, onComplete: (@Sendable (Bool) -> Void)?,
    whenCompleted: (@Sendable (AnimatorCompletion, inout LayerSchedule) -> Void)?,
    _ make: @escaping @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value>
  ) throws(AnimatorError) {
    let t = time ?? self.time
    if let whenCompleted {
      try add(
        key, property: property, timing: timing, at: t, onChange: onChange, onComplete: onComplete,
        whenCompleted: whenCompleted, make)
    } else {
      try add(key, property: property, timing: timing, at: t, onChange: onChange, onComplete: onComplete, make)
    }
  }

  public mutating func removeLayerAnimation(_ key: AnimationKey, at time: Double?) throws(AnimatorError) {
    try remove(key, at: time ?? self.time)
  }
}

extension AnimatorSchedule: LayerAnimationSink where Root == LayerTree {
  public var layerTree: LayerTree? { nil }

  public mutating func addLayerAnimation<Value: Animatable>(
    _ key: AnimationKey, property: AnimatableProperty<LayerTree, Value>, timing: MediaTiming, at time: Double?,
    onChange: (@Sendable (Value, Value) -> Void)?, onComplete: (@Sendable (Bool) -> Void)?,
    whenCompleted: (@Sendable (AnimatorCompletion, inout LayerSchedule) -> Void)?,
    _ make: @escaping @Sendable (Handoff<Value>) -> AnyAnimationCurve<Value>
  ) throws(AnimatorError) {
    if let time, !time.isFinite { throw AnimatorError("control time must be finite, found \(time)") }
    add(
      key, property: property, timing: timing, at: time, onChange: onChange, onComplete: onComplete,
      whenCompleted: whenCompleted, make)
  }

  public mutating func removeLayerAnimation(_ key: AnimationKey, at time: Double?) throws(AnimatorError) {
    if let time, !time.isFinite { throw AnimatorError("control time must be finite, found \(time)") }
    remove(key, at: time)
  }

  /// Pop-style calls on the layer `layerID`, scheduled from this completion handler (at its
  /// exact time by default).
  public subscript(layer layerID: String) -> PopLayer<AnimatorSchedule> {
    get { PopLayer(layerID: layerID, sink: self) }
    set { self = newValue.sink }
  }

  /// `next.pop["card"].add(…)`: Pop-style calls from a completion handler.
  public var pop: PopLayers<AnimatorSchedule> {
    get { PopLayers(sink: self) }
    set { self = newValue.sink }
  }
}

/// Pop-style access to layers by id: `scene.pop["card"]`.
public struct PopLayers<Sink: LayerAnimationSink>: Sendable {
  var sink: Sink
  var problems: [SceneError] = []

  /// The layer `layerID`'s Pop calls.
  public subscript(layerID: String) -> PopLayer<Sink> {
    get { PopLayer(layerID: layerID, sink: sink, problems: problems) }
    set {
      sink = newValue.sink
      problems = newValue.problems
    }
  }

  /// The Pop calls of `layer` (by its id): `scene.pop[card]` for `let card = Layer(id: "card", …)`.
  public subscript(layer: Layer) -> PopLayer<Sink> {
    get { self[layer.id] }
    set { self[layer.id] = newValue }
  }
}

/// Pop's `pop_addAnimation:forKey:` on one layer of a scene (value semantics: reached through
/// ``Scene/pop`` or a completion handler's ``AnimatorSchedule/pop``).
///
///     scene.pop["card"].add(.spring(to: Point(x: 300, y: 200)), for: \.position, at: 0.5)
///     scene.pop["card"].add(.tween(to: 0.5), for: .opacity, at: 1) { done, next in
///       next.pop["card"].add(.spring(to: 1), for: .opacity)    // at done.time exactly
///     }
///
/// The key defaults to the property's name, so a second animation of a property replaces the
/// first (with continuous value and velocity). Calls do not throw; a bad time or an unknown
/// layer is kept and ``Scene/validate()`` throws it, naming the call. From a completion handler,
/// a call with a non-finite time is dropped (the handler runs inside the replay, after the
/// scene was built), and an unknown layer id is reported by ``Scene/validate()``.
public struct PopLayer<Sink: LayerAnimationSink>: Sendable {
  /// The layer's id.
  public let layerID: String
  var sink: Sink
  var problems: [SceneError] = []

  init(layerID: String, sink: Sink, problems: [SceneError] = []) {
    self.layerID = layerID
    self.sink = sink
    self.problems = problems
  }

  /// Adds `animation` of `property` under `key` (default: the property's name) at scene time
  /// `time` (seconds; in a completion handler, default its exact time; on a scene, default 0).
  ///
  /// `whenCompleted` runs when the animation completes (its natural end, or when replaced or
  /// removed) with the exact completion time, and may schedule more on `next`; rendering and
  /// playback see the same timeline.
  public mutating func add<Value: Animatable>(
    _ animation: PopAnimation<Value>, for property: LayerProperty<Value>, forKey key: String? = nil,
    at time: Double? = nil,
    whenCompleted: (@Sendable (AnimatorCompletion, inout LayerSchedule) -> Void)? = nil
  ) {
    let call =
      "pop[\"\(layerID)\"].add(\(animation.kindName), for: \(property.name)\(time.map { ", at: \($0)" } ?? ""))"
    guard check(call, time: time) else { return }
    // On the scene the call is refused here, naming it; from a completion handler the animation
    // is kept and ``Scene/validate()`` names its key (the handler's calls have nowhere to report).
    let given = [("target", animation.toValue), ("fromValue", animation.fromValue), ("velocity", animation.velocity)]
    for case (let name, let value?) in given where sink.layerTree != nil && !value.norm.isFinite {
      let reason = "the \(escaped: name) must be a finite number, found \(quoted: value)"
      return problems.append(SceneError(call: call, reason: reason))
    }
    if let problem = animation.motion.problem, sink.layerTree != nil {
      return problems.append(SceneError(call: call, reason: problem))
    }
    var timing = MediaTiming()
    timing.beginTime = animation.beginTime.isFinite ? max(animation.beginTime, 0) : 0
    let animationKey = AnimationKey(object: layerID, key: key ?? property.name)
    do {
      try sink.addLayerAnimation(
        animationKey, property: property.on(layerID), timing: timing, at: time, onChange: animation.onChange,
        onComplete: animation.completionBlock, whenCompleted: whenCompleted,
        animation.make(threshold: property.threshold))
    } catch {
      problems.append(SceneError(call: call, reason: error.description))
    }
  }

  /// As ``add(_:for:forKey:at:whenCompleted:)``, for the property a key path of ``Layer``
  /// reaches (`\.position`, `\.transform.scale`).
  public mutating func add<Value: Animatable>(
    _ animation: PopAnimation<Value>, for keyPath: WritableKeyPath<Layer, Value> & Sendable,
    forKey key: String? = nil, at time: Double? = nil,
    whenCompleted: (@Sendable (AnimatorCompletion, inout LayerSchedule) -> Void)? = nil
  ) {
    add(animation, for: LayerProperty(keyPath), forKey: key, at: time, whenCompleted: whenCompleted)
  }

  /// Sets `property` to `value` at scene time `time` and holds it there (a zero-length
  /// animation under the property's key: a running animation of it stops, velocity 0).
  public mutating func set<Value: Animatable>(_ property: LayerProperty<Value>, to value: Value, at time: Double? = nil)
  {
    let call = "pop[\"\(layerID)\"].set(\(property.name)\(time.map { ", at: \($0)" } ?? ""))"
    guard check(call, time: time) else { return }
    guard value.norm.isFinite || sink.layerTree == nil else {
      let reason = "the value must be a finite number, found \(quoted: value)"
      return problems.append(SceneError(call: call, reason: reason))
    }
    do {
      try sink.addLayerAnimation(
        AnimationKey(object: layerID, key: property.name), property: property.on(layerID), timing: MediaTiming(),
        at: time, onChange: nil, onComplete: nil, whenCompleted: nil
      ) { _ in AnyAnimationCurve(BasicAnimation(from: value, to: value, duration: 0)) }
    } catch {
      problems.append(SceneError(call: call, reason: error.description))
    }
  }

  /// As ``set(_:to:at:)-(LayerProperty<Value>,_,_)``, for a key path of ``Layer``.
  public mutating func set<Value: Animatable>(
    _ keyPath: WritableKeyPath<Layer, Value> & Sendable, to value: Value, at time: Double? = nil
  ) {
    set(LayerProperty(keyPath), to: value, at: time)
  }

  /// Stops the animation under `key` at `time`; the property stays where it is.
  public mutating func removeAnimation(forKey key: String, at time: Double? = nil) {
    let call = "pop[\"\(layerID)\"].removeAnimation(forKey: \"\(key)\")"
    guard check(call, time: time) else { return }
    do {
      try sink.removeLayerAnimation(AnimationKey(object: layerID, key: key), at: time)
    } catch {
      problems.append(SceneError(call: call, reason: error.description))
    }
  }

  private mutating func check(_ call: String, time: Double?) -> Bool {
    if let time, !time.isFinite || time < 0 {
      problems.append(SceneError(call: call, reason: "the time must be finite and ≥ 0 s, found \(time)"))
      return false
    }
    if let tree = sink.layerTree, !tree.contains(layerID) {
      problems.append(SceneError(call: call, reason: Scene.unknownLayer(layerID, among: tree.layerIDs)))
      return false
    }
    return true
  }
}

extension Scene {
  /// Pop-style calls on the scene's layers: `scene.pop["card"].add(.spring(to: p), for: \.position, at: 1)`.
  public var pop: PopLayers<Animator<LayerTree>> {
    get { PopLayers(sink: animatorForBuilding, problems: []) }
    set {
      animator = newValue.sink
      motion.problems += newValue.problems
    }
  }

  /// Sets `property` of the layer `layerID` to `value` at scene time `time` (seconds) and holds it.
  public mutating func set<Value: Animatable>(
    _ property: LayerProperty<Value>, of layerID: String, to value: Value, at time: Double
  ) {
    pop[layerID].set(property, to: value, at: time)
  }

  /// As ``set(_:of:to:at:)-(LayerProperty<Value>,_,_,_)``, for a key path of ``Layer``.
  public mutating func set<Value: Animatable>(
    _ keyPath: WritableKeyPath<Layer, Value> & Sendable, of layerID: String, to value: Value, at time: Double
  ) {
    pop[layerID].set(LayerProperty(keyPath), to: value, at: time)
  }
}
