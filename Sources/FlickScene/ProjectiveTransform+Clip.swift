import FlickMotion

extension ProjectiveTransform {
  /// The smallest homogeneous `w` a point may have to be drawn: points nearer the viewer's eye
  /// (or behind it, `w ≤ 0`) have no place on the screen. ``apply(to:)`` uses the same bound.
  package static let nearestW = 1e-9

  /// The part of the convex polygon `polygon` (in the map's source plane, vertices in order)
  /// that lies in front of the viewer (`w ≥ nearestW`) and, with `window`, whose image lies in
  /// that rectangle: the polygon clipped against those half-planes one after the other
  /// (Sutherland–Hodgman). Each half-plane is linear in the source plane (`X·w ≥ minX·w` for
  /// `w > 0`), so no point is projected before it is known to lie in front. A polygon wholly
  /// inside comes back unchanged (the same vertices in the same order); fewer than three
  /// vertices when nothing is left.
  package func frontPart(of polygon: [Point], within window: Rect? = nil) -> [Point] {
    // Half-planes a·x + b·y + c ≥ 0.
    var planes = [(m31, m32, m33 - Self.nearestW)]
    if let r = window {
      let (x0, x1, y0, y1) = (r.minX, r.maxX, r.minY, r.maxY)
      planes += [
        (m11 - x0 * m31, m12 - x0 * m32, m13 - x0 * m33), (x1 * m31 - m11, x1 * m32 - m12, x1 * m33 - m13),
        (m21 - y0 * m31, m22 - y0 * m32, m23 - y0 * m33), (y1 * m31 - m21, y1 * m32 - m22, y1 * m33 - m23),
      ]
    }
    var result = polygon
    for (a, b, c) in planes {
      guard result.count >= 3 else { return [] }
      let values = result.map { a * $0.x + b * $0.y + c }
      // Nothing to cut (NaN counts as outside, so a non-finite map keeps no vertex).
      if values.allSatisfy({ $0 >= 0 }) { continue }
      var clipped: [Point] = []
      for i in result.indices {
        let j = (i + 1) % result.count
        let (p, q) = (result[i], result[j])
        let (fp, fq) = (values[i], values[j])
        if fp >= 0 { clipped.append(p) }
        if (fp >= 0 && fq < 0) || (fp < 0 && fq >= 0) {
          let t = fp / (fp - fq)
          clipped.append(Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
        }
      }
      result = clipped
    }
    return result.count >= 3 ? result : []
  }

  /// The image of a point of ``frontPart(of:within:)`` (its `w` is at least about
  /// ``nearestW``; a rounding below it is taken as ``nearestW``).
  package func frontImage(of p: Point) -> Point {
    let w = max(m31 * p.x + m32 * p.y + m33, Self.nearestW)
    return Point(x: (m11 * p.x + m12 * p.y + m13) / w, y: (m21 * p.x + m22 * p.y + m23) / w)
  }

  /// How many units of the image one unit of the source plane at `p` (in front) becomes at
  /// most, in any direction: the largest singular value of the map's Jacobian there.
  package func magnification(at p: Point) -> Double {
    let w = max(m31 * p.x + m32 * p.y + m33, Self.nearestW)
    let q = frontImage(of: p)
    let a = (m11 - q.x * m31) / w
    let b = (m12 - q.x * m32) / w
    let c = (m21 - q.y * m31) / w
    let d = (m22 - q.y * m32) / w
    let sum = a * a + b * b + c * c + d * d
    let det = a * d - b * c
    return ((sum + max(0, sum * sum - 4 * det * det).squareRoot()) / 2).squareRoot()
  }
}

extension Rect {
  /// The four corners as a polygon: top-left, top-right, bottom-right, bottom-left.
  package var cornerPolygon: [Point] {
    [
      Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY),
      Point(x: minX, y: maxY),
    ]
  }
}
