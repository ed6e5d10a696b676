/// A rectangle of pixels: origin and size, in whole pixels, origin at the top left.
public struct PixelRegion: Sendable, Equatable, Codable, CustomStringConvertible {
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Left edge, in pixels from the left of the image.
  public var x: Int
  /// Top edge, in pixels from the top of the image.
  public var y: Int
  /// Width in pixels (≥ 1 for a region that holds a pixel).
  public var width: Int
  /// Height in pixels (≥ 1 for a region that holds a pixel).
  public var height: Int

  /// The right edge, exclusive.
  public var maxX: Int { x + width }
  /// The bottom edge, exclusive.
  public var maxY: Int { y + height }

  /// Whether the pixel (`px`, `py`) lies inside.
  public func contains(x px: Int, y py: Int) -> Bool {
    px >= x && px < maxX && py >= y && py < maxY
  }

  /// Whether the two regions share at least one pixel.
  public func intersects(_ other: PixelRegion) -> Bool {
    x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
  }

  public var description: String { "\(width)×\(height) at (\(x), \(y))" }
}
