import Foundation

/// CIEDE2000 colour difference between sRGB colours (components `0…255`), for round-trip
/// tests: ΔE00 ≈ 1 is about the smallest difference a trained eye sees side by side.
enum ColorDifference {
  /// CIE L*a*b* (D65) of an 8-bit sRGB colour.
  static func lab(_ r: Double, _ g: Double, _ b: Double) -> (l: Double, a: Double, b: Double) {
    func linear(_ c: Double) -> Double {
      let v = c / 255
      return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }
    let (rl, gl, bl) = (linear(r), linear(g), linear(b))
    let x = (0.4124564 * rl + 0.3575761 * gl + 0.1804375 * bl) / 0.95047
    let y = (0.2126729 * rl + 0.7151522 * gl + 0.0721750 * bl) / 1.0
    let z = (0.0193339 * rl + 0.1191920 * gl + 0.9503041 * bl) / 1.08883
    func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
  }

  /// ΔE00 between two 8-bit sRGB colours.
  static func deltaE2000(_ c1: (Double, Double, Double), _ c2: (Double, Double, Double)) -> Double {
    let p = lab(c1.0, c1.1, c1.2)
    let q = lab(c2.0, c2.1, c2.2)
    return deltaE2000Lab((p.l, p.a, p.b), (q.l, q.a, q.b))
  }

  /// ΔE00 between two CIE L*a*b* colours (Sharma, Wu & Dalal 2005, kL = kC = kH = 1).
  static func deltaE2000Lab(_ p: (Double, Double, Double), _ q: (Double, Double, Double)) -> Double {
    let deg = Double.pi / 180
    let c1s = (p.1 * p.1 + p.2 * p.2).squareRoot()
    let c2s = (q.1 * q.1 + q.2 * q.2).squareRoot()
    let cMean = (c1s + c2s) / 2
    let g = 0.5 * (1 - (pow(cMean, 7) / (pow(cMean, 7) + pow(25, 7))).squareRoot())
    let a1 = (1 + g) * p.1
    let a2 = (1 + g) * q.1
    let c1p = (a1 * a1 + p.2 * p.2).squareRoot()
    let c2p = (a2 * a2 + q.2 * q.2).squareRoot()
    func hue(_ b: Double, _ a: Double) -> Double {
      if a == 0 && b == 0 { return 0 }
      let h = atan2(b, a) / deg
      return h < 0 ? h + 360 : h
    }
    let h1 = hue(p.2, a1)
    let h2 = hue(q.2, a2)
    let dL = q.0 - p.0
    let dC = c2p - c1p
    var dh = 0.0
    if c1p * c2p != 0 {
      dh = h2 - h1
      if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
    }
    let dH = 2 * (c1p * c2p).squareRoot() * sin(dh / 2 * deg)
    let lMean = (p.0 + q.0) / 2
    let cpMean = (c1p + c2p) / 2
    var hMean = h1 + h2
    if c1p * c2p != 0 {
      if abs(h1 - h2) <= 180 {
        hMean = (h1 + h2) / 2
      } else if h1 + h2 < 360 {
        hMean = (h1 + h2 + 360) / 2
      } else {
        hMean = (h1 + h2 - 360) / 2
      }
    }
    let t =
      1 - 0.17 * cos((hMean - 30) * deg) + 0.24 * cos(2 * hMean * deg) + 0.32 * cos((3 * hMean + 6) * deg)
      - 0.20 * cos((4 * hMean - 63) * deg)
    let dTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
    let rc = 2 * (pow(cpMean, 7) / (pow(cpMean, 7) + pow(25, 7))).squareRoot()
    let sl = 1 + 0.015 * pow(lMean - 50, 2) / (20 + pow(lMean - 50, 2)).squareRoot()
    let sc = 1 + 0.045 * cpMean
    let sh = 1 + 0.015 * cpMean * t
    let rt = -sin(2 * dTheta * deg) * rc
    return (pow(dL / sl, 2) + pow(dC / sc, 2) + pow(dH / sh, 2) + rt * (dC / sc) * (dH / sh)).squareRoot()
  }
}
