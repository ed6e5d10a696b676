import FlickExpectations
import FlickMotion
import Foundation
import Testing

/// `TimingFunction.slope(at:)` against a reference that shares nothing with it but the curve:
/// the Bernstein form, solved by plain bisection to the last bit from the end nearer `x` (on
/// `1 − x(1 − u)` above 0.5, so the parameter near 1 keeps every digit), and `y′ / x′` there.
@Suite struct TimingFunctionSlopeTests {
  static func referenceSlope(_ f: TimingFunction, _ x: Double) -> Double {
    let (p1x, p1y, p2x, p2y) = (f.c1.x, f.c1.y, f.c2.x, f.c2.y)
    // The curve seen from the end nearer x: control values turned end for end above 0.5.
    let fromEnd = x > 0.5
    let (ax, ay, bx, by) = fromEnd ? (1 - p2x, 1 - p2y, 1 - p1x, 1 - p1y) : (p1x, p1y, p2x, p2y)
    let target = fromEnd ? 1 - x : x
    func bernstein(_ a: Double, _ b: Double, _ s: Double) -> Double {
      let r = 1 - s
      return 3 * r * r * s * a + 3 * r * s * s * b + s * s * s
    }
    func derivative(_ a: Double, _ b: Double, _ s: Double) -> Double {
      let r = 1 - s
      return 3 * (r * r * a + 2 * r * s * (b - a) + s * s * (1 - b))
    }
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<2_000 {
      let mid = (lo + hi) / 2
      if mid == lo || mid == hi { break }
      if bernstein(ax, bx, mid) < target { lo = mid } else { hi = mid }
    }
    let s = (lo + hi) / 2
    return derivative(ay, by, s) / derivative(ax, bx, s)
  }

  static let curves: [TimingFunction] = [
    .easeIn, .easeOut, .easeInEaseOut, .default, .linear, TimingFunction(0.68, -0.55, 0.265, 1.55),
    TimingFunction(0.3, 1.4, 1, 1), TimingFunction(0, 0, 0.5, 0.8), TimingFunction(0, 1, 0.2, 1),
    TimingFunction(0, 0.5, 1, 0.5), TimingFunction(1, 0.2, 1, 0.8), TimingFunction(0.2, 0.6, 1, 1),
  ]

  /// Near both ends (and across the curve), to 1e-9 relative wherever x′ is not 0: solved to
  /// `1e-12` in x, easeIn's slope at x = 1 − 10⁻¹² was 1.724137931033 for 1.724137457792
  /// (2.7·10⁻⁷ off), and a control point with x 0 or 1 gave a secant (865.69 for 4.3·10⁷).
  @Test(arguments: curves)
  func slopeMatchesTheReference(_ f: TimingFunction) {
    var xs: [Double] = []
    for i in 0...1_000 {
      xs.append(0.99 + 0.01 * Double(i) / 1_000)
      xs.append(0.01 * Double(i) / 1_000)
      xs.append(Double(i) / 1_000)
    }
    for k in 1...150 {
      xs.append(1 - pow(10, -Double(k) / 10))
      xs.append(pow(10, -Double(k) / 10))
    }
    for x in xs where x > 0 && x < 1 {
      let reference = Self.referenceSlope(f, x)
      let slope = f.slope(at: x)
      expectLess(abs(slope - reference), 1e-9 * max(abs(reference), 1e-12), "\(f.c1), \(f.c2) at x = \(x)")
    }
  }

  /// At 0 and 1 the slope is the end tangent y′/x′: `c1.y / c1.x` and `(1 − c2.y) / (1 − c2.x)`,
  /// and where that control point is its end, the second derivatives' ratio, `c2.y / c2.x` at 0
  /// and `(1 − c1.y) / (1 − c1.x)` at 1.
  @Test func endSlopesAreTheEndTangents() {
    let cases: [(TimingFunction, Double, Double)] = [
      (.easeIn, 0, 1 / 0.58), (.easeOut, 1 / 0.58, 0), (.easeInEaseOut, 0, 0), (.default, 0.4, 0), (.linear, 1, 1),
      (TimingFunction(0.68, -0.55, 0.265, 1.55), -0.55 / 0.68, -0.55 / 0.735),
      (TimingFunction(0, 0, 0.5, 0.8), 1.6, 0.4), (TimingFunction(0.2, 0.6, 1, 1), 3, 0.5),
      (TimingFunction(1, 0, 0, 1), 0, 0), (TimingFunction(0.3, 1.4, 1, 1), 1.4 / 0.3, -0.4 / 0.7),
    ]
    for (f, start, end) in cases {
      expectLess(abs(f.slope(at: 0) - start), 1e-15 * max(abs(start), 1), "\(f.c1), \(f.c2) at 0")
      expectLess(abs(f.slope(at: 1) - end), 1e-15 * max(abs(end), 1), "\(f.c1), \(f.c2) at 1")
      // The end tangent is the limit of the slope inside.
      let inside = (f.slope(at: 1e-9), f.slope(at: 1 - 1e-9))
      expectLess(abs(inside.0 - start), 1e-3 * max(abs(start), 1), "\(f.c1), \(f.c2) near 0")
      expectLess(abs(inside.1 - end), 1e-3 * max(abs(end), 1), "\(f.c1), \(f.c2) near 1")
    }
  }
}
