internal import CCairo
import FlickMotion

/// A blurred alpha mask of a shadow-casting shape, drawn in device space up to a translation:
/// pixel `(i, j)` of `image` covers device point `anchor + factor · ((i, j) + origin)`, where
/// `anchor` is the device position of the layer's (offset) origin when composited.
final class ShadowMask {
  let image: CairoImage
  /// Buffer pixel of the shape's origin, negated: `origin = floor(min / factor) - pad`.
  let originX: Int
  let originY: Int
  /// Device pixels per buffer pixel (1, 2 or 4: soft shadows are blurred at reduced size).
  let factor: Double

  init(image: CairoImage, originX: Int, originY: Int, factor: Double) {
    self.image = image
    self.originX = originX
    self.originY = originY
    self.factor = factor
  }

  /// Paints `color` through the mask with the shape's origin at device point `anchor`.
  func composite(in cr: OpaquePointer, anchor: Point, color: Color) {
    guard let pattern = cairo_pattern_create_for_surface(image.surface) else { return }
    defer { cairo_pattern_destroy(pattern) }
    var m = cairo_matrix_t()
    cairo_matrix_init(
      &m, 1 / factor, 0, 0, 1 / factor, -anchor.x / factor - Double(originX), -anchor.y / factor - Double(originY))
    cairo_pattern_set_matrix(pattern, &m)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_NONE)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    CairoDraw.setSource(cr, color)
    // Limit the work to the mask's device rectangle.
    let x0 = anchor.x + factor * Double(originX)
    let y0 = anchor.y + factor * Double(originY)
    cairo_rectangle(cr, x0.rounded(.down), y0.rounded(.down),
                    (Double(image.width) * factor).rounded(.up) + 2, (Double(image.height) * factor).rounded(.up) + 2)
    cairo_clip(cr)
    cairo_mask(cr, pattern)
    cairo_restore(cr)
  }
}
