import FlickMotion
import FlickScene

/// An affine transform `[a c e; b d f]` (SVG's `matrix(a b c d e f)`).
struct Affine {
  var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

  static let identity = Affine()

  /// `self` applied after `other` (points go through `other` first).
  func concatenating(_ m: Affine) -> Affine {
    Affine(
      a: a * m.a + c * m.b, b: b * m.a + d * m.b, c: a * m.c + c * m.d, d: b * m.c + d * m.d,
      e: a * m.e + c * m.f + e, f: b * m.e + d * m.f + f)
  }

  func apply(_ p: Point) -> Point { Point(x: a * p.x + c * p.y + e, y: b * p.x + d * p.y + f) }

  func apply(_ path: ShapePath) -> ShapePath {
    ShapePath(
      elements: path.elements.map { element in
        switch element {
        case .move(let p): .move(to: apply(p))
        case .line(let p): .line(to: apply(p))
        case .curve(let p, let c1, let c2): .curve(to: apply(p), control1: apply(c1), control2: apply(c2))
        case .closeSubpath: .closeSubpath
        }
      })
  }
}
