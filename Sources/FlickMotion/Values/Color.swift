/// An sRGB colour with straight (not premultiplied) alpha; every component in `0…1`.
///
/// As an ``Animatable`` value the components interpolate in sRGB, like Pop. Values outside
/// `0…1` can occur mid-animation (a bouncy spring) and are clamped only when drawn.
public struct Color: Animatable, Hashable, Codable, CustomStringConvertible {
  /// Red, `0…1`, sRGB-encoded.
  public var red: Double
  /// Green, `0…1`, sRGB-encoded.
  public var green: Double
  /// Blue, `0…1`, sRGB-encoded.
  public var blue: Double
  /// Opacity, `0…1`.
  public var alpha: Double

  @inlinable
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// A colour from a 24-bit `0xRRGGBB` literal (`Color(0x30D158)`), as in design tokens; bits
  /// above the 24th are ignored. `alpha` is `0…1`.
  @inlinable
  public init(_ rgb: UInt32, alpha: Double = 1) {
    self.init(
      red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
      blue: Double(rgb & 0xFF) / 255, alpha: alpha)
  }

  /// Creates a colour from `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional).
  public init?(hex: String) {
    var s = Substring(hex)
    if s.hasPrefix("#") { s = s.dropFirst() }
    guard [3, 4, 6, 8].contains(s.count), s.allSatisfy(\.isASCIIHexDigit) else { return nil }
    if s.count <= 4 { s = Substring(s.flatMap { [$0, $0] }) }
    var v: [Double] = []
    var i = s.startIndex
    while i < s.endIndex {
      let j = s.index(i, offsetBy: 2)
      v.append(Double(UInt8(s[i..<j], radix: 16) ?? 0) / 255)
      i = j
    }
    self.init(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
  }

  public static let zero = Color(red: 0, green: 0, blue: 0, alpha: 0)
  public static let clear = Color.zero
  public static let black = Color(red: 0, green: 0, blue: 0)
  public static let white = Color(red: 1, green: 1, blue: 1)

  @inlinable public static func + (a: Color, b: Color) -> Color {
    Color(red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue, alpha: a.alpha + b.alpha)
  }
  @inlinable public static func - (a: Color, b: Color) -> Color {
    Color(red: a.red - b.red, green: a.green - b.green, blue: a.blue - b.blue, alpha: a.alpha - b.alpha)
  }
  @inlinable public func scaled(by f: Double) -> Color {
    Color(red: red * f, green: green * f, blue: blue * f, alpha: alpha * f)
  }
  @inlinable public var magnitudeSquared: Double {
    red * red + green * green + blue * blue + alpha * alpha
  }

  /// `#RRGGBBAA`, each component rounded to 8 bits.
  public var hexString: String {
    func byte(_ c: Double) -> String {
      let v = Int((min(max(c, 0), 1) * 255).rounded())
      return String(v, radix: 16, uppercase: true).leftPadded(to: 2)
    }
    return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
  }

  public var description: String { hexString }
}

extension String {
  fileprivate func leftPadded(to n: Int) -> String {
    count >= n ? self : String(repeating: "0", count: n - count) + self
  }
}

extension Character {
  /// Whether this is a hex digit of ASCII (0-9, a-f, A-F), the only ones colours, JSON and
  /// digests are written with: `isHexDigit` also holds for the full-width forms (`Ｆ`, `１`),
  /// which `Int(_:radix:)` then does not read.
  package var isASCIIHexDigit: Bool { isASCII && isHexDigit }

  /// Whether the string has a character after an optional `#` that is not an ASCII hex digit.
  package static func hasNonHexDigit(_ text: String) -> Bool {
    text.drop(while: { $0 == "#" }).contains { !$0.isASCIIHexDigit }
  }
}
