internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// Draws the layer's shadow: its shape's alpha blurred by a Gaussian of standard deviation
  /// `shadowRadius` (three box passes), offset by `shadowOffset`, in `shadowColor`.
  func drawShadow(_ layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    guard layer.shadowOpacity > 0, layer.shadowColor.alpha > 0 else { return }
    var color = layer.shadowColor
    color.alpha = CairoDraw.clamp(color.alpha) * CairoDraw.clamp(layer.shadowOpacity)
    let source: ShadowKey.Source
    if let path = layer.shadowPath {
      source = .path(path)
    } else if isOpaqueRoundedBounds(layer) {
      source = .path(.roundedRect(layer.bounds, cornerRadius: layer.cornerRadius, corners: layer.maskedCorners))
    } else {
      var shape = layer
      shape.position = .zero
      shape.transform = .identity
      shape.opacity = 1
      shape.shadowOpacity = 0
      shape.mask = nil
      shape.id = ""
      source = .layer(shape)
    }
    if case .path(let p) = source, p.isEmpty { return }
    var m = CairoDraw.matrix(cr)
    let scale = abs(m.xx * m.yy - m.xy * m.yx).squareRoot()
    let key = ShadowKey(source: source, linear: [m.xx, m.yx, m.xy, m.yy], sigma: max(0, layer.shadowRadius))
    let make = { () throws(RasterError) -> ShadowMask? in
      try self.makeShadow(source, linear: m, sigma: max(0, layer.shadowRadius) * scale)
    }
    let mask: ShadowMask?
    if let cache {
      mask = try cache.shadow(key, make)
    } else {
      mask = try make()
    }
    guard let mask else { return }
    var ax = layer.shadowOffset.x
    var ay = layer.shadowOffset.y
    cairo_matrix_transform_point(&m, &ax, &ay)
    // Where the layer is opaque and axis-aligned, it will cover its own shadow: skip that part.
    var hole: (x0: Double, y0: Double, x1: Double, y1: Double)?
    if layer.shadowPath == nil, case .path = source, m.xy == 0, m.yx == 0 {
      let inset = min(max(0, layer.cornerRadius), layer.bounds.width / 2, layer.bounds.height / 2)
      let xs = [m.xx * (layer.bounds.minX + inset) + m.x0, m.xx * (layer.bounds.maxX - inset) + m.x0]
      let ys = [m.yy * (layer.bounds.minY + inset) + m.y0, m.yy * (layer.bounds.maxY - inset) + m.y0]
      let x0 = (xs.min() ?? 0).rounded(.up) + 1
      let y0 = (ys.min() ?? 0).rounded(.up) + 1
      let x1 = (xs.max() ?? 0).rounded(.down) - 1
      let y1 = (ys.max() ?? 0).rounded(.down) - 1
      if x1 > x0, y1 > y0 { hole = (x0, y0, x1, y1) }
    }
    mask.composite(in: cr, anchor: Point(x: ax, y: ay), color: color, keepsCopies: cache != nil, hole: hole)
  }

  /// Renders the shape's alpha under the linear part of `linear` into a padded buffer
  /// (reduced 2× or 4× for soft shadows) and blurs it.
  private func makeShadow(_ source: ShadowKey.Source, linear m: cairo_matrix_t, sigma: Double) throws(RasterError)
    -> ShadowMask?
  {
    let factor: Double = sigma >= 12 ? 4 : sigma >= 6 ? 2 : 1
    let s = sigma / factor
    let reach = Double(BoxBlur.reach(sigma: s) + 2)
    let local: Rect
    switch source {
    case .path(let p): local = p.controlPointBounds
    case .layer(let l): local = inkExtents(l) ?? .zero
    }
    var box: Box?
    for (x, y) in [(local.minX, local.minY), (local.maxX, local.minY), (local.minX, local.maxY), (local.maxX, local.maxY)] {
      let p = Point(x: (m.xx * x + m.xy * y) / factor, y: (m.yx * x + m.yy * y) / factor)
      if box == nil { box = Box(Rect(origin: p, size: .zero)) } else { box?.add(p) }
    }
    guard let b = box else { return nil }
    let ox = CairoDraw.pixel((b.minX - reach).rounded(.down))
    let oy = CairoDraw.pixel((b.minY - reach).rounded(.down))
    let width = CairoDraw.pixel((b.maxX + reach).rounded(.up)) - ox
    let height = CairoDraw.pixel((b.maxY + reach).rounded(.up)) - oy
    guard width > 0, height > 0, width <= 8192, height <= 8192,
      let image = CairoImage(width: width, height: height, format: CAIRO_FORMAT_A8, arena: arena),
      let scr = image.makeContext()
    else { return nil }
    var matrix = cairo_matrix_t()
    cairo_matrix_init(&matrix, m.xx / factor, m.yx / factor, m.xy / factor, m.yy / factor, -Double(ox), -Double(oy))
    cairo_set_matrix(scr, &matrix)
    var failure: RasterError?
    switch source {
    case .path(let p):
      CairoDraw.append(p, to: scr)
      cairo_set_source_rgba(scr, 0, 0, 0, 1)
      cairo_fill(scr)
    case .layer(let l):
      let saved = (targetWidth, targetHeight)
      (targetWidth, targetHeight) = (width, height)
      do { try drawOwnContent(l, in: scr) } catch { failure = error }
      (targetWidth, targetHeight) = saved
    }
    cairo_destroy(scr)
    if let failure { throw failure }
    cairo_surface_flush(image.surface)
    guard let data = cairo_image_surface_get_data(image.surface) else { return nil }
    BoxBlur.blur(data, width: width, height: height, stride: Int(cairo_image_surface_get_stride(image.surface)), sigma: s)
    cairo_surface_mark_dirty(image.surface)
    return ShadowMask(image: image, originX: ox, originY: oy, factor: Int(factor))
  }
}
