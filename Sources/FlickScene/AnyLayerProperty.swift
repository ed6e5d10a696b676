import FlickMotion

/// A ``LayerProperty`` of any value type, so properties can be looked up by name (for
/// templates) and their value type discovered by switching over the cases.
///
///     switch AnyLayerProperty.named("strokeEnd") {
///     case .double(let p)?: LayerAnimation(layerID: "ring", property: p, tween: …)
///     default: …
///     }
package enum AnyLayerProperty: Sendable {
  case double(LayerProperty<Double>)
  case point(LayerProperty<Point>)
  case size(LayerProperty<Size>)
  case rect(LayerProperty<Rect>)
  case color(LayerProperty<Color>)
  case colors(LayerProperty<ColorList>)

  /// The property's name.
  package var name: String {
    switch self {
    case .double(let p): p.name
    case .point(let p): p.name
    case .size(let p): p.name
    case .rect(let p): p.name
    case .color(let p): p.name
    case .colors(let p): p.name
    }
  }

  /// The property's rest threshold.
  package var threshold: Double {
    switch self {
    case .double(let p): p.threshold
    case .point(let p): p.threshold
    case .size(let p): p.threshold
    case .rect(let p): p.threshold
    case .color(let p): p.threshold
    case .colors(let p): p.threshold
    }
  }

  /// A short name of the value type for messages: `number`, `point`, `size`, `rect`, `color`, `colors`.
  package var valueTypeName: String {
    switch self {
    case .double: "number"
    case .point: "point"
    case .size: "size"
    case .rect: "rect"
    case .color: "color"
    case .colors: "colors"
    }
  }

  /// The property's entry in ``LayerPropertyDescriptor/catalogue``.
  package var descriptor: LayerPropertyDescriptor? { LayerPropertyDescriptor.named(name) }

  /// The layer kind the property belongs to, or nil when every layer has it.
  package var contentKind: LayerContentKind? { descriptor?.contentKind }

  /// Whether `layer` has this property (its kind matches ``contentKind``).
  package func applies(to layer: Layer) -> Bool {
    contentKind.map { $0 == layer.content.kind } ?? true
  }

  /// Every animatable property, in the catalogue's order.
  package static let all: [AnyLayerProperty] = LayerPropertyDescriptor.catalogue.map(\.property)

  private static let byName: [String: AnyLayerProperty] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// Every property name, in the order of ``all``.
  package static var names: [String] { all.map(\.name) }

  /// The property called `name` (case-sensitive, as in Pop and Core Animation), or nil.
  package static func named(_ name: String) -> AnyLayerProperty? { byName[name] }

  /// Names that write the same layer state under different names (`position` writes what
  /// `positionX` and `positionY` write), from the catalogue. Animations of one group must be
  /// listed in time order and hand motion over to each other.
  package static var stateGroups: [[String]] { LayerPropertyDescriptor.stateGroups }

  private static let groupOf: [String: [String]] = {
    var out: [String: [String]] = [:]
    for group in stateGroups { for name in group { out[name] = group } }
    return out
  }()

  /// Every name writing the state `name` writes, `name` included (just `[name]` for most).
  package static func sameState(as name: String) -> [String] { groupOf[name] ?? [name] }

  /// Writes the value type's zero into `layer` (clearing the state this property writes).
  package func writeZero(into layer: inout Layer) {
    switch self {
    case .double(let p): p.write(&layer, .zero)
    case .point(let p): p.write(&layer, .zero)
    case .size(let p): p.write(&layer, .zero)
    case .rect(let p): p.write(&layer, .zero)
    case .color(let p): p.write(&layer, .zero)
    case .colors(let p): p.write(&layer, .zero)
    }
  }
}
