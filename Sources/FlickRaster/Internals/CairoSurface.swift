internal import CCairo

/// Owns a Cairo image surface (premultiplied ARGB32) and its drawing context.
final class CairoSurface {
  let surface: OpaquePointer
  let context: OpaquePointer
  let width: Int
  let height: Int

  init(width: Int, height: Int) throws(RasterError) {
    guard (1...16384).contains(width), (1...16384).contains(height) else {
      throw .invalidSize(width: width, height: height)
    }
    guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
      throw .cairo("cannot create surface")
    }
    let status = cairo_surface_status(s)
    guard status == CAIRO_STATUS_SUCCESS, let c = cairo_create(s) else {
      let message = String(cString: cairo_status_to_string(status))
      cairo_surface_destroy(s)
      throw .cairo(message)
    }
    self.surface = s
    self.context = c
    self.width = width
    self.height = height
  }

  deinit {
    cairo_destroy(context)
    cairo_surface_destroy(surface)
  }

  /// Copies the surface's pixels into a ``Frame``.
  func makeFrame() -> Frame {
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let count = stride * height
    guard let data = cairo_image_surface_get_data(surface) else {
      return Frame(width: width, height: height)  // unreachable for a surface that was created
    }
    let pixels = [UInt8](UnsafeBufferPointer(start: data, count: count))
    return Frame(width: width, height: height, bytesPerRow: stride, pixels: pixels)
  }
}
