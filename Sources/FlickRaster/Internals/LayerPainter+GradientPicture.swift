internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// Fills the layer's rounded bounds with the gradient. It is drawn into a device-aligned
  /// surface (its picture, ``gradientPicture(_:of:matrix:area:arena:)``) and then copied, in
  /// cached and uncached frames alike, so a gradient that does not change between frames is drawn
  /// once and only copied afterwards. A gradient that is not going to be kept and covers whole
  /// pixels opaquely is painted directly: the same pixels, without the intermediate. In a frame
  /// drawn without a cache, the picture may come from ``prefetch``, drawn ahead on another thread
  /// for the same key: the same pixels.
  func drawGradient(_ g: GradientContent, of layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    guard !g.colors.colors.isEmpty, layer.bounds.width > 0, layer.bounds.height > 0 else { return }
    let m = CairoDraw.matrix(cr)
    guard let area = Self.gradientArea(of: layer, matrix: m, targetWidth: targetWidth, targetHeight: targetHeight)
    else { return }
    let (x0, y0, _, _) = area
    let key = GradientKey(gradient: g, of: layer, matrix: m, area: area)
    let make = { (keep: Bool) -> CairoImage? in
      if !keep, Self.fillsWholePixels(g, of: layer, matrix: m, area: area, in: cr) {
        // Opaque and pixel-aligned with no clip: painting directly writes exactly the pixels a
        // copy of the picture would (every pixel fully covered, so OVER is a copy).
        if !Self.paintLinear(g, of: layer, matrix: m, area: area, in: cr) {
          Self.fillGradient(g, of: layer, in: cr)
        }
        return nil
      }
      if !keep, let ahead = self.prefetch?.take(key) { return ahead }
      return Self.gradientPicture(g, of: layer, matrix: m, area: area, arena: self.arena)
    }
    let picture: CairoImage?
    if let cache {
      picture = try cache.gradient(key, make)
    } else {
      picture = make(false)
    }
    guard let image = picture else { return }
    CairoDraw.paint(image, atDevice: x0, y0, in: cr)
  }

  /// The device pixels (x0, y0, x1, y1) a gradient layer drawn with user-to-device matrix `m`
  /// can touch on a target of `targetWidth` × `targetHeight` pixels, or nil when none.
  static func gradientArea(of layer: Layer, matrix m: cairo_matrix_t, targetWidth: Int, targetHeight: Int) -> (
    Int, Int, Int, Int
  )? {
    let box = CairoDraw.deviceBox(layer.bounds, m)
    let x0 = max(0, CairoDraw.pixel(box.minX.rounded(.down)))
    let y0 = max(0, CairoDraw.pixel(box.minY.rounded(.down)))
    let x1 = min(targetWidth, CairoDraw.pixel(box.maxX.rounded(.up)))
    let y1 = min(targetHeight, CairoDraw.pixel(box.maxY.rounded(.up)))
    return x1 > x0 && y1 > y0 ? (x0, y0, x1, y1) : nil
  }

  /// The gradient layer drawn alone into a cleared picture covering `area` (device pixels, from
  /// ``gradientArea(of:matrix:targetWidth:targetHeight:)``), with `m` moved to the picture's
  /// origin: what the layer's ``GradientKey`` names, whoever draws it. Nil when the memory or
  /// Cairo refuses.
  static func gradientPicture(
    _ g: GradientContent, of layer: Layer, matrix m: cairo_matrix_t, area: (Int, Int, Int, Int), arena: PixelArena
  ) -> CairoImage? {
    let (x0, y0, x1, y1) = area
    guard let image = CairoImage(width: x1 - x0, height: y1 - y0, format: CAIRO_FORMAT_ARGB32, arena: arena),
      let gcr = image.makeContext()
    else { return nil }
    defer { cairo_destroy(gcr) }
    var local = m
    local.x0 -= Double(x0)
    local.y0 -= Double(y0)
    cairo_set_matrix(gcr, &local)
    if !GradientFaceFill.fill(g, of: layer, matrix: local, image: image, context: gcr),
      !paintRadial(g, of: layer, in: gcr, clear: true)
    {
      fillGradient(g, of: layer, in: gcr)
    }
    cairo_surface_flush(image.surface)
    return image
  }

  /// Whether the gradient layer covers whole device pixels opaquely (opaque, square-cornered,
  /// axis-aligned on pixel edges, not conic): painted straight into the target unless the clip
  /// cuts into it (``fillsWholePixels(_:of:matrix:area:in:)``).
  static func coversWholePixels(_ g: GradientContent, of layer: Layer, matrix m: cairo_matrix_t) -> Bool {
    guard g.kind != .conic, g.colors.colors.allSatisfy({ $0.alpha >= 1 }),
      layer.cornerRadius <= 0 || layer.maskedCorners.isEmpty, m.xy == 0, m.yx == 0
    else { return false }
    let b = layer.bounds
    for v in [m.xx * b.minX + m.x0, m.xx * b.maxX + m.x0, m.yy * b.minY + m.y0, m.yy * b.maxY + m.y0] {
      guard abs(v - v.rounded()) < 1e-9 else { return false }
    }
    return true
  }
}

extension GradientKey {
  /// The key of `layer`'s gradient picture drawn with user-to-device matrix `m` over `area`.
  init(gradient g: GradientContent, of layer: Layer, matrix m: cairo_matrix_t, area: (Int, Int, Int, Int)) {
    self.init(
      gradient: g, bounds: layer.bounds, cornerRadius: layer.cornerRadius, maskedCorners: layer.maskedCorners,
      matrix: [m.xx, m.yx, m.xy, m.yy, m.x0 - Double(area.0), m.y0 - Double(area.1)],
      area: [area.2 - area.0, area.3 - area.1])
  }
}
