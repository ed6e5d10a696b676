import FlickMotion

/// A scene's ``Scene/animations`` grouped by the layer they animate, each group in the scene's
/// order, so that one walk of a layer tree applies them all: a frame costs O(layers + animations)
/// instead of one search of the whole tree per animation (10,000 animated component instances
/// took 50 s to load that way).
///
/// Applying the groups layer by layer gives what applying the animations one by one in the
/// scene's order gives: each animation writes one property of its own layer, so only the order
/// of the animations of one layer matters, and each group keeps it.
struct AnimationIndex {
  private let animations: [LayerAnimation]
  /// For each animated layer id, its group's place in ``lists``.
  private let groups: [String: Int]
  /// Positions in ``animations`` of each group's animations, in the scene's order.
  private let lists: [[Int]]

  init(_ animations: [LayerAnimation]) {
    self.animations = animations
    var groups: [String: Int] = [:]
    var lists: [[Int]] = []
    for (i, animation) in animations.enumerated() {
      if let g = groups[animation.layerID] {
        lists[g].append(i)
      } else {
        groups[animation.layerID] = lists.count
        lists.append([i])
      }
    }
    self.groups = groups
    self.lists = lists
  }

  /// One layer of a walk in tree order: where its subtree's walk ends, the group it takes, and
  /// whether any layer of its subtree takes one.
  private struct Mark {
    var end: Int
    var group: Int
    var isAnimated: Bool
  }

  /// Applies at `t`, to the layers of `roots`, the animations that name them, as searching the
  /// roots in order once per animation did: the animations of an id go to the first layer with
  /// that id in tree order (a layer, its sublayers in order, then its mask); animations of ids
  /// that are not in `roots` are skipped. `work` grows by the layers visited and the animations
  /// applied (linear in both; tests bound it).
  func apply(to roots: inout [Layer], at t: Double, work: inout Int) {
    guard !groups.isEmpty else { return }
    var claimed = Set<Int>()
    var marks: [Mark] = []
    // A first walk, reading only, finds which layer takes each group and which subtrees hold one.
    func survey(_ layer: Layer) -> Bool {
      let p = marks.count
      var group = -1
      if let g = groups[layer.id], claimed.insert(g).inserted { group = g }
      marks.append(Mark(end: p + 1, group: group, isAnimated: false))
      var isAnimated = group >= 0
      for sublayer in layer.sublayers {
        if survey(sublayer) { isAnimated = true }
      }
      if let mask = layer.mask, survey(mask) { isAnimated = true }
      marks[p].end = marks.count
      marks[p].isAnimated = isAnimated
      return isAnimated
    }
    for root in roots { _ = survey(root) }
    work += marks.count
    // The second walk writes only the subtrees that hold an animated layer (the others stay
    // shared with the tree they came from), each layer's sublayers before its own animations.
    func edit(_ layer: inout Layer, _ p: Int) {
      let mark = marks[p]
      var q = p + 1
      for i in layer.sublayers.indices {
        if marks[q].isAnimated { edit(&layer.sublayers[i], q) }
        q = marks[q].end
      }
      if q < mark.end, marks[q].isAnimated, var mask = layer.mask {
        edit(&mask, q)
        layer.mask = mask
      }
      guard mark.group >= 0 else { return }
      for i in lists[mark.group] { animations[i].apply(to: &layer, at: t) }
      work += lists[mark.group].count
    }
    var q = 0
    for i in roots.indices {
      if marks[q].isAnimated { edit(&roots[i], q) }
      q = marks[q].end
    }
  }
}
