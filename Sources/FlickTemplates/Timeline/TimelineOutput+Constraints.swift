import FlickMotion
import FlickScene

extension TimelineOutput {
  /// Adds the links that make each constrained sublayer's `size` and `position` follow its
  /// superlayer's bounds (``ConstraintLink``), from the scene's start. Called before the entries,
  /// so a link reads every animation of the superlayer's bounds once the timeline is compiled.
  mutating func addConstraints(_ list: [LayerConstraint]) throws(TemplateError) {
    for c in list {
      let size = ConstraintLink(sizeOf: c.layerID, in: c.superlayerID, layout: c.layout, anchorPoint: c.anchorPoint)
      try addLink(size, node: c.node, sourceNode: c.node)
      let position = ConstraintLink(
        positionOf: c.layerID, in: c.superlayerID, layout: c.layout, anchorPoint: c.anchorPoint)
      try addLink(position, node: c.node, sourceNode: c.node)
      constrained[c.layerID] = c.node.path
    }
  }

  /// Refuses an animation, `set`, drag or link of the size or position of a layer laid out by
  /// `constraints`: its frame follows its superlayer's, and an entry taking it over would
  /// silently end that.
  func checkConstrained(_ name: String, layerID: String, node: TemplateNode) throws(TemplateError) {
    guard let path = constrained[layerID] else { return }
    let framed = [LayerProperty<Size>.size.name, LayerProperty<Point>.position.name]
    guard AnyLayerProperty.overlapping(name).contains(where: framed.contains) else { return }
    throw node.error(
      "\(quoted: layerID) is laid out by \(quoted: path): its size and position follow its superlayer's bounds, "
        + "so '\(quoted: name)' cannot be animated; animate the superlayer's size, or move it with "
        + "transform.translation / transform.scale")
  }
}
