import FlickMotion

extension LayerProperty {
  /// The property `property` of the layer `layerID`, as an animator of a ``LayerTree`` sees it.
  public func on(_ layerID: String) -> AnimatableProperty<LayerTree, Value> {
    AnimatableProperty.layer(layerID, self)
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
