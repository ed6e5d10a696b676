internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// Whether drawing `layer`, the first top-level layer in painter's order, starts by writing
  /// every pixel of a `width × height` frame drawn at `scale` with an opaque value that does not
  /// depend on what the pixel held: then the frame need not be cleared or filled before it.
  ///
  /// Accepted: a layer drawn straight into the frame (no group: opacity 1, no mask, tint or
  /// backdrop; no shadow, which would be drawn first; no 3D rotation), axis-aligned, whose
  /// bounds cover the whole frame on pixel boundaries, without rounded corners, and whose first
  /// drawing is an opaque background colour or, with none and no picture, an opaque axial
  /// gradient. Cairo fills such a rectangle as whole-pixel boxes (no antialiased edge), and OVER
  /// with an opaque source writes the source whatever the destination held (pixman's `d × 0`
  /// is 0), so the pixels are those of a cleared frame.
  static func paintsEveryPixel(_ layer: Layer, width: Int, height: Int, scale: Double) -> Bool {
    guard !layer.isHidden, layer.opacity >= 1, layer.mask == nil, layer.colorMultiplier == .white,
      layer.backdrop == nil, layer.shadowOpacity <= 0 || layer.shadowColor.alpha <= 0, layer.transform.isFlat,
      layer.cornerRadius <= 0 || layer.maskedCorners.isEmpty
    else { return false }
    if layer.backgroundColor.alpha > 0 {
      guard layer.backgroundColor.alpha >= 1 else { return false }
    } else {
      guard layer.contents == nil, case .gradient(let g) = layer.content, g.kind == .axial,
        !g.colors.colors.isEmpty, g.colors.colors.allSatisfy({ $0.alpha >= 1 })
      else { return false }
    }
    let m = layer.transformToSuperlayer
    guard m.isAffine, abs(m.m11 * m.m22 - m.m12 * m.m21) > 1e-12 else { return false }
    // The matrix the painter draws the layer with: the canvas scale, then the layer's own.
    var own = cairo_matrix_t()
    cairo_matrix_init(&own, m.m11, m.m21, m.m12, m.m22, m.m13, m.m23)
    var canvas = cairo_matrix_t()
    cairo_matrix_init_scale(&canvas, scale, scale)
    var device = cairo_matrix_t()
    cairo_matrix_multiply(&device, &own, &canvas)
    guard device.xy == 0, device.yx == 0, device.xx != 0, device.yy != 0 else { return false }
    let box = CairoDraw.deviceBox(layer.bounds, device)
    let edges = [box.minX, box.minY, box.maxX, box.maxY]
    guard edges.allSatisfy({ $0.isFinite && abs($0 - $0.rounded()) < 1e-9 }) else { return false }
    return box.minX.rounded() <= 0 && box.minY.rounded() <= 0 && box.maxX.rounded() >= Double(width)
      && box.maxY.rounded() >= Double(height)
  }
}
