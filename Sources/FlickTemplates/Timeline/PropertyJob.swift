import FlickMotion
import FlickScene

/// A writer's work on one property of one layer, done once the property's value type is known
/// (``AnyLayerProperty/write(_:layerID:into:)`` picks it): each writer has its own (an
/// animation, a set, a drag, an animator's group, a link).
protocol PropertyJob {
  /// Writes the property `p` of the layer `layerID` into `output`, reading and checking its
  /// values with `values` (the catalogue row's value type and range). Returns the end time of
  /// what it wrote, seconds.
  func write<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, values: PropertyValueDecoder<V>, into output: inout TimelineOutput
  ) throws(TemplateError) -> Double
}

extension AnyLayerProperty {
  /// Runs `job` on this property with its value type and its catalogue row's range (through a
  /// ``PropertyValueDecoder``): the one place that switches over the catalogue's value types.
  /// Returns the end time of what it wrote.
  func write(_ job: some PropertyJob, layerID: String, into output: inout TimelineOutput) throws(TemplateError)
    -> Double
  {
    let d = descriptor
    switch self {
    case .double(let p): return try job.write(p, layerID: layerID, values: .number(d), into: &output)
    case .point(let p): return try job.write(p, layerID: layerID, values: .point(d), into: &output)
    case .size(let p): return try job.write(p, layerID: layerID, values: .size(d), into: &output)
    case .rect(let p): return try job.write(p, layerID: layerID, values: .rect(d), into: &output)
    case .color(let p): return try job.write(p, layerID: layerID, values: .color(d), into: &output)
    case .colors(let p): return try job.write(p, layerID: layerID, values: .colors(d), into: &output)
    }
  }

  /// The animatable property `name` of the layer, checked against the catalogue and the layer's
  /// kind (the property a timeline entry names at `node`). When the name is a key (`animate: {
  /// scale: 1 }`), `key` is its member: an error then points at the key, not at its value.
  static func timeline(
    named name: String, _ valueNode: TemplateNode, key: JSON5Value.Member? = nil, layer: Layer?, layerID: String
  )
    throws(TemplateError) -> AnyLayerProperty
  {
    let node = key.map { valueNode.atKey($0) } ?? valueNode
    guard let property = AnyLayerProperty.named(name) else {
      var message = "'\(quoted: name)' is not an animatable property"
      if let alias = LayerPropertyDescriptor.resolving(name) {
        message += "; the timeline calls it '\(escaped: alias.name)'"
      } else if let guess = TemplateNode.closest(to: name, in: AnyLayerProperty.names) {
        message += "; did you mean '\(escaped: guess)'?"
      }
      throw node.error(message + " (properties: \(AnyLayerProperty.names.joined(separator: ", ")))")
    }
    if let layer, !property.applies(to: layer), let kind = property.contentKind {
      throw node.error(
        "'\(quoted: name)' is a property of \(kind.rawValue) layers, but '\(quoted: layerID)' is "
          + "not a \(kind.rawValue) layer")
    }
    return property
  }
}

extension TemplateNode {
  /// An angle: radians as a number, or degrees as `"90deg"` (``degrees(_:)``).
  func radians() throws(TemplateError) -> Double {
    if case .string(let s) = value.kind {
      guard let degrees = Self.degrees(s) else {
        throw error(
          "expected an angle in radians (a number) or degrees like \"90deg\" (a decimal number directly "
            + "followed by 'deg'), found \"\(quoted: s)\"")
      }
      return degrees * .pi / 180
    }
    return try double()
  }

  /// The degrees of an angle written as text: a ``DecimalText`` number directly followed by
  /// `deg`, nothing around them (`"90deg"`, `"-4.5deg"`, `"1e2deg"`), else nil.
  static func degrees(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    guard bytes.count > 3, bytes.suffix(3).elementsEqual("deg".utf8) else { return nil }
    return DecimalText.value(utf8: Array(bytes.dropLast(3)))
  }

  /// ``degrees(_:)``'s grammar as a JSON Schema `pattern`.
  package static let degreesPattern = "^" + DecimalText.pattern + "deg" + TemplateSchema.endOfText

  /// A rectangle: `[x, y, width, height]` or `{ x, y, width, height }`.
  func rect() throws(TemplateError) -> Rect {
    if case .object = value.kind {
      let o = try object(allowed: ["x", "y", "width", "height"])
      guard let x = o["x"], let y = o["y"], let w = o["width"], let h = o["height"] else {
        throw error("a rectangle needs 'x', 'y', 'width' and 'height'")
      }
      return Rect(x: try x.double(), y: try y.double(), width: try w.double(), height: try h.double())
    }
    let v = try numbers(count: 4)
    return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
  }
}
