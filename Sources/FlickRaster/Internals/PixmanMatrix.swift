internal import CCairo

/// How Cairo 1.16 turns a pattern's device-to-pattern matrix into pixman's 16.16 transform and an
/// integer source offset (`_cairo_matrix_to_pixman_matrix_offset`, cairo-matrix.c), and pixman
/// 0.42's `pixman_transform_point_3d`: the same doubles, roundings and iterations, so that a
/// gradient painted by Flick samples the points pixman samples. Cairo's own matrix functions
/// (`cairo_matrix_translate`, `_invert`, `_transform_point`, `_transform_distance`) are called, not
/// copied.
enum PixmanMatrix {
  /// Cairo's PIXMAN_MAX_INT: the largest matrix entry it hands to pixman.
  private static let maxInt = 32_767.0
  /// Cairo's SCALING_EPSILON (one 24.8 fixed-point unit).
  private static let scalingEpsilon = 1.0 / 256

  /// The transform (rows of 16.16 numbers) and source offset Cairo computes for `matrix` with
  /// the composite centred on (`xc`, `yc`) and a filter other than NEAREST; nil where Cairo fails
  /// (an entry beyond its range).
  static func transform(_ matrix: cairo_matrix_t, xc: Double, yc: Double) -> (
    transform: [[Int64]], offset: (x: Int, y: Int)
  )? {
    let identity: [[Int64]] = [[65536, 0, 0], [0, 65536, 0], [0, 0, 65536]]
    // _cairo_matrix_is_pixman_translation, starting from offsets of 0.
    if matrix.xx == 1, matrix.yx == 0, matrix.xy == 0, matrix.yy == 1 {
      if matrix.x0 == 0, matrix.y0 == 0 { return (identity, (0, 0)) }
      let tx = matrix.x0
      let ty = matrix.y0
      if tx == tx.rounded(.down), ty == ty.rounded(.down), abs(tx) <= maxInt, abs(ty) <= maxInt {
        return (identity, (Int(tx), Int(ty)))
      }
    }
    var m = matrix
    var offset = (x: 0, y: 0)
    cairo_matrix_translate(&m, 0, 0)
    if m.x0 != 0 || m.y0 != 0 {
      // Spread the translation between the offset and the matrix: of the solutions of
      // |x| = |x·xx + y·xy + x0|, |y| = |x·yx + y·yy + y0|, the one with the smallest norm.
      var tx = m.x0
      var ty = m.y0
      var norm = max(abs(tx), abs(ty))
      for i in [-1.0, 1.0] {
        for j in [-1.0, 1.0] {
          var den = (m.xx + i) * (m.yy + j) - m.xy * m.yx
          if abs(den) < Double.ulpOfOne { continue }
          var x = m.y0 * m.xy - m.x0 * (m.yy + j)
          var y = m.x0 * m.yx - m.y0 * (m.xx + i)
          den = 1 / den
          x *= den
          y *= den
          let newNorm = max(abs(x), abs(y))
          if norm > newNorm {
            norm = newNorm
            tx = x
            ty = y
          }
        }
      }
      tx = tx.rounded(.down)
      ty = ty.rounded(.down)
      guard abs(tx) < 2e9, abs(ty) < 2e9 else { return nil }
      offset = (Int(-tx), Int(-ty))
      cairo_matrix_translate(&m, tx, ty)
    }
    guard let t = toPixman(m, xc: xc, yc: yc) else { return nil }
    return (t, offset)
  }

  /// `_cairo_matrix_to_pixman_matrix`: the entries rounded to 16.16, then the translation
  /// corrected (at most five times) until pixman maps (`xc`, `yc`) where Cairo does.
  private static func toPixman(_ matrix: cairo_matrix_t, xc: Double, yc: Double) -> [[Int64]]? {
    var matrix = matrix
    let entries = [matrix.xx, matrix.xy, matrix.x0, matrix.yx, matrix.yy, matrix.y0]
    guard entries.allSatisfy({ $0.isFinite && abs($0) < 2e9 / 65536 }) else { return nil }
    var t: [[Int64]] = [
      [fixed(matrix.xx), fixed(matrix.xy), fixed(matrix.x0)],
      [fixed(matrix.yx), fixed(matrix.yy), fixed(matrix.y0)],
      [0, 0, 65536],
    ]
    if hasUnityScale(matrix) { return t }
    guard entries.allSatisfy({ abs($0) <= maxInt }) else { return nil }
    var inverse = matrix
    guard cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS else { return t }
    for _ in 0..<5 {
      guard let v = transformPoint(t, [fixed(xc), fixed(yc), 65536]) else { return t }
      var x = Double(Int32(truncatingIfNeeded: v[0])) / 65536
      var y = Double(Int32(truncatingIfNeeded: v[1])) / 65536
      cairo_matrix_transform_point(&inverse, &x, &y)
      x -= xc
      y -= yc
      cairo_matrix_transform_distance(&matrix, &x, &y)
      guard abs(x) < 2e9 / 65536, abs(y) < 2e9 / 65536 else { return nil }
      let dx = fixed(x)
      let dy = fixed(y)
      t[0][2] = Int64(Int32(truncatingIfNeeded: t[0][2] &- dx))
      t[1][2] = Int64(Int32(truncatingIfNeeded: t[1][2] &- dy))
      if dx == 0 && dy == 0 { return t }
    }
    return t
  }

  /// `pixman_transform_point_3d`: `t` (16.16 rows) times `v` (16.16), each product split into
  /// its integer and fraction parts and rounded once; nil where a result leaves 32 bits.
  static func transformPoint(_ t: [[Int64]], _ v: [Int64]) -> [Int64]? {
    var result = [Int64](repeating: 0, count: 3)
    for i in 0..<3 {
      var hi: Int64 = 0
      var lo: Int64 = 0
      for k in 0..<3 {
        hi = hi &+ t[i][k] &* (v[k] >> 16)
        lo = lo &+ t[i][k] &* (v[k] & 0xFFFF)
      }
      result[i] = hi &+ ((lo &+ 0x8000) >> 16)
      guard result[i] == Int64(Int32(truncatingIfNeeded: result[i])) else { return nil }
    }
    return result
  }

  /// `_cairo_matrix_has_unity_scale`.
  private static func hasUnityScale(_ m: cairo_matrix_t) -> Bool {
    let det = m.xx * m.yy - m.yx * m.xy
    guard abs(det * det - 1.0) < scalingEpsilon else { return false }
    return (abs(m.xy) < scalingEpsilon && abs(m.yx) < scalingEpsilon)
      || (abs(m.xx) < scalingEpsilon && abs(m.yy) < scalingEpsilon)
  }

  /// `_cairo_fixed_16_16_from_double`, as a pixman_fixed_t.
  private static func fixed(_ d: Double) -> Int64 { Int64(Int32(truncatingIfNeeded: GradientStop.fixed(d))) }
}
