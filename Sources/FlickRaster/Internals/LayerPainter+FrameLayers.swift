internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// Calls `body` with every layer of `layers` (top-level, in drawing order) that the painter
  /// draws straight into a frame scaled by `scale`, the user-to-device matrix it draws it with,
  /// and the layers above it with theirs (the top-level one first), in drawing order: what is drawn inside a group (opacity below 1, a visible mask, a
  /// colour multiplier) or a 3D plane has another target and is left out, as are hidden layers
  /// and layers facing away. The matrices are composed with Cairo's own functions on a scratch
  /// context, as ``LayerPainter/draw(_:in:)`` and `drawBody` compose them, so a prediction made
  /// from them (a gradient picture drawn ahead, glyphs rasterised ahead) names what the frame uses.
  static func forEachLayerDrawnIntoTheFrame(
    _ layers: [Layer], scale: Double,
    _ body: (_ layer: Layer, _ matrix: cairo_matrix_t, _ above: [(layer: Layer, matrix: cairo_matrix_t)]) -> Void
  ) {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { return }
    defer { cairo_destroy(cr) }
    cairo_scale(cr, scale, scale)
    var above: [(layer: Layer, matrix: cairo_matrix_t)] = []
    func visit(_ layer: Layer, depth: Int) {
      // As LayerPainter.draw and drawBody decide what they draw, and where.
      guard depth < 64, !layer.isHidden, layer.opacity > 0, layer.colorMultiplier.alpha > 0 else { return }
      if !layer.isDoubleSided && !layer.transform.isFlat && layer.isFacingAway { return }
      let m = layer.transformToSuperlayer
      guard m.isAffine, abs(m.m11 * m.m22 - m.m12 * m.m21) > 1e-12, CairoDraw.accepts(cr, affine: m) else { return }
      let masked = layer.mask.map { !$0.isHidden } ?? false
      guard layer.opacity >= 1, !masked, layer.colorMultiplier == .white else { return }
      cairo_save(cr)
      defer { cairo_restore(cr) }
      CairoDraw.transform(cr, affine: m)
      let matrix = CairoDraw.matrix(cr)
      body(layer, matrix, above)
      above.append((layer, matrix))
      defer { above.removeLast() }
      for sublayer in layer.sublayersInDrawingOrder { visit(sublayer, depth: depth + 1) }
    }
    for layer in layers { visit(layer, depth: 0) }
  }
}
