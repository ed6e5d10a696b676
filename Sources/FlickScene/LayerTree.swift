import FlickMotion

/// A layer tree with an index of its layer ids: the model that a scene's ``Animator`` and
/// ``PropertyAnimator``s write (`Animator<LayerTree>`), so one sample is one pass over the
/// running animations, each writing one layer found through the index (no tree search).
///
/// The first layer with an id wins (as in ``Scene/renderTree(at:)``); masks are indexed too.
public struct LayerTree: Sendable {
  /// The top-level layers.
  public private(set) var layers: [Layer]
  /// Index path of each id: `[top, sub, …]`; a mask is step `-1`.
  private var paths: [String: [Int]] = [:]

  /// Indexes `layers` (every layer at any depth, masks included).
  public init(_ layers: [Layer]) {
    self.layers = layers
    var stack: [(Layer, [Int])] = layers.indices.reversed().map { (layers[$0], [$0]) }
    while let (layer, path) = stack.popLast() {
      if paths[layer.id] == nil { paths[layer.id] = path }
      if let mask = layer.mask { stack.append((mask, path + [-1])) }
      for i in layer.sublayers.indices.reversed() { stack.append((layer.sublayers[i], path + [i])) }
    }
  }

  /// Whether a layer has the id `id`.
  public func contains(_ id: String) -> Bool { paths[id] != nil }

  /// Every layer id in the tree.
  public var ids: Dictionary<String, [Int]>.Keys { paths.keys }

  /// The layer `id`, if any.
  public subscript(id: String) -> Layer? {
    guard let path = paths[id] else { return nil }
    var layer = layers[path[0]]
    for step in path.dropFirst() { layer = step < 0 ? layer.mask! : layer.sublayers[step] }
    return layer
  }

  /// Runs `body` on the layer `id` in place; does nothing when there is none.
  public mutating func update(_ id: String, _ body: (inout Layer) -> Void) {
    guard let path = paths[id] else { return }
    Self.update(&layers[path[0]], path: path.dropFirst(), body)
  }

  private static func update(_ layer: inout Layer, path: ArraySlice<Int>, _ body: (inout Layer) -> Void) {
    guard let step = path.first else { return body(&layer) }
    if step < 0 {
      guard var mask = layer.mask else { return }
      update(&mask, path: path.dropFirst(), body)
      layer.mask = mask
    } else {
      update(&layer.sublayers[step], path: path.dropFirst(), body)
    }
  }
}

extension LayerProperty {
  /// The property `property` of the layer `layerID`, as an animator of a ``LayerTree`` sees it.
  public func on(_ layerID: String) -> AnimatableProperty<LayerTree, Value> {
    let property = self
    return AnimatableProperty(
      name: name, threshold: threshold,
      read: { tree in tree[layerID].map(property.read) ?? .zero },
      write: { tree, value in tree.update(layerID) { property.write(&$0, value) } })
  }

  /// A property reached through a key path of ``Layer`` (`\.position`, `\.backgroundColor`,
  /// `\.transform.rotation`…). It takes the catalogue's name and rest threshold when the key
  /// path names a catalogued property (`\.opacity` is ``LayerProperty/opacity``); otherwise
  /// the key path's own name and a threshold of 0.01 value units.
  public init(_ keyPath: WritableKeyPath<Layer, Value> & Sendable) {
    let name = LayerProperty<Value>.name(of: keyPath)
    let threshold = AnyLayerProperty.named(name)?.threshold ?? 0.01
    self.init(
      name: name, threshold: threshold, read: { $0[keyPath: keyPath] },
      write: { layer, value in layer[keyPath: keyPath] = value })
  }

  /// `position` for `\Layer.position`, `transform.rotation` for `\Layer.transform.rotation`.
  static func name(of keyPath: AnyKeyPath) -> String {
    let text = String(describing: keyPath)
    for prefix in ["\\Layer.", "\\FlickScene.Layer."] where text.hasPrefix(prefix) {
      return String(text.dropFirst(prefix.count))
    }
    return text
  }
}
