/// An axis-aligned rectangle: an origin and a size, in points.
public struct Rect: Animatable, Hashable, Codable, CustomStringConvertible {
  /// The top-left corner, in points.
  public var origin: Point
  /// The extent, in points.
  public var size: Size

  @inlinable
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  @inlinable
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  public static let zero = Rect(origin: .zero, size: .zero)

  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var width: Double { size.width }
  public var height: Double { size.height }

  @inlinable public static func + (a: Rect, b: Rect) -> Rect {
    Rect(origin: a.origin + b.origin, size: a.size + b.size)
  }
  @inlinable public static func - (a: Rect, b: Rect) -> Rect {
    Rect(origin: a.origin - b.origin, size: a.size - b.size)
  }
  @inlinable public func scaled(by f: Double) -> Rect {
    Rect(origin: origin.scaled(by: f), size: size.scaled(by: f))
  }
  @inlinable public var magnitudeSquared: Double { origin.magnitudeSquared + size.magnitudeSquared }

  public var description: String { "\(origin) \(size)" }
}
