internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// Multiplies the premultiplied pixels of a finished group by `color`, component by component:
  /// a pixel `(a, r, g, b)` becomes `(a·αm, r·rm·αm, g·gm·αm, b·bm·αm)`, which is the straight
  /// colour multiplied by the multiplier's colour and its alpha by the multiplier's alpha. In
  /// integers, so every run gives the same bytes.
  func multiply(_ group: GroupPattern, by color: Color) {
    var surface: OpaquePointer?
    guard cairo_pattern_get_surface(group.pattern, &surface) == CAIRO_STATUS_SUCCESS, let surface,
      cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
      cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
    else { return }
    cairo_surface_flush(surface)
    guard let data = cairo_image_surface_get_data(surface) else { return }
    let width = Int(cairo_image_surface_get_width(surface))
    let height = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    func byte(_ v: Double) -> UInt32 { UInt32((CairoDraw.clamp(v) * 255).rounded()) }
    let fa = byte(color.alpha)
    let fr = byte(CairoDraw.clamp(color.red) * CairoDraw.clamp(color.alpha))
    let fg = byte(CairoDraw.clamp(color.green) * CairoDraw.clamp(color.alpha))
    let fb = byte(CairoDraw.clamp(color.blue) * CairoDraw.clamp(color.alpha))
    @inline(__always) func scale(_ v: UInt32, _ f: UInt32) -> UInt32 { (v * f + 127) / 255 }
    for y in 0..<height {
      let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width {
        let p = row[x]
        guard p != 0 else { continue }
        let a = scale(p >> 24, fa), r = scale((p >> 16) & 0xFF, fr)
        let g = scale((p >> 8) & 0xFF, fg), b = scale(p & 0xFF, fb)
        row[x] = a << 24 | min(r, a) << 16 | min(g, a) << 8 | min(b, a)
      }
    }
    cairo_surface_mark_dirty(surface)
  }
}
