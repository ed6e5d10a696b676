import FlickMotion

extension LayerReplicator {
  /// The most layer copies the replicators of one scene may draw per frame (default cap of
  /// ``Scene/validate()`` and of templates): every layer inside a replicator counts once per
  /// copy, and nested replicators multiply (four levels of 100 copies are 10⁸ layers a frame).
  package static let maximumDrawnInstances = 10_000
}

extension Layer {
  /// How many layers the replicators in this layer's subtree draw for one draw of the layer:
  /// each layer below a replicating layer (one whose ``replicator`` is not ``LayerReplicator/none``)
  /// counts once per copy, the product of the ``LayerReplicator/clampedInstanceCount``s of the
  /// replicating layers above it (masks count as their layer does). Layers outside every
  /// replicator count 0. Saturates at 2⁶⁰ instead of overflowing.
  package var replicatedLayerCount: Int { Self.replicated(self, multiplier: 1, inside: false) }

  private static let saturation = 1 << 60

  private static func replicated(_ layer: Layer, multiplier: Int, inside: Bool) -> Int {
    guard multiplier > 0 else { return 0 }
    var total = inside ? multiplier : 0
    if let mask = layer.mask { total = sum(total, replicated(mask, multiplier: multiplier, inside: inside)) }
    let replicates = !layer.replicator.isNone
    let (product, overflow) = multiplier.multipliedReportingOverflow(
      by: replicates ? layer.replicator.clampedInstanceCount : 1)
    let inner = overflow ? saturation : min(product, saturation)
    for sublayer in layer.sublayers {
      total = sum(total, replicated(sublayer, multiplier: inner, inside: inside || replicates))
      if total >= saturation { break }
    }
    return total
  }

  private static func sum(_ a: Int, _ b: Int) -> Int { min(saturation, a + b) }
}

extension Scene {
  /// The layer copies every replicator of the scene draws per frame (``Layer/replicatedLayerCount``
  /// summed over the top-level layers, saturating at 2⁶⁰).
  package var replicatedLayerCount: Int {
    layers.reduce(0) { min(1 << 60, $0 + $1.replicatedLayerCount) }
  }

  /// A problem when the replicators draw more than ``LayerReplicator/maximumDrawnInstances``
  /// layer copies per frame, naming the top-level layer whose copies pass the cap.
  var replicatorProblem: SceneError? {
    var total = 0
    for layer in layers {
      total = min(1 << 60, total + layer.replicatedLayerCount)
      guard total > LayerReplicator.maximumDrawnInstances else { continue }
      let amount = total >= 1 << 60 ? "more than 10¹⁸" : "\(total)"
      return SceneError(
        call: "layer \"\(layer.id)\"",
        reason: "the scene's replicators draw \(quoted: amount) layer copies per frame (nested replicators multiply: "
          + "each layer inside counts once per copy), more than the cap of \(LayerReplicator.maximumDrawnInstances)")
    }
    return nil
  }
}
