import Foundation

/// Per-pixel colour maths on straight-alpha BGRA words (`B | G<<8 | R<<16 | A<<24`), the values
/// PNG files hold and pixelmatch compares.
///
/// Translucent pairs are blended over pixelmatch's position-dependent checkerboard exactly as
/// pixelmatch 7 does: `Δc = (c1·a1 − c2·a2 − bg·Δa) / 255` whenever either alpha is below 255.
enum ColorDelta {
  // MARK: - Channels

  @inline(__always) static func blue(_ w: UInt32) -> Double { Double(w & 0xFF) }
  @inline(__always) static func green(_ w: UInt32) -> Double { Double((w >> 8) & 0xFF) }
  @inline(__always) static func red(_ w: UInt32) -> Double { Double((w >> 16) & 0xFF) }
  @inline(__always) static func alpha(_ w: UInt32) -> Double { Double(w >> 24) }

  /// pixelmatch's checkerboard background for the pixel whose RGBA byte offset is `k` (4 × index):
  /// each channel is 48 or 207.
  @inline(__always) static func background(_ k: Int) -> (r: Double, g: Double, b: Double) {
    let r = 48 + 159 * (k % 2)
    let g = 48 + 159 * (Int(Double(k) / 1.618033988749895) % 2)
    let b = 48 + 159 * (Int(Double(k) / 2.618033988749895) % 2)
    return (Double(r), Double(g), Double(b))
  }

  // MARK: - YIQ

  /// The 0–255 channel deltas of `w1 − w2`, both blended over the background at `k` when either
  /// is translucent (pixelmatch 7's `colorDelta`).
  @inline(__always) static func blendedDeltas(_ w1: UInt32, _ w2: UInt32, k: Int) -> (Double, Double, Double) {
    let a1 = alpha(w1), a2 = alpha(w2)
    if a1 == 255 && a2 == 255 {
      return (red(w1) - red(w2), green(w1) - green(w2), blue(w1) - blue(w2))
    }
    let bg = background(k)
    let da = a1 - a2
    return (
      (red(w1) * a1 - red(w2) * a2 - bg.r * da) / 255,
      (green(w1) * a1 - green(w2) * a2 - bg.g * da) / 255,
      (blue(w1) * a1 - blue(w2) * a2 - bg.b * da) / 255
    )
  }

  /// pixelmatch's signed squared YIQ distance: negative when `w2` is darker than `w1`
  /// (pixelmatch's sign convention: `y > 0 ? −δ : δ`), 0 for identical words.
  @inline(__always) static func yiq(_ w1: UInt32, _ w2: UInt32, k: Int) -> Double {
    if w1 == w2 { return 0 }
    let (dr, dg, db) = blendedDeltas(w1, w2, k: k)
    let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    let i = dr * 0.59597799 - dg * 0.2741761 - db * 0.32180189
    let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return y > 0 ? -delta : delta
  }

  /// pixelmatch's brightness-only difference (`yOnly`), used by the anti-aliasing detector.
  @inline(__always) static func luma(_ w1: UInt32, _ w2: UInt32, k: Int) -> Double {
    if w1 == w2 { return 0 }
    let (dr, dg, db) = blendedDeltas(w1, w2, k: k)
    return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
  }

  // MARK: - OKLab HyAB

  /// sRGB-encoded 0…255 → linear light, one entry per byte value.
  static let linear: [Double] = (0...255).map { v in
    let c = Double(v) / 255
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }

  /// Ottosson's toe: OKLab lightness remapped so equal steps look equal near black.
  @inline(__always) static func toe(_ x: Double) -> Double {
    let k1 = 0.206, k2 = 0.03
    let k3 = (1 + k1) / (1 + k2)
    let t = k3 * x - k1
    return 0.5 * (t + (t * t + 4 * k2 * k3 * x).squareRoot())
  }

  /// OKLab (toe-corrected L unless `toe` is false, a, b) of the word `w` blended over the
  /// background at `k`.
  @inline(__always) static func oklab(
    _ w: UInt32, k: Int, toe useToe: Bool = true
  ) -> (l: Double, a: Double, b: Double) {
    var r = red(w), g = green(w), b = blue(w)
    let a = alpha(w)
    if a < 255 {
      let bg = background(k)
      r = (r * a + bg.r * (255 - a)) / 255
      g = (g * a + bg.g * (255 - a)) / 255
      b = (b * a + bg.b * (255 - a)) / 255
    }
    func lin(_ c: Double) -> Double { linear[Int(min(255, max(0, c.rounded())))] }
    let lr = lin(r), lg = lin(g), lb = lin(b)
    let l = cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb)
    let m = cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb)
    let s = cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb)
    let lightness = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
    return (
      useToe ? toe(lightness) : lightness,
      1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
      0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
    )
  }

  /// The HyAB distance between two words in toe-corrected OKLab; 1.0 is black to white.
  /// Signed like ``yiq(_:_:k:)``: negative when `w2` is darker.
  @inline(__always) static func hyab(_ w1: UInt32, _ w2: UInt32, k: Int) -> Double {
    if w1 == w2 { return 0 }
    let p = oklab(w1, k: k), q = oklab(w2, k: k)
    let dl = p.l - q.l, da = p.a - q.a, db = p.b - q.b
    let d = abs(dl) + (da * da + db * db).squareRoot()
    return dl > 0 ? -d : d
  }

  /// The Euclidean distance ΔE_OK between two words in plain OKLab (Ottosson's L, no toe), the
  /// colour difference ``ComparisonOptions/colorJND`` is measured in; 0 for identical words, about
  /// 1.0 from black to white.
  @inline(__always) static func deltaEOK(_ w1: UInt32, _ w2: UInt32, k: Int) -> Double {
    if w1 == w2 { return 0 }
    let p = oklab(w1, k: k, toe: false), q = oklab(w2, k: k, toe: false)
    let dl = p.l - q.l, da = p.a - q.a, db = p.b - q.b
    return (dl * dl + da * da + db * db).squareRoot()
  }
}
