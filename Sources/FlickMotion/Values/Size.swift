/// A width and a height, in points.
public struct Size: Animatable, Hashable, Codable, CustomStringConvertible {
  /// Width in points.
  public var width: Double
  /// Height in points.
  public var height: Double

  @inlinable
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(width: 0, height: 0)

  @inlinable public static func + (a: Size, b: Size) -> Size {
    Size(width: a.width + b.width, height: a.height + b.height)
  }
  @inlinable public static func - (a: Size, b: Size) -> Size {
    Size(width: a.width - b.width, height: a.height - b.height)
  }
  @inlinable public func scaled(by f: Double) -> Size { Size(width: width * f, height: height * f) }
  @inlinable public var magnitudeSquared: Double { width * width + height * height }

  public var description: String { "\(width)×\(height)" }
}
