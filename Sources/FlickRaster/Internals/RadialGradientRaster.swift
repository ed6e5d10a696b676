internal import CCairo
internal import CGradient
import FlickMotion

/// Paints Flick's radial gradient (the unit circle around the origin of pattern space, which the
/// pattern matrix stretches over the layer) over a pixel-aligned box of an ARGB32 image, byte for
/// byte as Cairo 1.16 and pixman 0.42 composite it with OVER, at about a third of their
/// instructions.
///
/// Every conversion on the way is repeated: Cairo's device-to-pattern matrix (the inverse of the
/// current matrix times the pattern matrix), its fit to pixman's range, its integer source offset
/// and its 16.16 transform corrected at the centre of the composite (`_cairo_matrix_to_pixman_matrix
/// _offset`), then pixman's exact 32.32 integers for the quadratic of each row and its doubles for
/// the root of each pixel (`flick_radial_over_row`, in C). The colour of each 16.16 gradient
/// parameter comes from a table filled by pixman's own walker (``GradientWalker``).
/// `RadialGradientRasterTests` compares the result with Cairo's on random gradients.
///
/// `init` returns nil for what that reasoning does not cover: fewer than two stops, a matrix Cairo
/// would scale into range or refuse, a zero `A` (the circles' radii differ by their distance).
struct RadialGradientRaster {
  /// pixman's transform, rows of 16.16 numbers.
  private let transform: [[Int64]]
  /// The source offset Cairo adds to every destination pixel (`ix`, `iy`).
  private let offset: (x: Int, y: Int)
  /// The first circle and the difference to the second, 16.16.
  private let c1: (x: Int32, y: Int32, radius: Int32)
  private let delta: (x: Int32, y: Int32, radius: Int32)
  private let gradient: flick_radial_gradient
  private let table: [UInt32]
  private let low: Int64
  private let high: Int64

  /// - Parameters:
  ///   - ctmInverse: the context's inverse current matrix when the source was set (device to user).
  ///   - patternMatrix: the pattern's matrix (user to pattern space).
  ///   - stops: the stops as Flick passes them to `cairo_pattern_add_color_stop_rgba`.
  ///   - bounded: the composite's extents in device pixels: the filled box within the surface
  ///     and the clip (x, y, width, height).
  init?(
    ctmInverse: cairo_matrix_t, patternMatrix: cairo_matrix_t, stops: [(location: Double, color: Color)],
    bounded: (x: Int, y: Int, width: Int, height: Int)
  ) {
    guard let pixmanStops = GradientStop.pixmanStops(stops) else { return nil }
    // _cairo_gstate_copy_transformed_pattern: pattern matrix = ctm_inverse × pattern matrix.
    var matrix = patternMatrix
    if !Self.isIdentity(ctmInverse) {
      var inverse = ctmInverse
      var pattern = patternMatrix
      cairo_matrix_multiply(&matrix, &inverse, &pattern)
    }
    // _cairo_gradient_pattern_fit_to_range with the circles (0, 0, 0) and (0, 0, 1): only a
    // matrix entry can exceed 1; past PIXMAN_MAX_INT >> 1 Cairo would rescale.
    let entries = [matrix.xx, matrix.xy, matrix.x0, matrix.yx, matrix.yy, matrix.y0]
    guard entries.allSatisfy({ $0.isFinite }), entries.map(abs).max() ?? 0 <= 16_383 else { return nil }
    c1 = (0, 0, 0)
    let c2: (x: Int32, y: Int32, radius: Int32) = (0, 0, Int32(GradientStop.fixed(1)))
    delta = (c2.x &- c1.x, c2.y &- c1.y, c2.radius &- c1.radius)
    // pixman_image_create_radial_gradient.
    let a =
      Int64(delta.x) * Int64(delta.x) + Int64(delta.y) * Int64(delta.y) + Int64(-delta.radius) * Int64(delta.radius)
    guard a != 0 else { return nil }
    gradient = flick_radial_gradient(
      a: Double(a), inva: 1.0 * 65536 / Double(a), dr: Double(delta.radius), mindr: -1.0 * 65536 * Double(c1.radius))
    let xc = Double(bounded.x) + Double(bounded.width) / 2
    let yc = Double(bounded.y) + Double(bounded.height) / 2
    guard let (transform, offset) = PixmanMatrix.transform(matrix, xc: xc, yc: yc) else { return nil }
    self.transform = transform
    self.offset = offset
    low = pixmanStops[0].x - 1
    high = pixmanStops[pixmanStops.count - 1].x
    table = GradientWalker(stops: pixmanStops).table(low...high)
  }

  /// Composites the gradient with OVER onto the device box `x0..<x1 × y0..<y1` of an ARGB32 image
  /// whose first byte is `data`, rows `stride` bytes apart (box coordinates count from that byte).
  /// `clear`: the box holds only zeros, where OVER stores the gradient's pixels.
  /// False, with nothing written, where pixman's own transform of a row's first pixel overflows
  /// (pixman then leaves its scanline unwritten) or is projective.
  func paint(into data: UnsafeMutableRawPointer, stride: Int, x0: Int, y0: Int, x1: Int, y1: Int, clear: Bool) -> Bool {
    guard x1 > x0, y1 > y0 else { return true }
    var rows: [(b: Int64, c: Int64, dc: Int64)] = []
    rows.reserveCapacity(y1 - y0)
    let unit = (transform[0][0], transform[1][0], transform[2][0])
    guard unit.2 == 0 else { return false }
    let db = unit.0 &* Int64(delta.x) &+ unit.1 &* Int64(delta.y)
    let ddc = 2 &* (unit.0 &* unit.0 &+ unit.1 &* unit.1)
    for y in y0..<y1 {
      let point = [Int64(x0 + offset.x) << 16 + 0x8000, Int64(y + offset.y) << 16 + 0x8000, 65536]
      guard let v = PixmanMatrix.transformPoint(transform, point), v[2] == 65536 else { return false }
      // radial_get_scanline's affine case: v −= c₁ (pixman_fixed_t, wrapping), then dot products.
      let px = Int64(Int32(truncatingIfNeeded: v[0]) &- c1.x)
      let py = Int64(Int32(truncatingIfNeeded: v[1]) &- c1.y)
      let b = px &* Int64(delta.x) &+ py &* Int64(delta.y) &+ Int64(c1.radius) &* Int64(delta.radius)
      let c = px &* px &+ py &* py &+ -Int64(c1.radius) &* Int64(c1.radius)
      let dc = (2 &* px &+ unit.0) &* unit.0 &+ (2 &* py &+ unit.1) &* unit.1
      rows.append((b, c, dc))
    }
    table.withUnsafeBufferPointer { table in
      guard let base = table.baseAddress else { return }
      let colors = flick_radial_colors(
        table: base, low: low, high: high, below: table[0], above: table[table.count - 1])
      for (i, row) in rows.enumerated() {
        let pixels = (data + (y0 + i) * stride + x0 * 4).assumingMemoryBound(to: UInt32.self)
        flick_radial_over_row(pixels, Int32(x1 - x0), row.b, db, row.c, row.dc, ddc, gradient, colors, clear ? 1 : 0)
      }
    }
    return true
  }

  /// `_cairo_matrix_is_identity`.
  private static func isIdentity(_ m: cairo_matrix_t) -> Bool {
    m.xx == 1 && m.yx == 0 && m.xy == 0 && m.yy == 1 && m.x0 == 0 && m.y0 == 0
  }
}
