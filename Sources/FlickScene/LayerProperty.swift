import FlickMotion

/// An animatable property of a ``Layer``: a stable name, how to read and write it, and the rest
/// threshold below which a change is invisible (Pop's `POPAnimatableProperty`).
///
/// Every visual property has a static here under its Pop / Core Animation name; look one up by
/// name, with its value type, through ``AnyLayerProperty/named(_:)``. Properties of a layer kind
/// (`strokeEnd`, `fontSize`, `colors`, …) read a neutral value and ignore writes on layers of
/// another kind (see ``AnyLayerProperty/contentKind``).
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

/// Rest thresholds sized to what the eye sees at scale 1.
enum Threshold {
  /// Half a point.
  static let points = 0.5
  /// One 8-bit colour step.
  static let colorStep = 1.0 / 255
  /// One 8-bit step of an opacity.
  static let unit = 1.0 / 255
  /// About half a point at 100 points from the pivot (radians).
  static let angle = 0.005
  /// About half a point on a 100-point layer.
  static let scale = 0.005
  /// About half a point along a 100-point path.
  static let fraction = 0.005
}
