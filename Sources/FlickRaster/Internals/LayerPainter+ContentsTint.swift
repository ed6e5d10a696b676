internal import CCairo
import FlickMotion
import FlickScene
import Foundation

extension LayerPainter {
  /// Draws a `contents` picture tinted (`contentsTint`, a template image): the picture is drawn
  /// as usual into a group at the device resolution — an SVG as vectors, so it stays crisp at
  /// any scale — and that group's alpha masks a fill of the tint colour.
  ///
  /// The group is confined to the device pixels the picture can cover (its `contentsGravity`
  /// rectangle, rounded out to whole pixels so the clip itself adds no antialiasing).
  func drawTintedContents(_ ref: LayerImage, tint: Color, of layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    guard tint.alpha > 0 else { return }
    let size: Size
    if SVGStore.isSVG(ref.path) {
      size = try SVGStore.withDocument(ref.path) { $0.size }
    } else {
      let image = try ImageStore.image(at: ref.path)
      size = Size(width: Double(image.width), height: Double(image.height))
    }
    let rect = layer.contentsGravity.rect(forImageOf: size, in: layer.bounds)
    guard rect.width > 0, rect.height > 0 else { return }
    let box = CairoDraw.deviceBox(rect, CairoDraw.matrix(cr))
    guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return }
    let x0 = max(0, CairoDraw.pixel(box.minX.rounded(.down))), y0 = max(0, CairoDraw.pixel(box.minY.rounded(.down)))
    let x1 = min(targetWidth, CairoDraw.pixel(box.maxX.rounded(.up))),
      y1 = min(targetHeight, CairoDraw.pixel(box.maxY.rounded(.up)))
    guard x1 > x0, y1 > y0 else { return }
    cairo_save(cr)
    defer { cairo_restore(cr) }
    var m = CairoDraw.matrix(cr)
    cairo_identity_matrix(cr)
    cairo_rectangle(cr, Double(x0), Double(y0), Double(x1 - x0), Double(y1 - y0))
    cairo_clip(cr)
    cairo_set_matrix(cr, &m)
    cairo_push_group(cr)
    var failure: RasterError?
    do {
      try drawContents(LayerImage(path: ref.path), of: layer, in: cr)
    } catch {
      failure = error
    }
    guard let mask = cairo_pop_group(cr) else { return }
    defer { cairo_pattern_destroy(mask) }
    if let failure { throw failure }
    CairoDraw.setSource(cr, tint)
    cairo_mask(cr, mask)
  }
}
