/// A location in a two-dimensional coordinate system, in points (y grows downwards, as on iOS).
public struct Point: Animatable, Hashable, Codable, CustomStringConvertible {
  /// Horizontal coordinate, in points.
  public var x: Double
  /// Vertical coordinate, in points (down is positive).
  public var y: Double

  @inlinable
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(x: 0, y: 0)

  @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
  @inlinable public func scaled(by f: Double) -> Point { Point(x: x * f, y: y * f) }
  @inlinable public var magnitudeSquared: Double { x * x + y * y }

  public var description: String { "(\(x), \(y))" }
}
