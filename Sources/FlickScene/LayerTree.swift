import FlickMotion

/// A layer tree as the model of a FlickMotion ``FlickMotion/Animator``: animations address layers
/// by id (or a key path into a layer) and write them in place, so one `sample(at:)` per frame
/// animates every layer the animator drives.
///
///     var animator = Animator(model: LayerTree(scene.layers))
///     try animator.spring(AnimationKey(object: "card", key: "position"),
///       property: .layer("card", .position), to: Point(x: 300, y: 200), at: 0.5)
///     scene.animator = animator        // renderTree(at:) samples it once per frame
public struct LayerTree: Sendable {
  /// The top-level layers.
  public var layers: [Layer]
  /// Where each layer id sits: child indices from a root (`-1` is a layer's mask).
  private let paths: [String: [Int]]

  public init(_ layers: [Layer]) {
    self.layers = layers
    var paths: [String: [Int]] = [:]
    func walk(_ layer: Layer, _ path: [Int]) {
      if paths[layer.id] == nil { paths[layer.id] = path }
      for (i, child) in layer.sublayers.enumerated() { walk(child, path + [i]) }
      if let mask = layer.mask { walk(mask, path + [-1]) }
    }
    for (i, root) in layers.enumerated() { walk(root, [i]) }
    self.paths = paths
  }

  /// The layer `id`, or nil.
  public func layer(_ id: String) -> Layer? {
    guard let path = paths[id] else { return nil }
    var layer = layers[path[0]]
    for i in path.dropFirst() {
      guard let next = i < 0 ? layer.mask : layer.sublayers[i] else { return nil }
      layer = next
    }
    return layer
  }

  /// Edits the layer `id` in place (nothing when there is none).
  public mutating func withLayer(_ id: String, _ body: (inout Layer) -> Void) {
    guard let path = paths[id] else { return }
    Self.edit(&layers[path[0]], path.dropFirst(), body)
  }

  private static func edit(_ layer: inout Layer, _ path: ArraySlice<Int>, _ body: (inout Layer) -> Void) {
    guard let i = path.first else { return body(&layer) }
    if i < 0 {
      guard var mask = layer.mask else { return }
      edit(&mask, path.dropFirst(), body)
      layer.mask = mask
    } else {
      edit(&layer.sublayers[i], path.dropFirst(), body)
    }
  }
}

extension AnimatableProperty where Root == LayerTree {
  /// `property` of the layer `id` (a layer that is not in the tree reads neutral and ignores writes).
  package static func layer(_ id: String, _ property: LayerProperty<Value>) -> AnimatableProperty<LayerTree, Value> {
    AnimatableProperty(
      name: "\(id).\(property.name)", threshold: property.threshold,
      read: { tree in tree.layer(id).map(property.read) ?? .zero },
      write: { tree, value in tree.withLayer(id) { property.write(&$0, value) } })
  }

  /// Any animatable value of the layer `id` reached by a key path (`\.transform.scale`).
  package static func layer(
    _ id: String, _ keyPath: WritableKeyPath<Layer, Value> & Sendable, threshold: Double = 0.01
  ) -> AnimatableProperty<LayerTree, Value> {
    AnimatableProperty(
      name: "\(id).\(LayerKeyPathNames.name(of: keyPath))", threshold: threshold,
      read: { tree in tree.layer(id)?[keyPath: keyPath] ?? .zero },
      write: { tree, value in tree.withLayer(id) { $0[keyPath: keyPath] = value } })
  }
}
