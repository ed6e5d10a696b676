internal import CCairo
import FlickMotion

/// A blurred alpha mask of a shadow-casting shape, in device space up to a translation.
///
/// Pixel `(i, j)` of the (possibly reduced) `image` covers device point
/// `anchor + factor · ((i, j) + origin)`, where `anchor` is the device position of the layer's
/// (offset) origin. Reduced masks (soft shadows, `factor` 2 or 4) are placed at whole-pixel
/// anchors and scaled up bilinearly; a cached mask keeps that scaled-up copy, so later frames
/// only copy it. Both ways give the same bytes: Cairo samples the reduced mask at the same
/// points with the same weights whether it writes the result to a copy or straight into the frame.
final class ShadowMask {
  let image: CairoImage
  /// Buffer offset of the shape's origin, negated (in buffer pixels).
  let originX: Int
  let originY: Int
  /// Device pixels per buffer pixel: 1, 2 or 4.
  let factor: Int
  private var deviceSized: CairoImage?

  init(image: CairoImage, originX: Int, originY: Int, factor: Int) {
    self.image = image
    self.originX = originX
    self.originY = originY
    self.factor = factor
  }

  /// The reduced mask scaled up to device size (made once).
  private func scaledUp() -> CairoImage? {
    if let deviceSized { return deviceSized }
    let f = Double(factor)
    guard let full = CairoImage(width: image.width * factor, height: image.height * factor, format: CAIRO_FORMAT_A8),
      let cr = full.makeContext()
    else { return nil }
    defer { cairo_destroy(cr) }
    guard let pattern = cairo_pattern_create_for_surface(image.surface) else { return nil }
    defer { cairo_pattern_destroy(pattern) }
    var m = cairo_matrix_t()
    cairo_matrix_init_scale(&m, 1 / f, 1 / f)
    cairo_pattern_set_matrix(pattern, &m)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
    cairo_set_source(cr, pattern)
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_paint(cr)
    cairo_surface_flush(full.surface)
    deviceSized = full
    return full
  }

  /// Paints `color` through the mask with the shape's origin at device point `anchor`;
  /// `keepsScaledCopy` (cached masks) scales a reduced mask up once and copies it afterwards.
  /// `hole` is a device rectangle left untouched (where the opaque layer will cover the shadow).
  func composite(
    in cr: OpaquePointer, anchor: Point, color: Color, keepsScaledCopy: Bool,
    hole: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil
  ) {
    let f = Double(factor)
    let ax = factor > 1 ? anchor.x.rounded() : anchor.x
    let ay = factor > 1 ? anchor.y.rounded() : anchor.y
    let x0 = ax + f * Double(originX)
    let y0 = ay + f * Double(originY)
    cairo_save(cr)
    defer { cairo_restore(cr) }
    cairo_identity_matrix(cr)
    CairoDraw.setSource(cr, color)
    // Limit the work to the mask's device rectangle.
    cairo_rectangle(cr, x0.rounded(.down), y0.rounded(.down), Double(image.width) * f + 2, Double(image.height) * f + 2)
    if let hole {
      cairo_rectangle(cr, hole.x0, hole.y0, hole.x1 - hole.x0, hole.y1 - hole.y0)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
    }
    cairo_clip(cr)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    if factor > 1, keepsScaledCopy, let full = scaledUp() {
      cairo_mask_surface(cr, full.surface, x0, y0)
      return
    }
    guard let pattern = cairo_pattern_create_for_surface(image.surface) else { return }
    defer { cairo_pattern_destroy(pattern) }
    var m = cairo_matrix_t()
    cairo_matrix_init_scale(&m, 1 / f, 1 / f)
    cairo_matrix_translate(&m, -x0, -y0)
    cairo_pattern_set_matrix(pattern, &m)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
    cairo_mask(cr, pattern)
  }
}
