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
      if !keep, Self.paintDirectly(g, of: layer, matrix: m, area: area, in: cr) { return nil }
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

  /// Paints the gradient layer straight into `cr`'s target where that writes exactly the bytes a
  /// copy of its picture (``gradientPicture(_:of:matrix:area:arena:)``) would: it covers whole
  /// pixels opaquely, the clip does not cut into it, and the target is an ARGB32 image whose
  /// device offset is whole pixels. False: nothing was painted.
  ///
  /// The picture is drawn in place: the target's pixels over `area` as a surface of their own,
  /// with the picture's matrix. Cairo and the rasters see the surface size, matrix and composite
  /// extents they see in the picture, and a radial gradient's samples depend on all three (Cairo
  /// fits its pixman transform at the centre of the composite); every pixel is covered by an
  /// opaque colour, so it is the picture's pixel, which copying the picture with OVER or SOURCE
  /// stores too. An axial gradient drawn in device space itself is painted by
  /// ``paintLinear(_:of:matrix:area:in:)``: a whole-pixel translation moves pixman's samples by
  /// whole pixels.
  static func paintDirectly(
    _ g: GradientContent, of layer: Layer, matrix m: cairo_matrix_t, area: (Int, Int, Int, Int), in cr: OpaquePointer
  ) -> Bool {
    let op = cairo_get_operator(cr)
    guard op == CAIRO_OPERATOR_OVER || op == CAIRO_OPERATOR_SOURCE,
      fillsWholePixels(g, of: layer, matrix: m, area: area, in: cr)
    else { return false }
    if paintLinear(g, of: layer, matrix: m, area: area, in: cr) { return true }
    guard let target = cairo_get_group_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
      cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32
    else { return false }
    var (ox, oy, sx, sy) = (0.0, 0.0, 0.0, 0.0)
    cairo_surface_get_device_offset(target, &ox, &oy)
    cairo_surface_get_device_scale(target, &sx, &sy)
    guard sx == 1, sy == 1, ox == ox.rounded(), oy == oy.rounded(), abs(ox) < 16_777_216, abs(oy) < 16_777_216
    else { return false }
    let (x0, y0, x1, y1) = area
    let (left, top) = (x0 + Int(ox), y0 + Int(oy))
    guard left >= 0, top >= 0, x1 + Int(ox) <= Int(cairo_image_surface_get_width(target)),
      y1 + Int(oy) <= Int(cairo_image_surface_get_height(target))
    else { return false }
    cairo_surface_flush(target)
    guard let data = cairo_image_surface_get_data(target) else { return false }
    let stride = Int(cairo_image_surface_get_stride(target))
    guard
      let view = cairo_image_surface_create_for_data(
        data + top * stride + 4 * left, CAIRO_FORMAT_ARGB32, Int32(x1 - x0), Int32(y1 - y0), Int32(stride))
    else { return false }
    defer { cairo_surface_destroy(view) }
    guard cairo_surface_status(view) == CAIRO_STATUS_SUCCESS, let vcr = cairo_create(view),
      cairo_status(vcr) == CAIRO_STATUS_SUCCESS
    else { return false }
    defer { cairo_destroy(vcr) }
    drawPicture(g, of: layer, matrix: m, origin: (x0, y0), in: vcr, cleared: nil)
    cairo_surface_flush(view)
    cairo_surface_mark_dirty_rectangle(target, Int32(left), Int32(top), Int32(x1 - x0), Int32(y1 - y0))
    return true
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
    drawPicture(g, of: layer, matrix: m, origin: (x0, y0), in: gcr, cleared: image)
    cairo_surface_flush(image.surface)
    return image
  }

  /// Draws the gradient layer's picture through `cr`, a fresh context on an ARGB32 image of
  /// the picture's size whose pixel (0, 0) is the device pixel `origin`: into `cleared` (that
  /// image, every byte zero), or over pixels the layer covers opaquely (nil; the rasters then
  /// store their pixels, as OVER does with opaque colours, and the face fill, which draws only
  /// rounded layers, is not asked).
  private static func drawPicture(
    _ g: GradientContent, of layer: Layer, matrix m: cairo_matrix_t, origin: (Int, Int), in cr: OpaquePointer,
    cleared: CairoImage?
  ) {
    var local = m
    local.x0 -= Double(origin.0)
    local.y0 -= Double(origin.1)
    cairo_set_matrix(cr, &local)
    if let image = cleared, GradientFaceFill.fill(g, of: layer, matrix: local, image: image, context: cr) { return }
    if !paintRadial(g, of: layer, in: cr, clear: true) {
      fillGradient(g, of: layer, in: cr)
    }
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
