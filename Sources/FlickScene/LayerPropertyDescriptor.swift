import FlickMotion

/// Everything Flick knows about one animatable layer property, in one row: the typed property,
/// its unit, the range a written value may take, which layer kind has it, which other names write
/// the same state, its key in a template's layer object and its Swift key path. The template
/// decoder (layer keys and every timeline entry), the JSON Schema, `flick info --properties`,
/// `flick trace`, the table in docs/layers.md and ``LayerProperty/init(_:)`` all read
/// ``LayerPropertyDescriptor/catalogue`` (its rows are in LayerProperty+Catalogue.swift, next to
/// the typed properties).
package struct LayerPropertyDescriptor: Sendable {
  /// The unit of a property's value (of each component).
  package enum Unit: String, Sendable, CaseIterable {
    /// Points (1 point = 1 pixel at scale 1).
    case points
    /// Radians; templates may write degrees as `"90deg"`.
    case radians
    /// A fraction `0…1` (opacity, strokeEnd, …).
    case fraction
    /// A scale factor (1 = natural size).
    case factor
    /// Unit coordinates of the layer's bounds (anchorPoint, gradient points).
    case unitCoordinates
    /// A colour: red, green, blue, alpha in `0…1`.
    case color
    /// A drawing order (zPosition).
    case order
    /// Frames of a Lottie animation, counted from its in point.
    case frames
    /// A plain number (a text layer's `number`, shown through its format).
    case number
  }

  /// The typed property.
  package let property: AnyLayerProperty
  /// The unit of its value.
  package let unit: Unit
  /// The values a template or a `set` may write, for each ranged component: the number itself,
  /// both coordinates of a point, width and height of a size or of a rectangle (its origin is
  /// free); nil when any finite value is fine (colours are always `0…1` per channel). Animated
  /// values between written ones may leave it (a spring overshooting opacity 1 is drawn clamped).
  package let range: ClosedRange<Double>?
  /// The layer kind that has it, or nil when every layer has it.
  package let contentKind: LayerContentKind?
  /// The name whose state this property writes part of (`position` for `positionX`), or nil.
  package let partOf: String?
  /// Its key in a template's layer object (`opacity`; `transform.scale` inside `transform`), or
  /// nil when a layer object has no key of its own for it (`positionX`, `bounds`).
  package let layerKey: String?
  /// Its key path from ``Layer`` and that path's spelling (`\Layer.transform.scale`,
  /// `transform.scale`), or nil for a property of a layer kind (reached through the content).
  package let keyPath: (path: AnyKeyPath & Sendable, spelling: String)?

  /// The property's name.
  package var name: String { property.name }
  /// Whether the value is an angle (templates accept `"90deg"`).
  package var isAngle: Bool { unit == .radians }
  /// Other names of the same state, for messages and the docs: the layer key and the key path's
  /// spelling where they differ from ``name``.
  package var aliases: [String] {
    var out: [String] = []
    for alias in [layerKey, keyPath?.spelling].compactMap({ $0 }) where alias != name && !out.contains(alias) {
      out.append(alias)
    }
    return out
  }

  init(
    _ property: AnyLayerProperty, _ unit: Unit, range: ClosedRange<Double>? = nil, kind: LayerContentKind? = nil,
    partOf: String? = nil, key: String? = nil, path: (AnyKeyPath & Sendable, String)? = nil
  ) {
    self.property = property
    self.unit = unit
    self.range = range
    self.contentKind = kind
    self.partOf = partOf
    self.layerKey = key
    self.keyPath = path.map { (path: $0.0, spelling: $0.1) }
  }

  private static let byName: [String: LayerPropertyDescriptor] = Dictionary(
    uniqueKeysWithValues: catalogue.map { ($0.name, $0) })

  /// The descriptor of the property `name`, or nil.
  package static func named(_ name: String) -> LayerPropertyDescriptor? { byName[name] }

  /// The descriptor whose name or alias is `name` (`transform.scale` is `scaleXY`), or nil.
  package static func resolving(_ name: String) -> LayerPropertyDescriptor? {
    byName[name] ?? catalogue.first { $0.aliases.contains(name) }
  }

  /// Names that write the same state, derived from ``partOf``: each root with its parts.
  static let stateGroups: [[String]] = catalogue.compactMap { root in
    let parts = catalogue.filter { $0.partOf == root.name }.map(\.name)
    return parts.isEmpty ? nil : [root.name] + parts
  }

  // MARK: - Range

  /// The range as text for messages and the docs: `0…1`, `≥ 0`, `any`.
  package var rangeText: String {
    guard let range else { return "any" }
    if range.upperBound == .infinity { return "≥ \(Self.format(range.lowerBound))" }
    return "\(Self.format(range.lowerBound))…\(Self.format(range.upperBound))"
  }

  /// What is wrong with the written number `value` of the component `component` (`""` for a
  /// number, `x`, `width`, …), or nil when it is in ``range``: `expected a number in 0…1, found 2`.
  package func rangeProblem(_ value: Double, component: String = "") -> String? {
    guard let range, !range.contains(value) else { return nil }
    let what = component.isEmpty ? "a number" : component
    let bound =
      range.upperBound == .infinity
      ? "≥ \(Self.format(range.lowerBound))"
      : "in \(Self.format(range.lowerBound))…\(Self.format(range.upperBound))"
    return "expected \(what) \(bound), found \(Self.format(value))"
  }

  /// What is wrong with a written point (either coordinate), or nil.
  package func rangeProblem(_ value: Point) -> String? {
    rangeProblem(value.x, component: "x") ?? rangeProblem(value.y, component: "y")
  }

  /// What is wrong with a written size (width or height), or nil.
  package func rangeProblem(_ value: Size) -> String? {
    rangeProblem(value.width, component: "width") ?? rangeProblem(value.height, component: "height")
  }

  /// What is wrong with a written rectangle (its size; the origin is free), or nil.
  package func rangeProblem(_ value: Rect) -> String? { rangeProblem(value.size) }

  /// Colours have no range beyond their channels' `0…1`, which every colour keeps.
  package func rangeProblem(_ value: Color) -> String? { nil }

  /// Colour lists have no range beyond their channels' `0…1`.
  package func rangeProblem(_ value: ColorList) -> String? { nil }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}
