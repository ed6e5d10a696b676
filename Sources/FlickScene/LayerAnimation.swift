import FlickMotion

/// One animation bound to one property of one layer, placed on the scene's timeline.
///
/// It is a pure function of time: ``apply(to:at:)`` writes the value the animation has at scene
/// time `t` (seconds) once it has begun, and holds the end value after it finishes (Core
/// Animation's fill mode `forwards`); before `beginTime` it leaves the layer untouched.
public struct LayerAnimation: Sendable {
  /// The animated layer's ``Layer/id``.
  public let layerID: String
  /// The animated property's name (for messages and tracing).
  public let propertyName: String
  /// Scene time at which the animation starts, in seconds.
  public let beginTime: Double
  /// Active length in seconds (after `beginTime`).
  public let duration: Double
  private let sample: @Sendable (inout Layer, Double) -> Void

  /// An animation of `property` on the layer `layerID` whose value at local time `τ` (seconds
  /// since `beginTime`, ≥ 0) is `value(τ)`; `duration` is how long it runs before it holds.
  public init<Value>(
    layerID: String, property: LayerProperty<Value>, beginTime: Double = 0, duration: Double,
    value: @escaping @Sendable (Double) -> Value
  ) {
    self.layerID = layerID
    self.propertyName = property.name
    self.beginTime = beginTime
    self.duration = duration
    self.sample = { layer, local in property.write(&layer, value(local)) }
  }

  /// A tween of `property` on the layer `layerID`, starting at `beginTime` seconds.
  public init<Value>(
    layerID: String, property: LayerProperty<Value>, tween: BasicAnimation<Value>,
    beginTime: Double = 0
  ) {
    self.init(
      layerID: layerID, property: property, beginTime: beginTime, duration: tween.duration,
      value: { tween.value(at: $0) })
  }

  /// Writes the animated value at scene time `t` into `layer` if the animation has begun.
  public func apply(to layer: inout Layer, at t: Double) {
    guard t >= beginTime else { return }
    sample(&layer, t - beginTime)
  }
}
