import FlickMotion

/// One property's part in a GPUAnimation group: set ``target`` (and optionally ``type``) in
/// the group's closure: `$0.position.target = p; $0.position.type = .tween(duration: 0.3)`.
public struct AnimatedValue<Value: Animatable>: Sendable {
  let property: LayerProperty<Value>
  /// Where the property goes; `nil` leaves it out of the group (unless ``type`` is a decay,
  /// which has no target).
  public var target: Value?
  /// Starts with this velocity, value units per second, instead of the current one (a decay's
  /// fling, a spring thrown).
  public var velocity: Value?
  /// How it goes there (default: GPUAnimation's spring, stiffness 200, damping 10, mass 1,
  /// resting within 0.01 value units: ``MotionDefaults/gpuAnimationSpring``; see ``LayerMotion``).
  public var type: LayerMotion = .spring(
    MotionDefaults.gpuAnimationSpring, threshold: MotionDefaults.gpuAnimationThreshold)
  /// Called by ``Animator/advance(to:)`` with the value of every sample (playback only).
  public var onChange: (@Sendable (Value) -> Void)?
  /// Called by ``Animator/advance(to:)`` with the velocity of every sample, units per second.
  public var onVelocityChange: (@Sendable (Value) -> Void)?
  /// Called by ``Animator/advance(to:)`` with `finished` when it ends or is interrupted.
  public var onComplete: (@Sendable (Bool) -> Void)?
  /// The other layers' properties this value moves (``drive(_:_:by:)``).
  var drives: [LayerDrive<Value>] = []

  init(property: LayerProperty<Value>) { self.property = property }

  /// Moves `property` of the layer `layerID` to `map(value)` at every instant this animation
  /// writes its value (from its start on, holding its end): GPUAnimation's habit of moving other
  /// views from a (custom) property's `onChange`, but part of the animation itself, so it is
  /// deterministic and seekable — any frame renders alone, and ``Scene/validate()`` checks the
  /// layer id. A later animation of the driven property in the same scene wins while it runs.
  ///
  ///     $0[progress].target = 1
  ///     $0[progress].drive("shade", .opacity) { 1 - $0 }
  public mutating func drive<Other: Animatable>(
    _ layerID: String, _ property: LayerProperty<Other>, by map: @escaping @Sendable (Value) -> Other
  ) {
    let target = property.on(layerID)
    drives.append(LayerDrive(layerID: layerID, name: target.name) { tree, value in target.write(&tree, map(value)) })
  }

  /// As ``drive(_:_:by:)``, for the property at a key path of ``Layer`` (`\.position`).
  public mutating func drive<Other: Animatable>(
    _ layerID: String, _ keyPath: WritableKeyPath<Layer, Other> & Sendable, by map: @escaping @Sendable (Value) -> Other
  ) {
    drive(layerID, LayerProperty(keyPath), by: map)
  }
}

/// One layer property an ``AnimatedValue`` moves (``AnimatedValue/drive(_:_:by:)``).
struct LayerDrive<Value: Animatable>: Sendable {
  let layerID: String
  /// The driven property's name on a ``LayerTree`` (`badge.position`).
  let name: String
  let write: @Sendable (inout LayerTree, Value) -> Void
}

protocol _GroupEntry: Sendable {
  var name: String { get }
  /// The layers the entry moves besides its own (``AnimatedValue/drive(_:_:by:)``).
  var drivenLayerIDs: [String] { get }
  /// Why the entry's motion parameters are not usable (``LayerMotion``), or nil.
  var motionProblem: String? { get }
  func register(in group: inout ChainGroup<LayerTree>, layerID: String)
}

extension AnimatedValue: _GroupEntry {
  var name: String { property.name }
  var drivenLayerIDs: [String] { drives.map(\.layerID) }
  var motionProblem: String? { type.problem }

  func register(in group: inout ChainGroup<LayerTree>, layerID: String) {
    let isDecay = if case .decay = type.kind { true } else { false }
    guard target != nil || isDecay else { return }
    var observer: (@Sendable (Value, Value) -> Void)?
    if onChange != nil || onVelocityChange != nil {
      let (change, velocity) = (onChange, onVelocityChange)
      observer = { value, v in
        change?(value)
        velocity?(v)
      }
    }
    let (type, threshold, target, velocity) = (self.type, property.threshold, self.target, self.velocity)
    let own = property.on(layerID)
    let drives = self.drives
    var animated = own
    if !drives.isEmpty {
      animated = AnimatableProperty(
        name: own.name, threshold: own.threshold, read: own.read,
        write: { tree, value in
          own.write(&tree, value)
          for drive in drives { drive.write(&tree, value) }
        })
      animated.alsoWrites = drives.map(\.name)
    }
    group.add(
      AnimationKey(object: layerID, key: property.name), animated, onChange: observer,
      onComplete: onComplete
    ) { h in type.curve(from: h, to: target ?? h.value, velocity: velocity, threshold: threshold) }
  }
}

/// The properties one GPUAnimation group animates on one layer: `$0.position`, `$0.opacity`,
/// any key path of ``Layer`` (`$0.transform.scale`), or any ``LayerProperty`` — catalogued or
/// your own — through `$0[property]`.
@dynamicMemberLookup
public struct LayerAnimations: Sendable {
  /// The animated layer's id.
  public let layerID: String
  var entries: [any _GroupEntry] = []

  init(layerID: String) { self.layerID = layerID }

  /// The part of `property` (a catalogued or custom ``LayerProperty``) in this group.
  public subscript<Value: Animatable>(property: LayerProperty<Value>) -> AnimatedValue<Value> {
    get {
      for entry in entries where entry.name == property.name {
        if let value = entry as? AnimatedValue<Value> { return value }
      }
      return AnimatedValue(property: property)
    }
    set {
      if let i = entries.firstIndex(where: { $0.name == property.name }) {
        entries[i] = newValue
      } else {
        entries.append(newValue)
      }
    }
  }

  /// The part of the property at `keyPath` of ``Layer`` (`$0.position`, `$0.backgroundColor`).
  public subscript<Value: Animatable>(dynamicMember keyPath: WritableKeyPath<Layer, Value> & Sendable) -> AnimatedValue<
    Value
  > {
    get { self[LayerProperty(keyPath)] }
    set { self[LayerProperty(keyPath)] = newValue }
  }
}

/// GPUAnimation's chain on scene layers: groups of springs and tweens that run together, one
/// group after another at the exact completion time of the previous one, with delays and
/// callbacks. Run it with ``Scene/run(_:at:)``.
///
///     scene.run(
///       .animate(card) { $0.position.target = Point(x: 300, y: 200); $0.opacity.target = 0.5 }
///       .delay(2)
///       .animate { $0.position.target = Point(x: 100, y: 200); $0.position.type = .tween(duration: 0.3) }
///       .then { time in print("done at", time) },
///       at: 0.5)
///
/// Consecutive `animate` calls join the current group (`.then` or `.delay` starts a new one);
/// `animate` without a layer animates the layer of the previous call. A layer is named by its
/// id or by the ``Layer`` value itself.
///
/// The chain is a value built first and run by the scene at an explicit time: GPUAnimation's
/// `scene.animate(layer) { … }.delay(2).animate { … }` would need the scene to keep a reference
/// to a builder that goes on changing after the call returns, which a value-typed, `Sendable`
/// ``Scene`` cannot do (the leading-dot chain above reads the same).
public struct LayerChain: Sendable {
  var chain = AnimationChain<LayerTree>()
  /// The layer of the last `animate`.
  var layerID: String
  /// The layer ids the chain names, in order.
  var layerIDs: [String] = []
  /// The unusable motion parameters of its entries (`position of "card": a tween's duration …`):
  /// ``Scene/run(_:at:)`` records the first as a ``SceneError``.
  var problems: [String] = []

  /// A chain whose first group animates the layer `layerID`.
  public static func animate(_ layerID: String, _ build: (inout LayerAnimations) -> Void) -> LayerChain {
    LayerChain(layerID: layerID).animate(layerID, build)
  }

  /// A chain whose first group animates `layer` (by its id).
  public static func animate(_ layer: Layer, _ build: (inout LayerAnimations) -> Void) -> LayerChain {
    animate(layer.id, build)
  }

  /// Adds animations of `layer` (by its id) to the current group.
  public func animate(_ layer: Layer, _ build: (inout LayerAnimations) -> Void) -> LayerChain {
    animate(layer.id, build)
  }

  /// Adds animations of the layer `layerID` (default: the previous call's layer) to the current group.
  public func animate(_ layerID: String? = nil, _ build: (inout LayerAnimations) -> Void) -> LayerChain {
    var copy = self
    let id = layerID ?? self.layerID
    copy.layerID = id
    copy.layerIDs.append(id)
    var group = LayerAnimations(layerID: id)
    build(&group)
    copy.layerIDs += group.entries.flatMap(\.drivenLayerIDs)
    for entry in group.entries {
      if let problem = entry.motionProblem {
        copy.problems.append("\(quoted: entry.name) of \"\(quoted: id)\": \(escaped: problem)")
      }
    }
    copy.chain = chain.animate { g in
      for entry in group.entries { entry.register(in: &g, layerID: id) }
    }
    return copy
  }

  /// Starts a new group: what follows waits for everything before to finish.
  public var then: LayerChain {
    var copy = self
    copy.chain = chain.then
    return copy
  }

  /// Waits `seconds` after the previous group finished before the next group starts.
  public func delay(_ seconds: Double) -> LayerChain {
    var copy = self
    copy.chain = chain.delay(seconds)
    return copy
  }

  /// Runs `callback` with the exact scene time once the previous group has finished
  /// (during ``Animator/advance(to:)``; rendering never calls it).
  public func then(_ callback: @escaping @Sendable (Double) -> Void) -> LayerChain {
    var copy = self
    copy.chain = chain.then(callback)
    return copy
  }
}

extension Scene {
  /// Starts `chain` at scene time `time` (seconds, default 0).
  public mutating func run(_ chain: LayerChain, at time: Double = 0) {
    let call = "run(chain on \"\(chain.layerIDs.first ?? chain.layerID)\", at: \(time))"
    var animator = animatorForBuilding
    for id in chain.layerIDs where !animator.initialModel.contains(id) {
      record(call, Self.unknownLayer(id, among: animator.initialModel.layerIDs))
      return
    }
    guard time.isFinite, time >= 0 else { return record(call, "the time must be finite and ≥ 0 s, found \(time)") }
    if let problem = chain.problems.first { return record(call, problem) }
    do {
      try animator.run(chain.chain, at: time)
      self.animator = animator
    } catch {
      record(call, error.description)
    }
  }

  /// One GPUAnimation group on the layer `layerID`, started at `time`: `scene.animate("card",
  /// at: 1) { $0.position.target = p }`. For a chain of groups, see ``LayerChain``.
  public mutating func animate(_ layerID: String, at time: Double = 0, _ build: (inout LayerAnimations) -> Void) {
    run(LayerChain.animate(layerID, build), at: time)
  }

  /// One GPUAnimation group on `layer` (by its id), started at `time`.
  public mutating func animate(_ layer: Layer, at time: Double = 0, _ build: (inout LayerAnimations) -> Void) {
    animate(layer.id, at: time, build)
  }
}
