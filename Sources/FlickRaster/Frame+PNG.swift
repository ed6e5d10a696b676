internal import CCairo
internal import CPNG
import Foundation

extension Frame {
  /// Encodes the frame as a PNG file (8-bit, un-premultiplied; RGB when every pixel is opaque,
  /// RGBA otherwise), written atomically: a temporary file beside `path` is renamed over it only
  /// once it is complete.
  ///
  /// The pixels a decoder reads back are exactly those Cairo's `cairo_surface_write_to_png`
  /// stores (same colour type, same un-premultiplying); the encoding is tuned for speed (zlib
  /// level 1, the Up filter), about five times faster than Cairo's and smaller on rendered frames.
  ///
  /// - Throws: ``RasterError/unwritableImage(path:reason:)``.
  public func writePNG(to path: String) throws(RasterError) {
    try writeAtomically(to: path) { tmp in
      let status = pixels.withUnsafeBufferPointer { buffer in
        flick_png_write(tmp, buffer.baseAddress, Int32(width), Int32(height), Int32(bytesPerRow))
      }
      return status == 0 ? nil : String(cString: strerror(status))
    }
  }

  /// The reference encoder ``writePNG(to:)`` matches pixel for pixel: Cairo's own PNG writer
  /// (used by the tests that check it).
  func writePNGWithCairo(to path: String) throws(RasterError) {
    try writeAtomically(to: path) { tmp in
      var copy = pixels
      let status: cairo_status_t = copy.withUnsafeMutableBufferPointer { buffer in
        guard let surface = cairo_image_surface_create_for_data(
          buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(bytesPerRow))
        else { return CAIRO_STATUS_NO_MEMORY }
        defer { cairo_surface_destroy(surface) }
        return cairo_surface_write_to_png(surface, tmp)
      }
      return status == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(status))
    }
  }

  /// Runs `encode` on a temporary path beside `path` (it returns nil or a failure), then renames
  /// the result over `path`; nothing is left behind on failure.
  private func writeAtomically(to path: String, _ encode: (String) -> String?) throws(RasterError) {
    let url = URL(fileURLWithPath: path)
    let tmp = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
    if let reason = encode(tmp) {
      unlink(tmp)
      throw .unwritableImage(path: path, reason: reason)
    }
    guard rename(tmp, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(tmp)
      throw .unwritableImage(path: path, reason: reason)
    }
  }

  /// Decodes a PNG file into a premultiplied BGRA frame.
  ///
  /// - Throws: ``RasterError/unreadableImage(path:reason:)`` when the file is missing or not a PNG.
  public init(pngAt path: String) throws(RasterError) {
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw .unreadableImage(path: path, reason: "no such readable file")
    }
    let image = try DecodedImage.decodePNG(path: path)
    self.init(width: image.width, height: image.height, bytesPerRow: image.stride, pixels: image.copyPixels())
  }
}
