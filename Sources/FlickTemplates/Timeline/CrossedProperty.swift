import FlickMotion
import FlickScene

/// The number a `when` entry watches: a number property (`positionY`, `opacity`, `rotation`),
/// or one component of a point, size, rectangle or colour (`position.y`, `size.height`,
/// `bounds.width`, `backgroundColor.alpha`), under the names and key paths the rest of the
/// timeline accepts (the catalogue's names and aliases).
struct CrossedProperty {
  /// The catalogue name whose track is read (`positionY` for `position.y`, `size` for `size.height`).
  let trackName: String
  /// Whether the value is an angle (`crosses` may be written `"90deg"`).
  let isAngle: Bool
  /// The value and velocity at a scene time, from a side.
  let read: @Sendable (PropertyTracks, String, Double, TrackLimit) -> (value: Double, velocity: Double)

  /// A component of a point, size, rectangle or colour.
  enum Component: String, CaseIterable {
    case x, y, width, height, red, green, blue, alpha
  }

  /// The components each value type has.
  private static func components(of property: AnyLayerProperty) -> [Component] {
    switch property {
    case .double, .colors: []
    case .point: [.x, .y]
    case .size: [.width, .height]
    case .rect: [.x, .y, .width, .height]
    case .color: [.red, .green, .blue, .alpha]
    }
  }

  /// Every name `when` accepts, for suggestions and the schema, each once (a number property's
  /// alias can also spell a component: `position.x` is `positionX`'s and `position`'s).
  static let names: [String] = {
    var out: [String] = []
    var seen: Set<String> = []
    for d in LayerPropertyDescriptor.catalogue {
      let spellings = [d.name] + d.aliases
      let parts = components(of: d.property)
      var own: [String] = []
      if case .double = d.property { own += spellings }
      for s in spellings { own += parts.map { "\(s).\($0.rawValue)" } }
      out += own.filter { seen.insert($0).inserted }
    }
    return out
  }()

  /// The names among ``names`` whose value is an angle (`crosses` may be `"90deg"` for them).
  static var angleNames: [String] {
    names.filter { LayerPropertyDescriptor.resolving($0)?.isAngle == true }
  }

  init(_ written: String, _ node: TemplateNode, layer: Layer?, layerID: String) throws(TemplateError) {
    var base = LayerPropertyDescriptor.resolving(written)
    var component: String?
    if base == nil, let dot = written.lastIndex(of: ".") {
      base = LayerPropertyDescriptor.resolving(String(written[..<dot]))
      component = String(written[written.index(after: dot)...])
      if base != nil, component.flatMap(Component.init(rawValue:)) == nil {
        base = nil
      }
    }
    guard let d = base else {
      var message = "'\(quoted: written)' is not a property 'when' can watch"
      if let guess = TemplateNode.closest(to: written, in: Self.names) {
        message += "; did you mean '\(escaped: guess)'?"
      }
      throw node.error(message + " (a number property such as positionY or opacity, or a component: position.y)")
    }
    if let layer, !d.property.applies(to: layer), let kind = d.contentKind {
      throw node.error(
        "'\(quoted: written)' is a property of \(kind.rawValue) layers, but '\(quoted: layerID)' is "
          + "not a \(kind.rawValue) layer")
    }
    let parts = Self.components(of: d.property)
    trackName = d.name
    isAngle = d.isAngle
    switch (d.property, component) {
    case (.double(let p), nil):
      read = { tracks, id, t, side in tracks.state(of: p, layerID: id, at: t, limit: side) }
      return
    case (_, nil) where !parts.isEmpty:
      throw node.error(
        "'\(quoted: written)' is a \(quoted: d.property.valueTypeName): watch one component, "
          + parts.map { "'\(quoted: written).\(quoted: $0.rawValue)'" }.joined(separator: " or "))
    case (_, let c?):
      guard let part = Component(rawValue: c), parts.contains(part), let reader = Self.reader(d.property, part) else {
        var message = "'\(quoted: written)' is not a property 'when' can watch"
        if parts.isEmpty {
          message += ": \(quoted: d.name) is a \(quoted: d.property.valueTypeName) and has no components"
        } else {
          message += "; a \(quoted: d.property.valueTypeName) has " + parts.map(\.rawValue).joined(separator: ", ")
        }
        throw node.error(message)
      }
      read = reader
    default:
      throw node.error("'\(quoted: written)' is a \(quoted: d.property.valueTypeName), which 'when' cannot watch")
    }
  }

  /// Reads component `c` of a point, size, rectangle or colour property (nil where it has none).
  private static func reader(_ property: AnyLayerProperty, _ c: Component)
    -> (@Sendable (PropertyTracks, String, Double, TrackLimit) -> (value: Double, velocity: Double))?
  {
    func pick<V: Animatable>(_ p: LayerProperty<V>, _ get: @escaping @Sendable (V) -> Double)
      -> @Sendable (PropertyTracks, String, Double, TrackLimit) -> (value: Double, velocity: Double)
    {
      { tracks, id, t, side in
        let s = tracks.state(of: p, layerID: id, at: t, limit: side)
        return (get(s.value), get(s.velocity))
      }
    }
    switch (property, c) {
    case (.point(let p), .x): return pick(p) { $0.x }
    case (.point(let p), .y): return pick(p) { $0.y }
    case (.size(let p), .width): return pick(p) { $0.width }
    case (.size(let p), .height): return pick(p) { $0.height }
    case (.rect(let p), .x): return pick(p) { $0.origin.x }
    case (.rect(let p), .y): return pick(p) { $0.origin.y }
    case (.rect(let p), .width): return pick(p) { $0.size.width }
    case (.rect(let p), .height): return pick(p) { $0.size.height }
    case (.color(let p), .red): return pick(p) { $0.red }
    case (.color(let p), .green): return pick(p) { $0.green }
    case (.color(let p), .blue): return pick(p) { $0.blue }
    case (.color(let p), .alpha): return pick(p) { $0.alpha }
    case (.double, _), (.colors, _), (.point, _), (.size, _), (.rect, _), (.color, _): return nil
    }
  }
}
