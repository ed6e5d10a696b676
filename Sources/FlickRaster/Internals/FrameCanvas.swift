internal import CCairo
import FlickMotion

/// Draws straight into the pixel array a ``Frame`` will own, so no copy is made afterwards.
enum FrameCanvas {
  /// A `width × height` frame drawn by `body`. With an opaque `fill` the pixels are not cleared
  /// first: the fill (operator SOURCE) writes every one of them. With a `pool`, the pixels go
  /// into a buffer taken from it when it has one of the right size (cleared the same way, so
  /// the result does not depend on what the buffer held).
  ///
  /// With `initial` (`stride × height` bytes: a frame of this size already filled and partly
  /// drawn), the pixels start as a copy of it instead of the fill; the context's state is set as
  /// the fill leaves it, so `body` draws exactly as it would after the fill. `body` gets the
  /// pixels too (call `cairo_surface_flush` on the target before reading them).
  ///
  /// `overwritten`: the first thing `body` draws writes every pixel with a value that does not
  /// depend on what the pixel held (``LayerPainter/paintsEveryPixel(_:width:height:scale:)``),
  /// so the pixels are neither cleared nor filled first.
  static func draw(
    width: Int, height: Int, fill: Color?, pool: FramePool? = nil, initial: [UInt8]? = nil, overwritten: Bool = false,
    _ body: (OpaquePointer, UnsafeMutableBufferPointer<UInt8>) throws(RasterError) -> Void
  ) throws(RasterError) -> Frame {
    guard (1...16384).contains(width), (1...16384).contains(height) else {
      throw .invalidSize(width: width, height: height)
    }
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
    let count = stride * height
    if let initial, initial.count != count {
      throw .cairo("a frame of \(width)×\(height) pixels cannot start from \(initial.count) bytes")
    }
    // Nothing to clear when every byte is written before drawing: by an opaque fill or a copy.
    let opaque = initial != nil || overwritten || (fill.map { $0.alpha >= 1 } ?? false)
    var failure: RasterError?
    func paint(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
      if let initial { _ = buffer.update(fromContentsOf: initial) }
      guard
        let surface = cairo_image_surface_create_for_data(
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
        if initial == nil, !overwritten { cairo_paint(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
      }
      do throws(RasterError) {
        try body(cr, buffer)
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
