import FlickMotion

/// An animatable property of a ``Layer``: a stable name, how to read and write it, and the rest
/// threshold below which a change is invisible (Pop's `POPAnimatableProperty`).
public struct LayerProperty<Value: Animatable>: Sendable {
  /// The name templates and animations use (`position`, `opacity`, …), as in Core Animation and Pop.
  public let name: String
  /// A change smaller than this (in the value's units, Euclidean) is not visible.
  public let threshold: Double
  /// Reads the property.
  public let read: @Sendable (Layer) -> Value
  /// Writes the property.
  public let write: @Sendable (inout Layer, Value) -> Void

  public init(
    name: String, threshold: Double,
    read: @escaping @Sendable (Layer) -> Value,
    write: @escaping @Sendable (inout Layer, Value) -> Void
  ) {
    self.name = name
    self.threshold = threshold
    self.read = read
    self.write = write
  }
}

extension LayerProperty where Value == Point {
  /// `position`: the anchor point's location in the superlayer, in points.
  public static let position = LayerProperty(
    name: "position", threshold: 0.5, read: { $0.position }, write: { $0.position = $1 })
}

extension LayerProperty where Value == Double {
  /// `opacity`, `0…1`.
  public static let opacity = LayerProperty(
    name: "opacity", threshold: 1.0 / 255, read: { $0.opacity }, write: { $0.opacity = $1 })
  /// `cornerRadius`, in points.
  public static let cornerRadius = LayerProperty(
    name: "cornerRadius", threshold: 0.25, read: { $0.cornerRadius },
    write: { $0.cornerRadius = $1 })
}

extension LayerProperty where Value == Color {
  /// `backgroundColor`.
  public static let backgroundColor = LayerProperty(
    name: "backgroundColor", threshold: 1.0 / 255, read: { $0.backgroundColor },
    write: { $0.backgroundColor = $1 })
}

extension LayerProperty where Value == Rect {
  /// `bounds`, in points.
  public static let bounds = LayerProperty(
    name: "bounds", threshold: 0.5, read: { $0.bounds }, write: { $0.bounds = $1 })
}
