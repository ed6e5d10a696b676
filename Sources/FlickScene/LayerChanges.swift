import FlickMotion

/// The layers as an `addAnimations` closure sees them: `$0["card"].position = p` animates
/// `position` of the layer `card` to `p` (UIKit's `animator.addAnimations { view.center = p }`).
/// Reading gives the layer as written (before any animation) or what the closure assigned; each
/// animation starts from the property's value on screen at the time of the call — in a scene,
/// with the scene's other animations and the velocity they gave it, which fades over the
/// animator's duration (``Scene/makePropertyAnimator(duration:timingParameters:)``).
public struct LayerChanges: Sendable {
  let tree: LayerTree
  var changes: [(layerID: String, entry: any _Change)] = []

  /// The layer `layerID`, to read or to animate.
  public subscript(layerID: String) -> LayerChange {
    get {
      LayerChange(layerID: layerID, layer: tree.layer(layerID) ?? Layer(id: layerID), exists: tree.contains(layerID))
    }
    set { changes += newValue.changes.map { (layerID, $0) } }
  }
}

protocol _Change: Sendable {
  var name: String { get }
  func add(to animator: inout PropertyAnimator<LayerTree>, layerID: String, delayFactor: Double, at t: Double)
    throws(AnimatorError)
}

struct _PropertyChange<Value: Animatable>: _Change {
  let property: LayerProperty<Value>
  let target: Value
  var name: String { property.name }

  func add(to animator: inout PropertyAnimator<LayerTree>, layerID: String, delayFactor: Double, at t: Double)
    throws(AnimatorError)
  {
    try animator.addAnimation(property.on(layerID), to: target, delayFactor: delayFactor, at: t)
  }
}

/// One layer inside an `addAnimations` closure: assign any animatable property (by key path,
/// `$0["card"].opacity = 0`, or by descriptor, `$0["card"][.scaleX] = 2`).
@dynamicMemberLookup
public struct LayerChange: Sendable {
  /// The layer's id.
  public let layerID: String
  var layer: Layer
  let exists: Bool
  var changes: [any _Change] = []

  /// The value of `property`: the one assigned in this closure, or the layer's.
  public subscript<Value: Animatable>(property: LayerProperty<Value>) -> Value {
    get { property.read(layer) }
    set {
      property.write(&layer, newValue)
      changes.append(_PropertyChange(property: property, target: newValue))
    }
  }

  /// The property at `keyPath` of ``Layer``.
  public subscript<Value: Animatable>(dynamicMember keyPath: WritableKeyPath<Layer, Value> & Sendable) -> Value {
    get { layer[keyPath: keyPath] }
    set { self[LayerProperty(keyPath)] = newValue }
  }
}

extension PropertyAnimator where Root == LayerTree {
  /// UIKit's `addAnimations(_:delayFactor:)` at scene time `t`: every property the closure
  /// assigns animates from its value on screen at `t` (carrying its velocity there, in a scene)
  /// to the assigned value, with the animator's
  /// progress (`delayFactor` of the remaining time later).
  ///
  /// - Throws: ``AnimatorError`` when the animator is stopped, `t` goes back in time, the
  ///   delay factor is outside 0…1, or the closure names a layer the tree does not have.
  public mutating func addAnimations(
    delayFactor: Double = 0, at t: Double, _ animations: (inout LayerChanges) -> Void
  ) throws(AnimatorError) {
    var layers = LayerChanges(tree: initialModel)
    animations(&layers)
    for (layerID, _) in layers.changes where !initialModel.contains(layerID) {
      throw AnimatorError(
        "addAnimations at \(t) s: "
          + "\(escaped: Scene.unknownLayer(layerID, among: initialModel.layerIDs))")
    }
    for (layerID, change) in layers.changes {
      try change.add(to: &self, layerID: layerID, delayFactor: delayFactor, at: t)
    }
  }
}
