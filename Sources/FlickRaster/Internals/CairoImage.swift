internal import CCairo

/// Owns one Cairo image surface used as a cached intermediate (a gradient, a blurred shadow).
final class CairoImage {
  let surface: OpaquePointer
  let width: Int
  let height: Int

  /// A cleared surface of `format`, or nil when Cairo cannot allocate it.
  init?(width: Int, height: Int, format: cairo_format_t) {
    guard width > 0, height > 0, let s = cairo_image_surface_create(format, Int32(width), Int32(height)) else {
      return nil
    }
    guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(s)
      return nil
    }
    self.surface = s
    self.width = width
    self.height = height
  }

  deinit { cairo_surface_destroy(surface) }

  /// A drawing context on the surface (the caller destroys it).
  func makeContext() -> OpaquePointer? {
    guard let cr = cairo_create(surface), cairo_status(cr) == CAIRO_STATUS_SUCCESS else { return nil }
    return cr
  }
}
