internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// The matrix of a radial gradient's pattern: the unit circle of pattern space stretched to
  /// the ellipse around `start` (user space) whose radii are `end`'s distances from it along
  /// each axis, as Core Animation's (`2·dx` wide, `2·dy` high). Nil when a radius is 0 (or so
  /// small that its scale is not finite): the ellipse is empty, every point lies beyond its end,
  /// and the gradient fills its bounds with ``colorBeyondEnd(_:)``, what it tends to as that
  /// radius shrinks.
  static func radialPatternMatrix(start: Point, end: Point) -> cairo_matrix_t? {
    let sx = 1 / abs(end.x - start.x)
    let sy = 1 / abs(end.y - start.y)
    guard sx.isFinite, sy.isFinite, (sx * sy).isFinite else { return nil }
    var m = cairo_matrix_t()
    cairo_matrix_init_scale(&m, sx, sy)
    cairo_matrix_translate(&m, -start.x, -start.y)
    return m
  }

  /// The colour a gradient pads with past its end: its last stop's (of stops sharing the last
  /// location, the last given, as Cairo sorts them).
  static func colorBeyondEnd(_ stops: [(location: Double, color: Color)]) -> Color {
    var last = stops.first?.color ?? .clear
    var at = -Double.infinity
    for s in stops where s.location >= at {
      at = s.location
      last = s.color
    }
    return last
  }

  /// Paints a radial gradient layer whose rectangle covers whole device pixels of `cr`'s target
  /// (an ARGB32 image without device offset or clip, such as the picture
  /// ``drawGradient(_:of:in:)`` makes) with ``RadialGradientRaster``: the bytes
  /// ``fillGradient(_:of:in:)`` would have Cairo write. `clear`: the target holds only zeros, or
  /// every stop is opaque: OVER then stores the gradient's pixels, and its arithmetic is skipped.
  /// False: nothing was painted, and the caller lets Cairo paint.
  static func paintRadial(_ g: GradientContent, of layer: Layer, in cr: OpaquePointer, clear: Bool) -> Bool {
    guard LinearGradientRaster.matchesLoadedLibraries, g.kind == .radial, g.stops.count >= 2,
      layer.cornerRadius <= 0 || layer.maskedCorners.isEmpty,
      cairo_get_operator(cr) == CAIRO_OPERATOR_OVER
    else { return false }
    let m = CairoDraw.matrix(cr)
    guard m.xy == 0, m.yx == 0 else { return false }
    // The rectangle must fill whole pixels, so that Cairo composites it as one box.
    let box = CairoDraw.deviceBox(layer.bounds, m)
    for v in [box.minX, box.minY, box.maxX, box.maxY] {
      guard v.isFinite, abs(v) < 16_383, abs(v - v.rounded()) < 1e-9 else { return false }
    }
    guard let surface = cairo_get_target(cr), cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
      cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
    else { return false }
    var (ox, oy, sx, sy) = (0.0, 0.0, 0.0, 0.0)
    cairo_surface_get_device_offset(surface, &ox, &oy)
    cairo_surface_get_device_scale(surface, &sx, &sy)
    guard ox == 0, oy == 0, sx == 1, sy == 1 else { return false }
    let width = Int(cairo_image_surface_get_width(surface))
    let height = Int(cairo_image_surface_get_height(surface))
    // No clip: its one rectangle is the whole surface.
    guard let clip = CairoDraw.clipRectangle(cr), clip.x == 0, clip.y == 0, clip.width == Double(width),
      clip.height == Double(height)
    else { return false }
    let x0 = max(0, Int(box.minX.rounded()))
    let y0 = max(0, Int(box.minY.rounded()))
    let x1 = min(width, Int(box.maxX.rounded()))
    let y1 = min(height, Int(box.maxY.rounded()))
    guard x1 > x0, y1 > y0 else { return true }
    let b = layer.bounds
    func point(_ u: Point) -> Point { Point(x: b.minX + u.x * b.width, y: b.minY + u.y * b.height) }
    // An empty ellipse is one colour: Cairo's solid fill paints it (``fillGradient(_:of:in:)``).
    guard let pattern = radialPatternMatrix(start: point(g.startPoint), end: point(g.endPoint)) else { return false }
    // The context's inverse matrix as Cairo keeps it, read back through device_to_user.
    var inverse = cairo_matrix_t()
    var (xx, yx, xy, yy, tx, ty) = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    cairo_device_to_user_distance(cr, &xx, &yx)
    cairo_device_to_user_distance(cr, &xy, &yy)
    cairo_device_to_user(cr, &tx, &ty)
    cairo_matrix_init(&inverse, xx, yx, xy, yy, tx, ty)
    guard
      let raster = RadialGradientRaster(
        ctmInverse: inverse, patternMatrix: pattern, stops: g.stops, bounded: (x0, y0, x1 - x0, y1 - y0))
    else { return false }
    cairo_surface_flush(surface)
    guard let data = cairo_image_surface_get_data(surface) else { return false }
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard raster.paint(into: data, stride: stride, x0: x0, y0: y0, x1: x1, y1: y1, clear: clear) else { return false }
    cairo_surface_mark_dirty_rectangle(surface, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
    return true
  }
}
