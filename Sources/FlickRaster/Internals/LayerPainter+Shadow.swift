internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// Draws the layer's shadow: its shape's alpha blurred by a Gaussian of standard deviation
  /// `shadowRadius` (three box passes), offset by `shadowOffset`, in `shadowColor`.
  ///
  /// Only the part of the blurred buffer that can reach the clip is made: a shadow far wider than
  /// the frame (a radius in the hundreds, a huge layer) blurs the clip's extents grown by the
  /// blur's reach, not the whole shadow. See ``ShadowMask/Window``.
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
    var ax = layer.shadowOffset.x
    var ay = layer.shadowOffset.y
    cairo_matrix_transform_point(&m, &ax, &ay)
    let anchor = Point(x: ax, y: ay)
    let sigma = ShadowMask.sigma(radius: layer.shadowRadius, matrix: m)
    let factor = ShadowMask.factor(sigma: sigma)
    let need = ShadowMask.Window.visible(in: cr, anchor: anchor, factor: factor)
    let key = ShadowKey(source: source, linear: [m.xx, m.yx, m.xy, m.yy], sigma: max(0, layer.shadowRadius))
    let make = { () throws(RasterError) -> ShadowMask? in
      try self.makeShadow(source, linear: m, sigma: sigma, need: self.cropsShadows ? need : nil)
    }
    let frameArea = self.frameArea(factor: factor)
    let usable = { (kept: ShadowMask) -> Bool in
      !self.cropsShadows || kept.matches(need, frameArea: frameArea, minimumArea: self.minimumCutArea)
    }
    let mask: ShadowMask?
    var kept = cache != nil
    if let cache {
      mask = try cache.shadow(key, usable: usable, make)
    } else if case .layer = source {
      // A layer-shaped shadow draws the subtree, its sublayers' shadows included, and the layer
      // then draws the subtree again: without keeping the masks, each level of nested shadows
      // would double the work. The frame keeps them as the cache keeps them across frames.
      kept = true
      if let found = frameShadows[key], usable(found) {
        mask = found
      } else {
        mask = try make()
        if let mask { frameShadows[key] = mask }
      }
    } else {
      mask = try make()
    }
    guard let mask else { return }
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
    mask.composite(in: cr, anchor: anchor, color: color, keepsCopies: kept, hole: hole)
  }

  /// The target's area in buffer pixels of a mask reduced `factor` times.
  private func frameArea(factor: Double) -> Int { max(1, targetWidth * targetHeight / Int(factor * factor)) }

  /// Renders the shape's alpha under the linear part of `linear` into a padded buffer
  /// (reduced 2× or 4× for soft shadows) and blurs it. With `need` (the buffer pixels the clip
  /// can see), a mask larger than four frames is cut to that window grown by the blur's reach
  /// (``ShadowMask/cut(need:full:margin:frameArea:)``).
  private func makeShadow(
    _ source: ShadowKey.Source, linear m: cairo_matrix_t, sigma: Double, need: ShadowMask.Window?
  ) throws(RasterError) -> ShadowMask? {
    let factor = ShadowMask.factor(sigma: sigma)
    let s = sigma / factor
    let blurReach = BoxBlur.reach(sigma: s)
    let reach = Double(blurReach + 2)
    let local: Rect
    switch source {
    case .path(let p): local = p.controlPointBounds
    case .layer(let l): local = inkExtents(l, linear: LinearMap(xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy)) ?? .zero
    }
    var box: Box?
    for (x, y) in [
      (local.minX, local.minY), (local.maxX, local.minY), (local.minX, local.maxY), (local.maxX, local.maxY),
    ] {
      let p = Point(x: (m.xx * x + m.xy * y) / factor, y: (m.yx * x + m.yy * y) / factor)
      if box == nil { box = Box(Rect(origin: p, size: .zero)) } else { box?.add(p) }
    }
    guard let b = box else { return nil }
    // The whole blurred shadow, in buffer pixels relative to the shape's origin.
    let full = ShadowMask.Window(
      x0: CairoDraw.pixel((b.minX - reach).rounded(.down)), y0: CairoDraw.pixel((b.minY - reach).rounded(.down)),
      x1: CairoDraw.pixel((b.maxX + reach).rounded(.up)), y1: CairoDraw.pixel((b.maxY + reach).rounded(.up)))
    guard !full.isEmpty else { return nil }
    // Along a cut edge the blur's sums miss what lies beyond it, and Cairo clips the shape there.
    let margin = blurReach + 4
    var drawn = full
    if let need {
      let frameArea = self.frameArea(factor: factor)
      guard
        let cut = ShadowMask.cut(
          need: need, full: full, margin: margin, frameArea: frameArea, minimumArea: minimumCutArea)
      else { return nil }
      drawn = cut
    }
    let (ox, oy, width, height) = (drawn.x0, drawn.y0, drawn.width, drawn.height)
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
    BoxBlur.blur(
      data, width: width, height: height, stride: Int(cairo_image_surface_get_stride(image.surface)), sigma: s)
    cairo_surface_mark_dirty(image.surface)
    shadowStatistics.masks += 1
    shadowStatistics.blurredPixels += width * height
    shadowStatistics.largestMask = max(shadowStatistics.largestMask, width * height)
    return ShadowMask(image: image, originX: ox, originY: oy, factor: Int(factor), full: full, margin: margin)
  }
}
