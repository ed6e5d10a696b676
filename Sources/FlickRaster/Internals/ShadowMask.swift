internal import CCairo
import FlickMotion

/// A blurred alpha mask of a shadow-casting shape, in device space up to a translation.
///
/// Pixel `(i, j)` of the (possibly reduced) `image` covers device point
/// `anchor + factor · ((i, j) + origin)`, where `anchor` is the device position of the layer's
/// (offset) origin. To draw, the mask is coloured (premultiplied ARGB, integer arithmetic) and
/// painted; reduced masks (soft shadows, `factor` 2 or 4) are placed at whole-pixel anchors and
/// scaled up bilinearly. A cached mask painted a second time keeps the scaled-up coloured copy,
/// so later frames only copy it. Both ways give the same bytes: Cairo samples the reduced picture at the same points
/// with the same weights whether it writes the result to a copy or straight into the frame.
final class ShadowMask {
  let image: CairoImage
  /// Buffer offset of the shape's origin, negated (in buffer pixels).
  let originX: Int
  let originY: Int
  /// Device pixels per buffer pixel: 1, 2 or 4.
  let factor: Int
  /// The whole blurred shadow and the part of it `image` holds (buffer pixels relative to the
  /// shape's origin), and how far beyond the clip a cut reaches (see ``cut(need:full:margin:frameArea:)``).
  let full: Window
  let drawn: Window
  let margin: Int
  private var colored: (color: Color, small: CairoImage, full: CairoImage?)?
  /// Times the mask has been painted in its current colour.
  private var paints = 0

  init(image: CairoImage, originX: Int, originY: Int, factor: Int, full: Window, margin: Int) {
    self.image = image
    self.originX = originX
    self.originY = originY
    self.factor = factor
    self.full = full
    self.drawn = Window(x0: originX, y0: originY, x1: originX + image.width, y1: originY + image.height)
    self.margin = margin
  }

  /// Device pixels per buffer pixel for a blur of `sigma` device pixels: soft shadows are
  /// blurred at reduced size.
  static func factor(sigma: Double) -> Double { sigma >= 12 ? 4 : sigma >= 6 ? 2 : 1 }

  /// The blur's standard deviation in device pixels for a shadow radius of `radius` points drawn
  /// with the user-to-device matrix `m` (its linear part's scale; a negative radius is none).
  static func sigma(radius: Double, matrix m: cairo_matrix_t) -> Double {
    max(0, radius) * abs(m.xx * m.yy - m.xy * m.yx).squareRoot()
  }

  /// Whether this mask is the one that would be made for `need` now: the same cut (or the whole
  /// mask), so a cached mask draws exactly what a new one would.
  func matches(_ need: Window, frameArea: Int, minimumArea: Int) -> Bool {
    guard let cut = Self.cut(need: need, full: full, margin: margin, frameArea: frameArea, minimumArea: minimumArea)
    else { return true }
    return cut == drawn
  }

  /// The part of the whole buffer `full` to draw and blur for the clip's `need`: nil when the
  /// clip sees none of it; `full` itself unless the mask is larger than four frames (`frameArea`,
  /// in buffer pixels) and than `minimumArea` (``LayerPainter/minimumCutArea``),
  /// and the cut saves a quarter. A cut is `need` grown by `margin` (the blur's
  /// reach and a little more) and snapped outwards to a grid as coarse as `need` (at least 16
  /// pixels), so a shadow moving a little keeps its cut; it depends on nothing else, so cached
  /// and uncached frames cut alike.
  ///
  /// Cutting moves the shape's rasterisation by whole pixels, which Cairo does not repeat to the
  /// bit: a cut mask may differ from the whole one by one level of alpha in a few pixels. That is
  /// why ordinary shadows (up to four frames) are never cut.
  static func cut(need: Window, full: Window, margin: Int, frameArea: Int, minimumArea: Int) -> Window? {
    let seen = need.intersection(full)
    guard !seen.isEmpty else { return nil }
    guard full.area / 4 > frameArea, full.area >= minimumArea else { return full }
    func down(_ v: Int, _ q: Int) -> Int { (v >= 0 ? v / q : -((-v + q - 1) / q)) * q }
    func up(_ v: Int, _ q: Int) -> Int { -down(-v, q) }
    let (qx, qy) = (max(16, seen.width), max(16, seen.height))
    let cut = Window(
      x0: down(seen.x0 - margin, qx), y0: down(seen.y0 - margin, qy), x1: up(seen.x1 + margin, qx),
      y1: up(seen.y1 + margin, qy)
    ).intersection(full)
    return cut.area * 4 < full.area * 3 ? cut : full
  }

  /// A rectangle of buffer pixels `x0..<x1 × y0..<y1`, relative to the shape's origin.
  ///
  /// The blur (``BoxBlur``) is six passes of sums over at most `reach` pixels in total along
  /// each axis, reading zero beyond the buffer. A pixel's blurred value therefore depends only on
  /// the unblurred pixels within `reach` of it: a buffer cut to a window holds the whole buffer's
  /// values everywhere but within `reach` of the cut edges (up to one level of alpha where
  /// Cairo rasterises the shape, moved by whole pixels, a little differently).
  struct Window: Equatable {
    var x0, y0, x1, y1: Int

    var width: Int { max(0, x1 - x0) }
    var height: Int { max(0, y1 - y0) }
    var area: Int { width * height }
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    func intersection(_ o: Window) -> Window {
      Window(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }

    func grown(x dx: Int, y dy: Int) -> Window { Window(x0: x0 - dx, y0: y0 - dy, x1: x1 + dx, y1: y1 + dy) }

    func contains(_ o: Window) -> Bool { o.x0 >= x0 && o.y0 >= y0 && o.x1 <= x1 && o.y1 <= y1 }

    /// The buffer pixels a mask anchored at device point `anchor` (reduced `factor` times)
    /// samples where `cr`'s clip lets it paint: the clip's device extents, in buffer pixels, plus
    /// the two neighbours bilinear scaling reads.
    static func visible(in cr: OpaquePointer, anchor: Point, factor f: Double) -> Window {
      var e = (0.0, 0.0, 0.0, 0.0)
      cairo_save(cr)
      cairo_identity_matrix(cr)
      cairo_clip_extents(cr, &e.0, &e.1, &e.2, &e.3)
      cairo_restore(cr)
      // As `composite` places it.
      let ax = f > 1 ? anchor.x.rounded() : anchor.x
      let ay = f > 1 ? anchor.y.rounded() : anchor.y
      return Window(
        x0: CairoDraw.pixel(((e.0 - ax) / f).rounded(.down)) - 2,
        y0: CairoDraw.pixel(((e.1 - ay) / f).rounded(.down)) - 2,
        x1: CairoDraw.pixel(((e.2 - ax) / f).rounded(.up)) + 2, y1: CairoDraw.pixel(((e.3 - ay) / f).rounded(.up)) + 2)
    }
  }

  /// The mask coloured with `color` (straight alpha), premultiplied.
  private func colorize(_ color: Color) -> CairoImage? {
    guard
      let out = CairoImage(width: image.width, height: image.height, format: CAIRO_FORMAT_ARGB32, arena: image.arena),
      let src = cairo_image_surface_get_data(image.surface), let dst = cairo_image_surface_get_data(out.surface)
    else { return nil }
    func byte(_ v: Double) -> Int { Int((CairoDraw.clamp(v) * 255).rounded()) }
    let (r, g, b, ca) = (byte(color.red), byte(color.green), byte(color.blue), byte(color.alpha))
    let sStride = Int(cairo_image_surface_get_stride(image.surface))
    let dStride = Int(cairo_image_surface_get_stride(out.surface))
    let words = UnsafeMutableRawPointer(dst)
    for y in 0..<image.height {
      let row = src + y * sStride
      for x in 0..<image.width {
        let a = (Int(row[x]) * ca + 127) / 255
        let pixel =
          UInt32(a) << 24 | UInt32((r * a + 127) / 255) << 16 | UInt32((g * a + 127) / 255) << 8
          | UInt32((b * a + 127) / 255)
        words.storeBytes(of: pixel, toByteOffset: y * dStride + x * 4, as: UInt32.self)
      }
    }
    cairo_surface_mark_dirty(out.surface)
    return out
  }

  private func pattern(_ small: CairoImage, x0: Double, y0: Double) -> OpaquePointer? {
    guard let pattern = cairo_pattern_create_for_surface(small.surface) else { return nil }
    let f = Double(factor)
    var m = cairo_matrix_t()
    cairo_matrix_init_scale(&m, 1 / f, 1 / f)
    cairo_matrix_translate(&m, -x0, -y0)
    cairo_pattern_set_matrix(pattern, &m)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
    return pattern
  }

  /// Paints the shadow in `color` with the shape's origin at device point `anchor`.
  /// `keepsCopies` (cached masks) keeps the coloured, scaled-up picture for the next frames;
  /// `hole` is a device rectangle left untouched (where the opaque layer will cover it).
  func composite(
    in cr: OpaquePointer, anchor: Point, color: Color, keepsCopies: Bool,
    hole: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil
  ) {
    let f = Double(factor)
    let ax = factor > 1 ? anchor.x.rounded() : anchor.x
    let ay = factor > 1 ? anchor.y.rounded() : anchor.y
    let x0 = ax + f * Double(originX)
    let y0 = ay + f * Double(originY)
    let small: CairoImage
    if let c = colored, c.color == color {
      small = c.small
      paints += 1
    } else {
      guard let made = colorize(color) else { return }
      small = made
      paints = 1
      if keepsCopies { colored = (color, made, nil) }
    }
    cairo_save(cr)
    defer { cairo_restore(cr) }
    cairo_identity_matrix(cr)
    // Limit the work to the mask's device rectangle, minus the hole.
    cairo_rectangle(cr, x0.rounded(.down), y0.rounded(.down), Double(image.width) * f + 2, Double(image.height) * f + 2)
    if let hole {
      cairo_rectangle(cr, hole.x0, hole.y0, hole.x1 - hole.x0, hole.y1 - hole.y0)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
    }
    cairo_clip(cr)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    // The full-size copy is made on the second paint: a mask painted once (a shadow whose
    // shape changes every frame) never pays for it or holds its memory.
    if factor > 1, keepsCopies, paints > 1, let full = scaledUp(small) {
      cairo_set_source_surface(cr, full.surface, x0, y0)
      cairo_paint(cr)
      return
    }
    guard let pattern = pattern(small, x0: x0, y0: y0) else { return }
    defer { cairo_pattern_destroy(pattern) }
    cairo_set_source(cr, pattern)
    cairo_paint(cr)
  }

  /// The coloured reduced picture scaled up to device size (made once per colour).
  private func scaledUp(_ small: CairoImage) -> CairoImage? {
    if let full = colored?.full { return full }
    guard
      let full = CairoImage(
        width: image.width * factor, height: image.height * factor, format: CAIRO_FORMAT_ARGB32, arena: image.arena),
      let cr = full.makeContext(), let pattern = pattern(small, x0: 0, y0: 0)
    else { return nil }
    defer {
      cairo_pattern_destroy(pattern)
      cairo_destroy(cr)
    }
    cairo_set_source(cr, pattern)
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_paint(cr)
    cairo_surface_flush(full.surface)
    if let c = colored { colored = (c.color, c.small, full) }
    return full
  }
}

/// What one painter's shadows cost: masks made and pixels blurred (work counters for tests and
/// benchmarks; they never change what is drawn).
struct ShadowStatistics: Equatable {
  /// Masks drawn and blurred.
  var masks = 0
  /// Buffer pixels blurred, summed over masks.
  var blurredPixels = 0
  /// Pixels of the largest mask buffer.
  var largestMask = 0
}
