import Foundation

extension ColorSpace {
  /// The exact derivative of ``color(from:)`` at components `v` along `dv`: how fast the sRGB
  /// colour moves when the components in this space move at `dv` per unit (the Jacobian of the
  /// conversion times `dv`, no finite differences). Alpha passes through.
  package func derivative(at v: Vector4, along dv: Vector4) -> Color {
    switch self {
    case .sRGB: return Color(red: dv.x, green: dv.y, blue: dv.z, alpha: dv.w)
    case .linearSRGB:
      return Color(
        red: Self.encodedSlope(v.x) * dv.x, green: Self.encodedSlope(v.y) * dv.y,
        blue: Self.encodedSlope(v.z) * dv.z, alpha: dv.w)
    case .oklab:
      // The same steps as color(from:): lms' = M·lab, lms = lms'³, rgb = N·lms, then encoded.
      let l = v.x + 0.3963377774 * v.y + 0.2158037573 * v.z
      let m = v.x - 0.1055613458 * v.y - 0.0638541728 * v.z
      let s = v.x - 0.0894841775 * v.y - 1.2914855480 * v.z
      let dl = dv.x + 0.3963377774 * dv.y + 0.2158037573 * dv.z
      let dm = dv.x - 0.1055613458 * dv.y - 0.0638541728 * dv.z
      let ds = dv.x - 0.0894841775 * dv.y - 1.2914855480 * dv.z
      let (l3, m3, s3) = (l * l * l, m * m * m, s * s * s)
      let (dl3, dm3, ds3) = (3 * l * l * dl, 3 * m * m * dm, 3 * s * s * ds)
      let r = 4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3
      let g = -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3
      let b = -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3
      let dr = 4.0767416621 * dl3 - 3.3077115913 * dm3 + 0.2309699292 * ds3
      let dg = -1.2684380046 * dl3 + 2.6097574011 * dm3 - 0.3413193965 * ds3
      let db = -0.0041960863 * dl3 - 0.7034186147 * dm3 + 1.7076147010 * ds3
      return Color(
        red: Self.encodedSlope(r) * dr, green: Self.encodedSlope(g) * dg, blue: Self.encodedSlope(b) * db,
        alpha: dv.w)
    }
  }

  /// The derivative of ``encoded(_:)`` (even, since the transfer function is odd-symmetric).
  static func encodedSlope(_ c: Double) -> Double {
    let a = abs(c)
    return a <= 0.0031308 ? 12.92 : 1.055 / 2.4 * pow(a, 1 / 2.4 - 1)
  }
}
