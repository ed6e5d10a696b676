import FlickMotion

/// Everything Flick knows about one animatable layer property, in one place: the typed
/// property, its unit, the range a template may give, which layer kind has it and which other
/// names write the same state. The template decoder, the timeline, `flick trace`, the
/// documentation test and the schema test all read ``LayerPropertyDescriptor/catalogue``.
///
/// Adding an animatable property: its `LayerProperty` static (LayerProperty+Catalogue.swift),
/// one descriptor here, its drawing (FlickRaster), its tests and its row in docs/layers.md.
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
  /// The values a template may give for a number property (nil: any finite number).
  package let range: ClosedRange<Double>?
  /// The layer kind that has it, or nil when every layer has it.
  package let contentKind: LayerContentKind?
  /// The name whose state this property writes part of (`position` for `positionX`), or nil.
  package let partOf: String?

  /// The property's name.
  package var name: String { property.name }
  /// Whether the value is an angle (templates accept `"90deg"`).
  package var isAngle: Bool { unit == .radians }

  init(
    _ property: AnyLayerProperty, _ unit: Unit, range: ClosedRange<Double>? = nil, kind: LayerContentKind? = nil,
    partOf: String? = nil
  ) {
    self.property = property
    self.unit = unit
    self.range = range
    self.contentKind = kind
    self.partOf = partOf
  }

  /// Every animatable property, in a stable order (the order of docs/layers.md).
  package static let catalogue: [LayerPropertyDescriptor] = [
    .init(.point(.position), .points), .init(.double(.positionX), .points, partOf: "position"),
    .init(.double(.positionY), .points, partOf: "position"), .init(.point(.anchorPoint), .unitCoordinates),
    .init(.rect(.bounds), .points), .init(.size(.size), .points, partOf: "bounds"), .init(.double(.zPosition), .order),
    .init(.double(.rotation), .radians), .init(.double(.rotationX), .radians), .init(.double(.rotationY), .radians),
    .init(.double(.perspective), .points, range: 0...1_000_000),
    .init(.point(.scaleXY), .factor), .init(.double(.scaleX), .factor, partOf: "scaleXY"),
    .init(.double(.scaleY), .factor, partOf: "scaleXY"),
    .init(.point(.translationXY), .points), .init(.double(.translationX), .points, partOf: "translationXY"),
    .init(.double(.translationY), .points, partOf: "translationXY"),
    .init(.double(.opacity), .fraction), .init(.color(.backgroundColor), .color),
    .init(.double(.cornerRadius), .points), .init(.double(.borderWidth), .points), .init(.color(.borderColor), .color),
    .init(.color(.shadowColor), .color), .init(.double(.shadowOpacity), .fraction),
    .init(.double(.shadowRadius), .points), .init(.point(.shadowOffset), .points),
    .init(.double(.strokeStart), .fraction, kind: .shape), .init(.double(.strokeEnd), .fraction, kind: .shape),
    .init(.double(.lineWidth), .points, kind: .shape), .init(.double(.lineDashPhase), .points, kind: .shape),
    .init(.color(.fillColor), .color, kind: .shape), .init(.color(.strokeColor), .color, kind: .shape),
    .init(.double(.fontSize), .points, kind: .text), .init(.double(.tracking), .points, kind: .text),
    .init(.color(.textColor), .color, kind: .text), .init(.double(.number), .number, kind: .text),
    .init(.colors(.colors), .color, kind: .gradient), .init(.point(.startPoint), .unitCoordinates, kind: .gradient),
    .init(.point(.endPoint), .unitCoordinates, kind: .gradient),
    .init(.double(.lottieFrame), .frames, kind: .lottie), .init(.double(.lottieProgress), .fraction, kind: .lottie),
  ]

  private static let byName: [String: LayerPropertyDescriptor] = Dictionary(
    uniqueKeysWithValues: catalogue.map { ($0.name, $0) })

  /// The descriptor of the property `name`, or nil.
  package static func named(_ name: String) -> LayerPropertyDescriptor? { byName[name] }

  /// Names that write the same state, derived from ``partOf``: each root with its parts.
  static let stateGroups: [[String]] = catalogue.compactMap { root in
    let parts = catalogue.filter { $0.partOf == root.name }.map(\.name)
    return parts.isEmpty ? nil : [root.name] + parts
  }
}
