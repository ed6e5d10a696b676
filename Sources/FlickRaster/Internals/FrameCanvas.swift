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
  ///
  /// `buffer`: an array to draw into itself, before the pool's, when it has `stride × height`
  /// bytes (pass it unshared, or it is copied first: arrays are copy-on-write); the frame then
  /// owns it. With `keepsContents`, its bytes are the pixels to start from (the frame drawn
  /// last into it, as `initial` would give them), so they are neither copied nor cleared, and
  /// a `buffer` of another size is an error.
  static func draw(
    width: Int, height: Int, fill: Color?, pool: FramePool? = nil, initial: [UInt8]? = nil, overwritten: Bool = false,
    buffer: consuming [UInt8]? = nil, keepsContents: Bool = false,
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
    var own = consume buffer
    let drawsOver = own?.count == count
    if keepsContents, !drawsOver {
      let bytes = own?.count ?? 0
      throw .cairo("a frame of \(width)×\(height) pixels cannot be drawn over \(bytes) bytes")
    }
    // Nothing to clear when every byte is written before drawing: by an opaque fill or a copy,
    // or already the starting pixels.
    let opaque = initial != nil || keepsContents || overwritten || (fill.map { $0.alpha >= 1 } ?? false)
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
        if initial == nil, !keepsContents, !overwritten { cairo_paint(cr) }
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
    // `take()` leaves `own` empty, so a buffer passed unshared is drawn into without a copy.
    if var reused = drawsOver ? own.take() : pool?.take(count: count) {
      // Reading the address does not copy; asking for mutable access copies a shared buffer.
      let before = reused.withUnsafeBufferPointer { $0.baseAddress }
      reused.withUnsafeMutableBufferPointer { buffer in
        if UnsafePointer(buffer.baseAddress) != before, !drawsOver { pool?.noteCopied() }
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
