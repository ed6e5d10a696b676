internal import CCairo
import FlickMotion
import FlickScene

/// The rows of a filled path that only two vertical sides cross, in the device space of a
/// `width × height` image, found from the path's points as Cairo converts them (24.8 fixed
/// point): ``GradientFaceFill`` paints these rows itself.
struct MiddleRows {
  /// The rows `first..<end` (device pixels).
  let first: Int
  let end: Int
  /// The left and right sides' x, 24.8 fixed point.
  let left: Int
  let right: Int

  /// Nil unless exactly two vertical lines going opposite ways cross the rows (with a row of
  /// margin above and below, where curves are flattened), no other segment reaches them, every
  /// point lies inside the image and the sides are at least two pixels apart.
  init?(_ path: ShapePath, matrix m: cairo_matrix_t, width: Int, height: Int) {
    var segments: [[(x: Int, y: Int)]] = []
    var current: (x: Int, y: Int)?
    var start: (x: Int, y: Int)?
    func fixed(_ p: Point) -> (x: Int, y: Int)? {
      // cairo_matrix_transform_point, then _cairo_fixed_from_double.
      let x = p.x * m.xx + p.y * m.xy + m.x0
      let y = p.x * m.yx + p.y * m.yy + m.y0
      guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { return nil }
      // Inside the image once converted (a control point at −1e−15 is 0).
      let q = (x: Int((x * 256).rounded(.toNearestOrEven)), y: Int((y * 256).rounded(.toNearestOrEven)))
      guard q.x >= 0, q.y >= 0, q.x <= width * 256, q.y <= height * 256 else { return nil }
      return q
    }
    // A fill closes every sub-path.
    func close() {
      if let c = current, let s = start, c != s { segments.append([c, s]) }
      current = start
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        close()
        guard let q = fixed(p) else { return nil }
        (current, start) = (q, q)
      case .line(let p):
        guard let c = current, let q = fixed(p) else { return nil }
        segments.append([c, q])
        current = q
      case .curve(let p, let c1, let c2):
        guard let c = current, let q1 = fixed(c1), let q2 = fixed(c2), let q = fixed(p) else { return nil }
        segments.append([c, q1, q2, q])
        current = q
      case .closeSubpath:
        close()
      }
    }
    close()
    let vertical = segments.indices.filter { i in
      segments[i].count == 2 && segments[i][0].x == segments[i][1].x && segments[i][0].y != segments[i][1].y
    }
    .sorted { abs(segments[$0][1].y - segments[$0][0].y) > abs(segments[$1][1].y - segments[$1][0].y) }
    guard vertical.count >= 2 else { return nil }
    let (a, b) = (segments[vertical[0]], segments[vertical[1]])
    guard (a[1].y > a[0].y) != (b[1].y > b[0].y) else { return nil }
    let top = max(min(a[0].y, a[1].y), min(b[0].y, b[1].y))
    let bottom = min(max(a[0].y, a[1].y), max(b[0].y, b[1].y))
    first = ((top + 255) >> 8) + 1
    end = (bottom >> 8) - 1
    left = min(a[0].x, b[0].x)
    right = max(a[0].x, b[0].x)
    guard end > first, (right >> 8) >= (left >> 8) + 2 else { return nil }
    for (i, s) in segments.enumerated() where i != vertical[0] && i != vertical[1] {
      let ys = s.map(\.y)
      guard let low = ys.min(), let high = ys.max(), high <= (first - 1) * 256 || low >= (end + 1) * 256 else {
        return nil
      }
    }
  }
}
