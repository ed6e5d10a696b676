import FlickMotion

/// A node of the scene tree, modelled on `CALayer`: geometry, appearance and sublayers.
///
/// Geometry follows Core Animation: `bounds.size` is the layer's extent, `position` is where its
/// `anchorPoint` (unit coordinates, `(0.5, 0.5)` = centre) sits in the superlayer's coordinates.
/// A `Layer` is a value: copying it snapshots the whole subtree.
public struct Layer: Sendable, Equatable {
  /// Identifier used by animations and templates; unique within a scene.
  public var id: String
  /// The layer's own coordinate space, in points; the origin is usually zero.
  public var bounds: Rect
  /// The anchor point's location in the superlayer, in points.
  public var position: Point
  /// The point of `bounds` that sits at `position` and about which the layer rotates and scales,
  /// in unit coordinates (`0…1` across the bounds).
  public var anchorPoint: Point
  /// Opacity of the layer and its sublayers as one group, `0…1`.
  public var opacity: Double
  /// Fill of the bounds (drawn under any content); `.clear` draws nothing.
  public var backgroundColor: Color
  /// Radius of the rounded corners of the background, in points (≥ 0).
  public var cornerRadius: Double
  /// Child layers, drawn after (above) this layer's own content, in order.
  public var sublayers: [Layer]

  public init(
    id: String,
    bounds: Rect = .zero,
    position: Point = .zero,
    anchorPoint: Point = Point(x: 0.5, y: 0.5),
    opacity: Double = 1,
    backgroundColor: Color = .clear,
    cornerRadius: Double = 0,
    sublayers: [Layer] = []
  ) {
    self.id = id
    self.bounds = bounds
    self.position = position
    self.anchorPoint = anchorPoint
    self.opacity = opacity
    self.backgroundColor = backgroundColor
    self.cornerRadius = cornerRadius
    self.sublayers = sublayers
  }

  /// The layer's frame in its superlayer, ignoring transforms, in points.
  public var frame: Rect {
    Rect(
      x: position.x - anchorPoint.x * bounds.width,
      y: position.y - anchorPoint.y * bounds.height,
      width: bounds.width, height: bounds.height)
  }

  /// Applies `body` to the layer with `id` in this subtree; returns whether it was found.
  @discardableResult
  public mutating func withLayer(id target: String, _ body: (inout Layer) -> Void) -> Bool {
    if id == target {
      body(&self)
      return true
    }
    for i in sublayers.indices where sublayers[i].withLayer(id: target, body) {
      return true
    }
    return false
  }
}
