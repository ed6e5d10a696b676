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
  private var colored: (color: Color, small: CairoImage, full: CairoImage?)?
  /// Times the mask has been painted in its current colour.
  private var paints = 0

  init(image: CairoImage, originX: Int, originY: Int, factor: Int) {
    self.image = image
    self.originX = originX
    self.originY = originY
    self.factor = factor
  }

  /// The mask coloured with `color` (straight alpha), premultiplied.
  private func colorize(_ color: Color) -> CairoImage? {
    guard let out = CairoImage(width: image.width, height: image.height, format: CAIRO_FORMAT_ARGB32, arena: image.arena),
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
        let pixel = UInt32(a) << 24 | UInt32((r * a + 127) / 255) << 16 | UInt32((g * a + 127) / 255) << 8 | UInt32((b * a + 127) / 255)
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
    guard let full = CairoImage(
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
