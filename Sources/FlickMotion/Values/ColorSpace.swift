import Foundation

/// The space in which a colour animation interpolates (issue: Pop blends sRGB components only).
///
/// - ``sRGB``: the stored, gamma-encoded components (Pop-compatible default);
/// - ``linearSRGB``: linear light — physically correct blending, brighter mid-points;
/// - ``oklab``: Björn Ottosson's perceptual OKLab — even perceived steps, no grey dip between
///   complementary hues.
///
/// Alpha is straight and interpolates linearly in every space.
package enum ColorSpace: String, Sendable, Hashable, Codable, CaseIterable {
  case sRGB, linearSRGB, oklab

  /// `color`'s components in this space as (x, y, z, alpha): (r, g, b, a) for the RGB spaces,
  /// (L, a, b, alpha) for OKLab.
  package func components(of color: Color) -> Vector4 {
    switch self {
    case .sRGB: return Vector4(x: color.red, y: color.green, z: color.blue, w: color.alpha)
    case .linearSRGB:
      return Vector4(x: Self.linear(color.red), y: Self.linear(color.green), z: Self.linear(color.blue), w: color.alpha)
    case .oklab:
      let r = Self.linear(color.red)
      let g = Self.linear(color.green)
      let b = Self.linear(color.blue)
      let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
      let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
      let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
      return Vector4(
        x: 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
        y: 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
        z: 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s, w: color.alpha)
    }
  }

  /// The colour whose components in this space are `v` (the inverse of ``components(of:)``).
  package func color(from v: Vector4) -> Color {
    switch self {
    case .sRGB: return Color(red: v.x, green: v.y, blue: v.z, alpha: v.w)
    case .linearSRGB:
      return Color(red: Self.encoded(v.x), green: Self.encoded(v.y), blue: Self.encoded(v.z), alpha: v.w)
    case .oklab:
      let l = v.x + 0.3963377774 * v.y + 0.2158037573 * v.z
      let m = v.x - 0.1055613458 * v.y - 0.0638541728 * v.z
      let s = v.x - 0.0894841775 * v.y - 1.2914855480 * v.z
      let (l3, m3, s3) = (l * l * l, m * m * m, s * s * s)
      let r = 4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3
      let g = -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3
      let b = -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3
      return Color(red: Self.encoded(r), green: Self.encoded(g), blue: Self.encoded(b), alpha: v.w)
    }
  }

  /// sRGB transfer function, decoded (odd-symmetric beyond 0 so overshoot round-trips).
  static func linear(_ c: Double) -> Double {
    let a = abs(c)
    let v = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
    return c < 0 ? -v : v
  }

  /// sRGB transfer function, encoded.
  static func encoded(_ c: Double) -> Double {
    let a = abs(c)
    let v = a <= 0.0031308 ? a * 12.92 : 1.055 * pow(a, 1 / 2.4) - 0.055
    return c < 0 ? -v : v
  }
}

/// A colour animation computed in a chosen ``ColorSpace``: `base` animates the colour's
/// components in that space and the result is converted back to a ``Color`` on every sample.
///
///     let fade = ColorSpaceAnimation(in: .oklab, from: .black, to: .white) { a, b in
///       BasicAnimation(from: a, to: b, duration: 1, timingFunction: .easeInEaseOut)
///     }
package struct ColorSpaceAnimation<Base: AnimationCurve>: AnimationCurve where Base.Value == Vector4 {
  /// The space the animation runs in.
  package let space: ColorSpace
  /// The animation of the components in ``space``.
  package let base: Base
  package var duration: Double { base.duration }

  package init(space: ColorSpace, base: Base) {
    self.space = space
    self.base = base
  }

  /// Builds `base` from the two colours' components in `space`.
  package init(
    in space: ColorSpace, from: Color, to: Color, _ make: (_ from: Vector4, _ to: Vector4) -> Base
  ) {
    self.init(space: space, base: make(space.components(of: from), space.components(of: to)))
  }

  package func value(at t: Double) -> Color { space.color(from: base.value(at: t)) }

  /// The sRGB-component velocity: the conversion's derivative along the base velocity
  /// (a central difference in the animation's own space, exact for ``ColorSpace/sRGB``).
  package func velocity(at t: Double) -> Color {
    let v = base.velocity(at: t)
    if space == .sRGB { return space.color(from: v) }
    let x = base.value(at: t)
    let speed = v.norm
    if speed == 0 { return .zero }
    let h = 1e-6 / speed
    return (space.color(from: x + v.scaled(by: h)) - space.color(from: x - v.scaled(by: h))).scaled(by: 1 / (2 * h))
  }
}
