import FlickMotion

extension Scene {
  /// Replaces the sublayers of every layer with a ``Layer/replicator`` in `roots` (evaluated at
  /// `t`) by their instances; `base` is the same tree before any animation was applied.
  ///
  /// Instance `k` of a replicator's sublayers is the base sublayers with the animations of
  /// that subtree applied at `t − k·instanceDelay`; a nested replicator expands at its
  /// instance's time. Each instance becomes a holder layer with the replicator's bounds (so its
  /// coordinates are the replicator's), tinted by the instance colour; holder `k ≥ 1` sits in
  /// a chain of transforms so `instanceTransform` composes `k` times about the bounds' centre.
  /// With an ``LayerReplicator/instanceJitter``, instance `k`'s delay gains its jitter delay, its
  /// colour's alpha its opacity factor, and its sublayers sit in one more holder transformed by
  /// its jitter (about the same centre). `animations` indexes ``animations``; `work` grows by
  /// the layers each delayed copy visits and the animations it applies.
  func expandReplicators(
    _ roots: inout [Layer], base: [Layer], animations: AnimationIndex, at t: Double, work: inout Int
  ) {
    guard roots.contains(where: \.hasReplicator) else { return }
    for i in roots.indices {
      let b = i < base.count && base[i].id == roots[i].id ? base[i] : roots[i]
      expand(&roots[i], base: b, animations: animations, at: t, work: &work)
    }
  }

  private func expand(_ layer: inout Layer, base: Layer, animations: AnimationIndex, at t: Double, work: inout Int) {
    guard layer.hasReplicator else { return }
    func baseSublayer(_ i: Int, of l: Layer, in b: Layer) -> Layer {
      i < b.sublayers.count && b.sublayers[i].id == l.sublayers[i].id ? b.sublayers[i] : l.sublayers[i]
    }
    for i in layer.sublayers.indices {
      expand(
        &layer.sublayers[i], base: baseSublayer(i, of: layer, in: base), animations: animations, at: t, work: &work)
    }
    // A mask replicates as any layer does (its copies mask together).
    if var mask = layer.mask, mask.hasReplicator {
      let baseMask = base.mask.flatMap { $0.id == mask.id ? $0 : nil } ?? mask
      expand(&mask, base: baseMask, animations: animations, at: t, work: &work)
      layer.mask = mask
    }
    let r = layer.replicator
    guard !r.isNone else { return }
    layer.replicator = .none
    let count = r.clampedInstanceCount
    let b = layer.bounds
    let centre = Point(x: b.minX + b.width / 2, y: b.minY + b.height / 2)
    func holder(_ id: String, _ sublayers: [Layer], transform: LayerTransform = .identity, color: Color = .white)
      -> Layer
    {
      Layer(id: id, bounds: b, position: centre, transform: transform, sublayers: sublayers, colorMultiplier: color)
    }
    var instances: [Layer] = []
    instances.reserveCapacity(count)
    for k in 0..<count {
      var sublayers = layer.sublayers
      let jitter = r.instanceJitter?.offsets(ofInstance: k)
      let delay = Double(k) * r.instanceDelay + (jitter?.delay ?? 0)
      if delay != 0 {
        let tk = t - delay
        let baseSublayers = base.sublayers.count == layer.sublayers.count ? base.sublayers : layer.sublayers
        // The copy's subtree with its own layers' animations: a walk of the subtree, not of
        // every animation of the scene.
        sublayers = baseSublayers
        animations.apply(to: &sublayers, at: tk, work: &work)
        for i in sublayers.indices {
          expand(&sublayers[i], base: baseSublayers[i], animations: animations, at: tk, work: &work)
        }
      }
      var color = r.color(ofInstance: k)
      if let jitter {
        color.alpha *= jitter.opacity
        // The jitter's own holder, inside the instance's place in the chain.
        sublayers = [holder("\(layer.id)#\(k)~", sublayers, transform: jitter.transform)]
      }
      instances.append(holder("\(layer.id)#\(k)", sublayers, color: color))
    }
    // Instance k ≥ 1 is drawn inside k nested transforms; each link of the chain holds its
    // instance and the next link, drawn above it.
    var chain: Layer?
    for k in stride(from: count - 1, through: 1, by: -1) {
      chain = holder("\(layer.id)#\(k)>", [instances[k]] + (chain.map { [$0] } ?? []), transform: r.instanceTransform)
    }
    layer.sublayers = count == 0 ? [] : [instances[0]] + (chain.map { [$0] } ?? [])
  }
}

extension Layer {
  /// Whether this layer, one of its sublayers or its mask (and theirs) replicates.
  var hasReplicator: Bool {
    !replicator.isNone || sublayers.contains(where: \.hasReplicator) || (mask?.hasReplicator ?? false)
  }
}
