internal import CCairo

/// Owns one Cairo image surface used as an intermediate (a gradient, a blurred shadow, a 3D
/// plane), drawn into memory from a worker's ``PixelArena``; the memory goes back to the arena
/// when the image is released.
final class CairoImage {
  let surface: OpaquePointer
  let width: Int
  let height: Int
  /// Where the pixels came from; images derived from this one take theirs from it too.
  let arena: PixelArena
  private let block: PixelArena.Block

  /// A cleared surface of `format` (every byte zero, as `cairo_image_surface_create` makes it),
  /// or nil when the size is empty or Cairo refuses it.
  init?(width: Int, height: Int, format: cairo_format_t, arena: PixelArena) {
    guard width > 0, height > 0 else { return nil }
    let stride = Int(cairo_format_stride_for_width(format, Int32(width)))
    guard stride > 0 else { return nil }
    guard let block = arena.take(stride * height) else { return nil }
    let s = cairo_image_surface_create_for_data(
      block.bytes.assumingMemoryBound(to: UInt8.self), format, Int32(width), Int32(height), Int32(stride))
    guard let s, cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
      if let s { cairo_surface_destroy(s) }
      arena.give(block)
      return nil
    }
    self.surface = s
    self.width = width
    self.height = height
    self.arena = arena
    self.block = block
  }

  deinit {
    // Finishing detaches the pixels from any reference Cairo still holds, so the block can be
    // reused safely.
    cairo_surface_finish(surface)
    cairo_surface_destroy(surface)
    arena.give(block)
  }

  /// A drawing context on the surface (the caller destroys it).
  func makeContext() -> OpaquePointer? {
    guard let cr = cairo_create(surface), cairo_status(cr) == CAIRO_STATUS_SUCCESS else { return nil }
    return cr
  }
}
