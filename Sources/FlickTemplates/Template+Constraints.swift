import FlickMotion
import FlickScene

/// A sublayer laid out by `constraints`: what the timeline compiler turns into the links of its
/// `size` and `position` (``TimelineOutput/addConstraints(_:)``).
struct LayerConstraint {
  /// The constrained sublayer.
  var layerID: String
  /// Its superlayer, whose bounds it follows.
  var superlayerID: String
  var layout: ConstraintLayout
  /// The sublayer's anchor point as written.
  var anchorPoint: Point
  /// The `constraints` object (errors about the layer point at it).
  var node: TemplateNode
}

extension Template {
  /// Keys of a layer's `constraints` object: insets from the superlayer's edges (`left`, `right`,
  /// `top`, `bottom`), fixed lengths (`width`, `height`) and offsets of the centre from the
  /// superlayer's centre (`centerX`, `centerY`), points.
  static let constraintKeys = ["left", "right", "top", "bottom", "width", "height", "centerX", "centerY"]

  /// Lays out every sublayer with `constraints` in `layers` (decoded from the layer objects
  /// `nodes`, in the same order) in its superlayer's bounds as written, top down, and returns
  /// the constraints for the timeline to follow.
  static func applyConstraints(_ nodes: [TemplateNode], to layers: inout [Layer]) throws(TemplateError)
    -> [LayerConstraint]
  {
    var out: [LayerConstraint] = []
    for (node, i) in zip(nodes, layers.indices) { try constrain(node, &layers[i], superlayer: nil, into: &out) }
    return out
  }

  private static func constrain(
    _ node: TemplateNode, _ layer: inout Layer, superlayer: Layer?, into out: inout [LayerConstraint]
  ) throws(TemplateError) {
    guard case .object(let members) = node.value.kind else { return }
    var constraintsNode: TemplateNode?
    var sublayers: [TemplateNode] = []
    for m in members {
      switch m.key {
      case "constraints": constraintsNode = node.child(m.key, m.value)
      case "sublayers": sublayers = try node.child(m.key, m.value).array()
      case "mask":
        let mask = node.child(m.key, m.value)
        if case .object(let inner) = mask.value.kind, let c = inner.first(where: { $0.key == "constraints" }) {
          throw mask.child(c.key, c.value).error(
            "a mask is drawn in its layer's bounds and has no superlayer to follow; 'constraints' lay out sublayers")
        }
      default: continue
      }
    }
    if let c = constraintsNode {
      guard let superlayer else {
        throw c.error(
          "'constraints' lay a sublayer out in its superlayer's bounds, and \(quoted: layer.id) is a top-level "
            + "layer; place it with 'position' and 'size'")
      }
      let layout = try decodeConstraints(c, layer: layer, superBounds: superlayer.bounds)
      let frame = layout.layout(in: superlayer.bounds, anchorPoint: layer.anchorPoint)
      layer.bounds.size = frame.size
      layer.position = frame.position
      out.append(
        LayerConstraint(
          layerID: layer.id, superlayerID: superlayer.id, layout: layout, anchorPoint: layer.anchorPoint, node: c))
    }
    let laidOut = layer
    for (child, i) in zip(sublayers, layer.sublayers.indices) {
      try constrain(child, &layer.sublayers[i], superlayer: laidOut, into: &out)
    }
  }

  /// The layout a `constraints` object gives `layer` in a superlayer with bounds `superBounds`.
  static func decodeConstraints(_ node: TemplateNode, layer: Layer, superBounds: Rect) throws(TemplateError)
    -> ConstraintLayout
  {
    let o = try node.object(allowed: constraintKeys)
    guard !o.isEmpty else {
      throw node.error(
        "'constraints' is empty; give insets or lengths: \(quoted: constraintKeys.joined(separator: ", "))")
    }
    let horizontal = try axis(
      o, node, keys: ["left", "right", "width", "centerX"], direction: "horizontally",
      own: (layer.position.x, layer.bounds.width, layer.anchorPoint.x), superLength: superBounds.width, id: layer.id)
    let vertical = try axis(
      o, node, keys: ["top", "bottom", "height", "centerY"], direction: "vertically",
      own: (layer.position.y, layer.bounds.height, layer.anchorPoint.y), superLength: superBounds.height, id: layer.id)
    return ConstraintLayout(horizontal: horizontal, vertical: vertical)
  }

  /// One axis: `keys` are the leading inset, trailing inset, length and centre offset.
  private static func axis(
    _ o: [String: TemplateNode], _ node: TemplateNode, keys: [String], direction: String,
    own: (position: Double, length: Double, anchor: Double), superLength: Double, id: String
  ) throws(TemplateError) -> AxisLayout {
    let present = keys.filter { o[$0] != nil }
    if present.count > 2, let third = o[present[2]] {
      throw third.error(
        "over-constrained: \(quoted: present.map { "'\($0)'" }.joined(separator: ", ")) all lay \(quoted: id) out "
          + "\(quoted: direction); give at most two of \(quoted: keys.joined(separator: ", "))")
    }
    if present == [keys[2]], let n = o[keys[2]] {
      throw n.error(
        "under-constrained: '\(quoted: keys[2])' alone does not say where \(quoted: id) sits \(quoted: direction); "
          + "add '\(quoted: keys[0])', '\(quoted: keys[1])' or '\(quoted: keys[3])'")
    }
    let lead = try o[keys[0]]?.double()
    let trail = try o[keys[1]]?.double()
    let fixed = try o[keys[2]]?.double(in: Self.constrainedLengthRange)
    let center = try o[keys[3]]?.double()
    /// Leading `origin + leadingFactor · length + leadingOffset`, length `lengthFactor · length + lengthOffset`.
    func pin(_ leadingFactor: Double, _ leadingOffset: Double, _ lengthFactor: Double, _ lengthOffset: Double)
      -> AxisLayout
    {
      AxisLayout(
        originFactor: 1, leadingFactor: leadingFactor, leadingOffset: leadingOffset, lengthFactor: lengthFactor,
        lengthOffset: lengthOffset)
    }
    let layout: AxisLayout
    switch (lead, trail, fixed, center) {
    case (nil, nil, nil, nil):
      return AxisLayout(
        originFactor: 0, leadingFactor: 0, leadingOffset: own.position - own.anchor * own.length, lengthFactor: 0,
        lengthOffset: own.length)
    case (let l?, let r?, nil, nil): layout = pin(0, l, 1, -l - r)
    case (let l?, nil, let w?, nil): layout = pin(0, l, 0, w)
    case (nil, let r?, let w?, nil): layout = pin(1, -r - w, 0, w)
    case (nil, nil, let w?, let c?): layout = pin(0.5, c - w / 2, 0, w)
    case (let l?, nil, nil, let c?): layout = pin(0, l, 1, 2 * c - 2 * l)
    case (nil, let r?, nil, let c?): layout = pin(0, r + 2 * c, 1, -2 * r - 2 * c)
    case (let l?, nil, nil, nil): layout = pin(0, l, 0, own.length)
    case (nil, let r?, nil, nil): layout = pin(1, -r - own.length, 0, own.length)
    case (nil, nil, nil, let c?): layout = pin(0.5, c - own.length / 2, 0, own.length)
    default: throw node.error("unreachable constraint combination")  // more than two keys are refused above
    }
    let length = layout.rawLength(superLength)
    if length < 0 {
      let written = present.map { "\($0) \(TemplateNode.format(o[$0].flatMap { try? $0.double() } ?? 0))" }
      throw node.error(
        "the constraints leave \(quoted: id) \(TemplateNode.format(length)) points long \(quoted: direction) in its "
          + "superlayer of \(TemplateNode.format(superLength)) "
          + "(\(quoted: written.joined(separator: ", "))); they must leave "
          + "room for it")
    }
    return layout
  }
}

extension Template {
  /// The schema of a layer's `constraints` object.
  static var constraintsSchema: SchemaNode {
    let descriptions = [
      "left": "Inset of the left edge from the superlayer's left edge, points.",
      "right": "Inset of the right edge from the superlayer's right edge, points.",
      "top": "Inset of the top edge from the superlayer's top edge, points.",
      "bottom": "Inset of the bottom edge from the superlayer's bottom edge, points.",
      "width": "Fixed width, points.",
      "height": "Fixed height, points.",
      "centerX": "Offset of the centre from the superlayer's centre, points (positive: right).",
      "centerY": "Offset of the centre from the superlayer's centre, points (positive: down).",
    ]
    return [
      "description":
        "Lays this sublayer out in its superlayer's bounds (Auto Layout pins): at most two keys per axis; its size and position follow the superlayer's size when it animates.",
      "type": "object", "minProperties": 1, "additionalProperties": false,
      "properties": .fields(
        constraintKeys.map { key in
          let range: SchemaNode =
            key == "width" || key == "height" ? TemplateSchema.number(in: constrainedLengthRange) : .ref("number")
          return (key, TemplateSchema.described(range, descriptions[key] ?? ""))
        }),
    ]
  }
}
