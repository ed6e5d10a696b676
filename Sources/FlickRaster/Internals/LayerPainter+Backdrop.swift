internal import CCairo
import FlickMotion
import FlickScene

/// A layer's processed backdrop: the blurred, saturated pixels behind it, placed in frame pixels.
struct BackdropImage {
  let image: CairoImage
  /// Frame pixel of the image's top-left corner.
  let x0: Int
  let y0: Int
  /// Frame pixels per image pixel: wide blurs are computed at half or quarter size, as shadows are.
  let reduction: Int
}

/// Identifies a processed backdrop: the captured pixels and what was done to them.
struct BackdropKey: Hashable {
  var width: Int
  var height: Int
  var sigma: Double
  var saturation: Double
  var pixels: [UInt8]

  func hash(into h: inout Hasher) {
    h.combine(width)
    h.combine(height)
    h.combine(sigma)
    h.combine(saturation)
    pixels.withUnsafeBytes { h.combine(bytes: $0) }
  }
}

extension LayerPainter {
  /// What `cr`'s surface holds behind `layer` (drawn in `cr`'s user space), blurred by the
  /// backdrop's radius and saturated, or nil when the layer covers no pixel. Read before the
  /// layer draws anything (its shadow included). Kept in the cache while the pixels behind and
  /// the material stay the same, so a static backdrop is blurred once.
  func captureBackdrop(_ layer: Layer, _ backdrop: LayerBackdrop, in cr: OpaquePointer) throws(RasterError)
    -> BackdropImage?
  {
    guard layer.bounds.width > 0, layer.bounds.height > 0, let target = cairo_get_group_target(cr) else { return nil }
    let m = CairoDraw.matrix(cr)
    let scale = abs(m.xx * m.yy - m.xy * m.yx).squareRoot()
    let sigma = min(max(backdrop.blurRadius.isNaN ? 0 : backdrop.blurRadius, 0), 250) * scale
    let saturation = min(max(backdrop.saturation.isNaN ? 1 : backdrop.saturation, 0), 4)
    let box = CairoDraw.deviceBox(layer.bounds, m)
    var clip = (0.0, 0.0, 0.0, 0.0)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_clip_extents(cr, &clip.0, &clip.1, &clip.2, &clip.3)
    cairo_restore(cr)
    // As for shadows: a blur with a device σ ≥ 6 px is computed at half size, ≥ 12 px at quarter
    // size, and scaled back bilinearly (a wide blur has no detail a reduction could lose).
    let reduction = sigma >= 12 ? 4 : sigma >= 6 ? 2 : 1
    let reach = (sigma > 0.05 ? BoxBlur.reach(sigma: sigma / Double(reduction)) : 0) * reduction + reduction
    let x0 = CairoDraw.pixel(max(box.minX, clip.0).rounded(.down)) - reach
    let y0 = CairoDraw.pixel(max(box.minY, clip.1).rounded(.down)) - reach
    let x1 = CairoDraw.pixel(min(box.maxX, clip.2).rounded(.up)) + reach
    let y1 = CairoDraw.pixel(min(box.maxY, clip.3).rounded(.up)) + reach
    guard x1 - x0 > 2 * reach, y1 - y0 > 2 * reach, x1 - x0 <= 16_384, y1 - y0 <= 16_384 else { return nil }
    let width = (x1 - x0 + reduction - 1) / reduction, height = (y1 - y0 + reduction - 1) / reduction
    guard let captured = CairoImage(width: width, height: height, format: CAIRO_FORMAT_ARGB32, arena: arena),
      let ccr = captured.makeContext()
    else { return nil }
    // User space of `ccr` is frame pixels; the target's device offset (a group) is respected.
    // Beyond the target's edge its edge pixels continue, as a blur of a full-bleed picture looks.
    cairo_scale(ccr, 1 / Double(reduction), 1 / Double(reduction))
    cairo_translate(ccr, Double(-x0), Double(-y0))
    cairo_set_source_surface(ccr, target, 0, 0)
    cairo_pattern_set_extend(cairo_get_source(ccr), CAIRO_EXTEND_PAD)
    cairo_pattern_set_filter(cairo_get_source(ccr), reduction == 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
    cairo_set_operator(ccr, CAIRO_OPERATOR_SOURCE)
    cairo_paint(ccr)
    cairo_destroy(ccr)
    cairo_surface_flush(captured.surface)
    guard let data = cairo_image_surface_get_data(captured.surface) else { return nil }
    let stride = Int(cairo_image_surface_get_stride(captured.surface))
    let count = stride * height
    let make = { () throws(RasterError) -> CairoImage? in
      Self.process(
        data, width: width, height: height, stride: stride, sigma: sigma / Double(reduction), saturation: saturation)
      cairo_surface_mark_dirty(captured.surface)
      return captured
    }
    let image: CairoImage?
    if let cache {
      let key = BackdropKey(
        width: width, height: height, sigma: sigma, saturation: saturation,
        pixels: Array(UnsafeBufferPointer(start: data, count: count)))
      image = try cache.backdrop(key, make)
    } else {
      image = try make()
    }
    return image.map { BackdropImage(image: $0, x0: x0, y0: y0, reduction: reduction) }
  }

  /// Fills the layer's rounded bounds with its processed backdrop, then its tint.
  func paintBackdrop(_ backdrop: BackdropImage?, of layer: Layer, in cr: OpaquePointer) {
    guard let material = layer.backdrop else { return }
    if let backdrop {
      var m = CairoDraw.matrix(cr)
      cairo_identity_matrix(cr)
      cairo_set_source_surface(cr, backdrop.image.surface, 0, 0)
      // Frame pixel u is image pixel (u − x0) / reduction.
      let f = Double(backdrop.reduction)
      var place = cairo_matrix_t()
      cairo_matrix_init_scale(&place, 1 / f, 1 / f)
      cairo_matrix_translate(&place, Double(-backdrop.x0), Double(-backdrop.y0))
      cairo_pattern_set_matrix(cairo_get_source(cr), &place)
      cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
      cairo_pattern_set_filter(
        cairo_get_source(cr), backdrop.reduction == 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
      cairo_set_matrix(cr, &m)
      CairoDraw.roundedBounds(layer, to: cr)
      cairo_fill(cr)
      // Let go of the backdrop's pixels.
      cairo_set_source_rgb(cr, 0, 0, 0)
    }
    if material.tint.alpha > 0 {
      CairoDraw.roundedBounds(layer, to: cr)
      CairoDraw.setSource(cr, material.tint)
      cairo_fill(cr)
    }
  }

  /// Blurs the premultiplied ARGB pixels channel by channel and applies the saturation matrix
  /// (the luminance-preserving one of CSS `saturate()` / SVG `feColorMatrix`), in integers.
  static func process(
    _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double, saturation: Double
  ) {
    if sigma > 0.05 {
      let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
      defer { plane.deallocate() }
      for channel in 0..<4 {
        for y in 0..<height {
          let row = data + y * stride
          for x in 0..<width { plane[y * width + x] = row[4 * x + channel] }
        }
        BoxBlur.blur(plane, width: width, height: height, stride: width, sigma: sigma)
        for y in 0..<height {
          let row = data + y * stride
          for x in 0..<width { row[4 * x + channel] = plane[y * width + x] }
        }
      }
    }
    // Rows of the matrix in 1/65536ths, for (r, g, b).
    let s = saturation
    let matrix: [Double] = [
      0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
      0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
      0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s,
    ]
    let fixed = matrix.map { Int64(($0 * 65536).rounded()) }
    let identity = abs(s - 1) < 1e-9
    for y in 0..<height {
      let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width {
        let p = row[x]
        let a = Int64(p >> 24)
        // The channel blurs round independently: keep colour within alpha (premultiplied).
        var r = min(Int64((p >> 16) & 0xFF), a), g = min(Int64((p >> 8) & 0xFF), a), b = min(Int64(p & 0xFF), a)
        if !identity, a > 0 {
          func mix(_ i: Int) -> Int64 {
            let v = (fixed[i] * r + fixed[i + 1] * g + fixed[i + 2] * b + 32768) >> 16
            return min(max(v, 0), a)
          }
          (r, g, b) = (mix(0), mix(3), mix(6))
        }
        row[x] = UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
      }
    }
  }
}
