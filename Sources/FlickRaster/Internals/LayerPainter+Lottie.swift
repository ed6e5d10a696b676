internal import CCairo
import FlickMotion
import FlickScene
import Foundation

extension LayerPainter {
  /// The most pixels one Lottie frame is drawn with (4096 × 4096); a larger device size is
  /// drawn at this size and scaled up.
  static let maximumLottiePixels = 4096 * 4096

  /// Draws the Lottie layer's current frame into the rectangle `contentsGravity` gives it.
  ///
  /// rlottie draws the frame as vectors into a picture of the layer's final device size (so it
  /// is crisp at any `--scale` and under any layer scale), which is then composited under the
  /// layer's transform like a `contents` image. At scale 1 with the composition's own size and
  /// a pixel-aligned position, every pixel is exactly rlottie's.
  func drawLottie(_ l: LottieContent, of layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    let rect = layer.contentsGravity.rect(forImageOf: l.size, in: layer.bounds)
    guard rect.width > 0, rect.height > 0, l.size.width > 0, l.size.height > 0 else { return }
    let m = CairoDraw.matrix(cr)
    let sx = (m.xx * m.xx + m.yx * m.yx).squareRoot()
    let sy = (m.xy * m.xy + m.yy * m.yy).squareRoot()
    // One factor for both sides: rlottie keeps the composition's aspect ratio.
    var k = max(sx * rect.width / l.size.width, sy * rect.height / l.size.height)
    guard k.isFinite, k > 0 else { return }
    let limit = (Double(Self.maximumLottiePixels) / (l.size.width * l.size.height)).squareRoot()
    k = min(k, limit)
    let pw = max(1, CairoDraw.pixel((l.size.width * k).rounded()))
    let ph = max(1, CairoDraw.pixel((l.size.height * k).rounded()))
    let frame = l.frameIndex
    let make = { () throws(RasterError) -> CairoImage? in
      guard let image = CairoImage(width: pw, height: ph, format: CAIRO_FORMAT_ARGB32, arena: self.arena),
        let data = cairo_image_surface_get_data(image.surface)
      else { return nil }
      let stride = Int(cairo_image_surface_get_stride(image.surface))
      cairo_surface_flush(image.surface)
      try LottieStore.withAnimation(l.path) { animation throws(RasterError) in
        animation.render(frame: frame, into: data, width: pw, height: ph, stride: stride)
      }
      cairo_surface_mark_dirty(image.surface)
      return image
    }
    let picture: CairoImage?
    if let cache {
      picture = try cache.lottie(LottieKey(path: l.path, frame: frame, width: pw, height: ph), make)
    } else {
      picture = try make()
    }
    guard let image = picture, let pattern = cairo_pattern_create_for_surface(image.surface) else { return }
    defer { cairo_pattern_destroy(pattern) }
    var pm = cairo_matrix_t()
    cairo_matrix_init_scale(&pm, Double(pw) / rect.width, Double(ph) / rect.height)
    cairo_matrix_translate(&pm, -rect.minX, -rect.minY)
    cairo_pattern_set_matrix(pattern, &pm)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_set_source(cr, pattern)
    cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
    cairo_fill(cr)
    // Let go of the picture before it returns to the arena.
    cairo_set_source_rgb(cr, 0, 0, 0)
  }
}
