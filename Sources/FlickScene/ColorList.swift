import FlickMotion

/// An ordered list of colours that animates as one value (a gradient's `colors`).
///
/// Arithmetic is element-wise; when lengths differ the shorter list is padded with `.clear`,
/// so animating between lists of equal length (the normal case) interpolates each stop.
public struct ColorList: Animatable, Hashable, ExpressibleByArrayLiteral {
  public var colors: [Color]

  public init(_ colors: [Color]) { self.colors = colors }
  public init(arrayLiteral elements: Color...) { self.colors = elements }

  public static let zero = ColorList([])

  private static func zip(_ a: ColorList, _ b: ColorList, _ f: (Color, Color) -> Color) -> ColorList {
    let n = max(a.colors.count, b.colors.count)
    return ColorList(
      (0..<n).map { i in
        f(i < a.colors.count ? a.colors[i] : .clear, i < b.colors.count ? b.colors[i] : .clear)
      })
  }

  public static func + (a: ColorList, b: ColorList) -> ColorList { zip(a, b, +) }
  public static func - (a: ColorList, b: ColorList) -> ColorList { zip(a, b, -) }
  public func scaled(by f: Double) -> ColorList { ColorList(colors.map { $0.scaled(by: f) }) }
  public var magnitudeSquared: Double { colors.reduce(0) { $0 + $1.magnitudeSquared } }
}
