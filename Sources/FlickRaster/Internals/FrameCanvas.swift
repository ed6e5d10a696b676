internal import CCairo
import FlickMotion

/// Draws straight into the pixel array a ``Frame`` will own, so no copy is made afterwards.
enum FrameCanvas {
  /// A `width × height` frame drawn by `body`. With an opaque `fill` the pixels are not cleared
  /// first: the fill (operator SOURCE) writes every one of them. With a `pool`, the pixels go
  /// into a buffer taken from it when it has one of the right size (cleared the same way, so
  /// the result does not depend on what the buffer held).
  static func draw(
    width: Int, height: Int, fill: Color?, pool: FramePool? = nil, _ body: (OpaquePointer) throws(RasterError) -> Void
  ) throws(RasterError) -> Frame {
    guard (1...16384).contains(width), (1...16384).contains(height) else {
      throw .invalidSize(width: width, height: height)
    }
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
    let count = stride * height
    let opaque = fill.map { $0.alpha >= 1 } ?? false
    var failure: RasterError?
    func paint(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
      guard let surface = cairo_image_surface_create_for_data(
        buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
      else {
        failure = .cairo("cannot create surface")
        return
      }
      defer { cairo_surface_destroy(surface) }
      guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
        failure = .cairo(String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        return
      }
      defer { cairo_destroy(cr) }
      if let fill, fill.alpha > 0 {
        CairoDraw.setSource(cr, fill)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
      }
      do throws(RasterError) {
        try body(cr)
      } catch {
        failure = error
        return
      }
      let status = cairo_status(cr)
      if status != CAIRO_STATUS_SUCCESS { failure = .cairo(String(cString: cairo_status_to_string(status))) }
      cairo_surface_flush(surface)
    }
    let pixels: [UInt8]
    if let pool, var reused = pool.take(count: count) {
      // Reading the address does not copy; asking for mutable access copies a shared buffer.
      let before = reused.withUnsafeBufferPointer { $0.baseAddress }
      reused.withUnsafeMutableBufferPointer { buffer in
        if UnsafePointer(buffer.baseAddress) != before { pool.noteCopied() }
        if !opaque { buffer.update(repeating: 0) }
        paint(buffer)
      }
      pixels = reused
    } else {
      pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        if !opaque, let base = buffer.baseAddress { base.initialize(repeating: 0, count: count) }
        initialized = count
        paint(buffer)
      }
    }
    if let failure { throw failure }
    return Frame(width: width, height: height, bytesPerRow: stride, pixels: pixels)
  }
}
