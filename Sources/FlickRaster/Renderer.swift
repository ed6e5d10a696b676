import FlickMotion
import FlickScene
internal import CCairo

/// Draws ``RenderTree`` snapshots into ``Frame``s with Cairo.
///
/// A renderer holds no state between frames, so any number of them can draw on any threads
/// and the same tree always gives byte-identical pixels.
public struct Renderer: Sendable {
  /// Pixels per point (1 = one pixel per point).
  public var scale: Double

  public init(scale: Double = 1) {
    self.scale = scale
  }

  /// Rasterises `tree` into a new frame of `tree.size × scale` pixels.
  ///
  /// - Throws: ``RasterError`` when the size is not drawable or Cairo fails.
  public func render(_ tree: RenderTree) throws(RasterError) -> Frame {
    let width = Int((tree.size.width * scale).rounded())
    let height = Int((tree.size.height * scale).rounded())
    let target = try CairoSurface(width: width, height: height)
    let cr = target.context
    cairo_scale(cr, scale, scale)
    if tree.backgroundColor.alpha > 0 {
      setSource(cr, tree.backgroundColor)
      cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
      cairo_paint(cr)
      cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }
    for layer in tree.layers {
      draw(layer, in: cr)
    }
    let status = cairo_status(cr)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw .cairo(String(cString: cairo_status_to_string(status)))
    }
    return target.makeFrame()
  }

  private func draw(_ layer: Layer, in cr: OpaquePointer) {
    guard layer.opacity > 0 else { return }
    cairo_save(cr)
    defer { cairo_restore(cr) }
    let grouped = layer.opacity < 1
    if grouped { cairo_push_group(cr) }
    let frame = layer.frame
    cairo_translate(cr, frame.minX - layer.bounds.minX, frame.minY - layer.bounds.minY)
    if layer.backgroundColor.alpha > 0 {
      roundedRect(cr, layer.bounds, radius: layer.cornerRadius)
      setSource(cr, layer.backgroundColor)
      cairo_fill(cr)
    }
    for sublayer in layer.sublayers {
      draw(sublayer, in: cr)
    }
    if grouped {
      cairo_pop_group_to_source(cr)
      cairo_paint_with_alpha(cr, min(1, layer.opacity))
    }
  }

  private func roundedRect(_ cr: OpaquePointer, _ r: Rect, radius: Double) {
    let radius = min(max(0, radius), r.width / 2, r.height / 2)
    guard radius > 0 else {
      cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
      return
    }
    cairo_new_sub_path(cr)
    cairo_arc(cr, r.maxX - radius, r.minY + radius, radius, -.pi / 2, 0)
    cairo_arc(cr, r.maxX - radius, r.maxY - radius, radius, 0, .pi / 2)
    cairo_arc(cr, r.minX + radius, r.maxY - radius, radius, .pi / 2, .pi)
    cairo_arc(cr, r.minX + radius, r.minY + radius, radius, .pi, 3 * .pi / 2)
    cairo_close_path(cr)
  }

  private func setSource(_ cr: OpaquePointer, _ c: Color) {
    func clamp(_ v: Double) -> Double { min(1, max(0, v)) }
    cairo_set_source_rgba(cr, clamp(c.red), clamp(c.green), clamp(c.blue), clamp(c.alpha))
  }
}
