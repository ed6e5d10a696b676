internal import CCairo
import FlickMotion

/// A blurred alpha mask of a shadow-casting shape, in device pixels up to a translation:
/// pixel `(i, j)` of `image` covers device point `anchor + (i, j) + origin`, where `anchor` is
/// the device position of the layer's (offset) origin when composited.
final class ShadowMask {
  let image: CairoImage
  /// Device offset of the buffer's first pixel from the anchor.
  let originX: Int
  let originY: Int
  /// Whether the anchor is rounded to whole pixels (soft shadows, blurred at reduced size);
  /// otherwise the mask is placed at the exact sub-pixel anchor with bilinear filtering.
  let snapsToPixels: Bool

  init(image: CairoImage, originX: Int, originY: Int, snapsToPixels: Bool) {
    self.image = image
    self.originX = originX
    self.originY = originY
    self.snapsToPixels = snapsToPixels
  }

  /// Paints `color` through the mask with the shape's origin at device point `anchor`.
  func composite(in cr: OpaquePointer, anchor: Point, color: Color) {
    let ax = snapsToPixels ? anchor.x.rounded() : anchor.x
    let ay = snapsToPixels ? anchor.y.rounded() : anchor.y
    let x0 = ax + Double(originX)
    let y0 = ay + Double(originY)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    CairoDraw.setSource(cr, color)
    // Limit the work to the mask's device rectangle.
    cairo_rectangle(cr, x0.rounded(.down), y0.rounded(.down), Double(image.width) + 2, Double(image.height) + 2)
    cairo_clip(cr)
    if snapsToPixels {
      cairo_mask_surface(cr, image.surface, x0, y0)
    } else if let pattern = cairo_pattern_create_for_surface(image.surface) {
      var m = cairo_matrix_t()
      cairo_matrix_init_translate(&m, -x0, -y0)
      cairo_pattern_set_matrix(pattern, &m)
      cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
      cairo_mask(cr, pattern)
      cairo_pattern_destroy(pattern)
    }
    cairo_restore(cr)
  }
}
