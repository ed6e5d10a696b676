internal import CCairo
import FlickMotion
import FlickScene

/// Fills a layer's rounded bounds with an opaque axial gradient into a cleared intermediate
/// image, byte for byte as Cairo 1.16 and pixman 0.42 fill it, painting most rows itself with
/// ``LinearGradientRaster``.
///
/// Cairo scan converts the path and cuts each row into pixman calls (`_inplace_spans`), and
/// pixman computes the gradient parameter `t` from the first pixel of each call, so the bytes
/// depend on where the calls start. In the rows that only the two vertical sides cross (all
/// rows but those of the corners, for a card), the cuts are known: the scan converter gives
/// the left side's pixel its exact coverage (30 · (256 − fraction) of 7,680 grid units, in
/// 24.8 fixed point), the pixels between full coverage, the right side's pixel
/// 30 · fraction; a full span of 256 pixels or more is composited alone from its own first
/// pixel, the edge pixels each in a masked call of their own; shorter rows are one masked call
/// from the left pixel. Those rows are painted here: each call's `t` from its first pixel,
/// then the edge pixels multiplied by their coverage as pixman does (`UN8x4_MUL_UN8`, over a
/// transparent pixel). Cairo fills the other rows itself, the same path clipped to those rows
/// (a clip on whole rows leaves the scan converter's rows as they were: the edges that cross
/// the clip are the vertical sides). `GradientFaceFillTests` compares the result with Cairo's
/// fill of the whole path on random shapes, offsets and gradients.
///
/// Only what that reasoning covers is accepted (false: nothing was drawn): a translation as
/// the user-to-device matrix, a path whose middle rows are crossed by exactly two vertical
/// lines going opposite ways and by nothing else, everything inside the image, a gradient
/// ``LinearGradientRaster`` accepts that pixman does not take as horizontal row by row.
enum GradientFaceFill {
  /// Fills `layer`'s rounded bounds with the axial gradient `g` into `image` (cleared) through
  /// `cr` (a fresh context on it whose matrix is `m`), as ``LayerPainter/fillGradient(_:of:in:)``
  /// would. False: nothing was drawn, and the caller fills it with Cairo.
  static func fill(
    _ g: GradientContent, of layer: Layer, matrix m: cairo_matrix_t, image: CairoImage, context cr: OpaquePointer
  ) -> Bool {
    guard LinearGradientRaster.matchesLoadedLibraries, g.kind == .axial, g.stops.count >= 2,
      m.xx == 1, m.yy == 1, m.xy == 0, m.yx == 0, m.x0.isFinite, m.y0.isFinite, abs(m.x0) < 1e6, abs(m.y0) < 1e6,
      layer.cornerRadius > 0, !layer.maskedCorners.isEmpty,
      cairo_image_surface_get_format(image.surface) == CAIRO_FORMAT_ARGB32
    else { return false }
    let b = layer.bounds
    func point(_ u: Point) -> Point { Point(x: b.minX + u.x * b.width, y: b.minY + u.y * b.height) }
    guard let raster = LinearGradientRaster(start: point(g.startPoint), end: point(g.endPoint), stops: g.stops),
      raster.isVerticallyConstant || !raster.isHorizontal(rows: 1)
    else { return false }
    let radius = max(0, min(layer.cornerRadius, b.width / 2, b.height / 2))
    let path = ShapePath.roundedRect(b, cornerRadius: radius, corners: layer.maskedCorners)
    guard let rows = MiddleRows(path, matrix: m, width: image.width, height: image.height),
      let table = GradientRowTable(raster, maxCount: (rows.right >> 8) - (rows.left >> 8) + 1)
    else { return false }
    // Cairo fills the rows above and below.
    for (top, bottom) in [(0, rows.first), (rows.end, image.height)] where bottom > top {
      cairo_save(cr)
      cairo_identity_matrix(cr)
      cairo_rectangle(cr, 0, Double(top), Double(image.width), Double(bottom - top))
      cairo_clip(cr)
      var matrix = m
      cairo_set_matrix(cr, &matrix)
      LayerPainter.fillGradient(g, of: layer, in: cr)
      cairo_restore(cr)
      cairo_new_path(cr)
    }
    cairo_surface_flush(image.surface)
    guard let data = cairo_image_surface_get_data(image.surface) else { return false }
    let stride = Int(cairo_image_surface_get_stride(image.surface))
    let origin = PixmanOrigin(translation: (m.x0, m.y0))
    paintRows(rows, table: table, origin: origin, into: data, stride: stride)
    cairo_surface_mark_dirty(image.surface)
    return true
  }

  /// Paints `rows.first..<rows.end`, the rows only the two sides cross.
  private static func paintRows(
    _ rows: MiddleRows, table raster: GradientRowTable, origin: PixmanOrigin, into data: UnsafeMutableRawPointer,
    stride: Int
  ) {
    let (il, fl) = (rows.left >> 8, rows.left & 255)
    let (ir, fr) = (rows.right >> 8, rows.right & 255)
    // The scan converter's areas (2 · 256 · 15 grid units a pixel) as alpha.
    func alpha(_ area: Int) -> UInt32 { UInt32((area + (area << 4) + 256) >> 9) }
    let leftAlpha = alpha(30 * (256 - fl))
    let rightAlpha = alpha(30 * fr)
    let interior = fl != 0 ? il + 1 : il
    let alone = ir - interior >= 256
    func v0(_ x: Int) -> Int64 { Int64(x) * 65536 + origin.x }
    for y in rows.first..<rows.end {
      let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
      let v1 = Int64(y) * 65536 + origin.y
      if alone {
        if fl != 0 { row[il] = multiply(raster.color(v0: v0(il), v1: v1), leftAlpha) }
        raster.paintRow(row + interior, count: ir - interior, v0: v0(interior), v1: v1)
        if fr != 0 { row[ir] = multiply(raster.color(v0: v0(ir), v1: v1), rightAlpha) }
      } else {
        raster.paintRow(row + il, count: ir - il + (fr != 0 ? 1 : 0), v0: v0(il), v1: v1)
        if fl != 0 { row[il] = multiply(row[il], leftAlpha) }
        if fr != 0 { row[ir] = multiply(row[ir], rightAlpha) }
      }
    }
  }

  /// pixman's `UN8x4_MUL_UN8`: each channel times `a` / 255, rounded as pixman rounds.
  static func multiply(_ pixel: UInt32, _ a: UInt32) -> UInt32 {
    var result: UInt32 = 0
    for shift in stride(from: 0, through: 24, by: 8) {
      let t = ((pixel >> UInt32(shift)) & 0xff) * a + 0x80
      result |= (((t >> 8) + t) >> 8) << UInt32(shift)
    }
    return result
  }
}

/// Where pixman puts a pixel's centre in gradient space when Cairo paints a linear gradient
/// under a translation: pixel `(x, y)` is at `(x · 65536 + self.x, y · 65536 + self.y)` in 16.16 fixed point.
/// Cairo (`_cairo_matrix_to_pixman_matrix_offset`) passes an integer translation as a source
/// offset and splits any other between an offset (half of it, floored) and a fixed-point
/// transform; pixman adds both to the pixel centre.
struct PixmanOrigin {
  let x: Int64
  let y: Int64

  /// `translation`: the user-to-device matrix's (`x0`, `y0`) (its linear part the identity).
  init(translation: (Double, Double)) {
    // The pattern matrix maps device to user space: the translation negated.
    let (mx, my) = (-translation.0, -translation.1)
    func fixed(_ d: Double) -> Int64 { Int64((d * 65536).rounded(.toNearestOrEven)) }
    if (mx == 0 && my == 0) || (mx == mx.rounded(.down) && my == my.rounded(.down)) {
      x = Int64(mx.rounded(.toNearestOrAwayFromZero)) * 65536 + 32_768
      y = Int64(my.rounded(.toNearestOrAwayFromZero)) * 65536 + 32_768
      return
    }
    // The solution with the smallest norm (den = (1 + 1)(1 + 1)), floored.
    let tx = ((my * 0 - mx * 2) * 0.25).rounded(.down)
    let ty = ((mx * 0 - my * 2) * 0.25).rounded(.down)
    let x0 = tx * 1 + ty * 0 + mx
    let y0 = tx * 0 + ty * 1 + my
    x = Int64(-tx) * 65536 + 32_768 + fixed(x0)
    y = Int64(-ty) * 65536 + 32_768 + fixed(y0)
  }
}
