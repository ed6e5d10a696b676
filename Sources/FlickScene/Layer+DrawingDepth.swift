import FlickMotion

extension Layer {
  /// The most levels one drawing nests: a layer, its sublayers and masks, and the holder layers
  /// a replicator puts its copies in (``replicaLevels``) each count one. The painter draws a
  /// level in a recursion step of about 42 KB of stack (63 KB when the layer's shadow is cast by
  /// its content), so a template at the cap (at most 64 of its levels layers of its own, the rest
  /// holders) takes at most about 6.7 MB of the 8 MiB every drawing thread has. Templates refuse
  /// a deeper tree at load, ``Scene/validate()`` refuses it, and the painter stops at the cap, or
  /// at 7 MiB of stack, with an error instead of overflowing the stack.
  public static let maximumDrawingDepth = 128

  /// The levels of holder layers between a replicating layer and its last copy of the
  /// sublayers: a replicator of `n` instances draws copy `k` inside `k` chained transforms and
  /// its own holder (so `n` levels), one more with an ``LayerReplicator/instanceJitter``; 0
  /// without a replicator.
  package var replicaLevels: Int {
    guard !replicator.isNone else { return 0 }
    let count = replicator.clampedInstanceCount
    return count == 0 ? 0 : count + (replicator.instanceJitter == nil ? 0 : 1)
  }

  /// How many levels drawing this layer nests, itself included: one more for each sublayer and
  /// mask below it, plus the ``replicaLevels`` of every replicating layer on the way. Walks the
  /// tree without recursion, so any depth is measured.
  package var drawingDepth: Int {
    var deepest = 0
    var stack: [(layer: Layer, level: Int)] = [(self, 1)]
    while let (layer, level) = stack.popLast() {
      deepest = max(deepest, level)
      if let mask = layer.mask { stack.append((mask, level + 1)) }
      if !layer.replicator.isNone, layer.replicator.clampedInstanceCount == 0 { continue }
      for sublayer in layer.sublayers { stack.append((sublayer, level + 1 + layer.replicaLevels)) }
    }
    return deepest
  }
}

extension Scene {
  /// A problem when a top-level layer draws more than ``Layer/maximumDrawingDepth`` levels deep,
  /// naming the first such layer.
  var depthProblem: SceneError? {
    for layer in layers {
      let depth = layer.drawingDepth
      guard depth > Layer.maximumDrawingDepth else { continue }
      return SceneError(
        call: "layer \"\(layer.id)\"",
        reason: "its tree is drawn \(depth) levels deep (sublayers and masks nest one level each, and a replicator "
          + "of n instances puts its last copy n levels below itself), more than the cap of "
          + "\(Layer.maximumDrawingDepth) that keeps drawing within its threads' stack; use fewer instances or "
          + "nest less")
    }
    return nil
  }
}
