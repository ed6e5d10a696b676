internal import CCairo
import Foundation

extension Frame {
  /// Encodes the frame as a PNG file (8-bit RGBA, un-premultiplied), written atomically: a
  /// temporary file beside `path` is renamed over it only once it is complete.
  ///
  /// - Throws: ``RasterError/unwritableImage(path:reason:)``.
  public func writePNG(to path: String) throws(RasterError) {
    let url = URL(fileURLWithPath: path)
    let tmp = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
    var copy = pixels
    let status: cairo_status_t = copy.withUnsafeMutableBufferPointer { buffer in
      guard let surface = cairo_image_surface_create_for_data(
        buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(bytesPerRow))
      else { return CAIRO_STATUS_NO_MEMORY }
      defer { cairo_surface_destroy(surface) }
      return cairo_surface_write_to_png(surface, tmp)
    }
    guard status == CAIRO_STATUS_SUCCESS else {
      unlink(tmp)
      throw .unwritableImage(path: path, reason: String(cString: cairo_status_to_string(status)))
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
    guard let surface = cairo_image_surface_create_from_png(path) else {
      throw .unreadableImage(path: path, reason: "cannot decode")
    }
    defer { cairo_surface_destroy(surface) }
    let status = cairo_surface_status(surface)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw .unreadableImage(path: path, reason: String(cString: cairo_status_to_string(status)))
    }
    let w = Int(cairo_image_surface_get_width(surface))
    let h = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    var argb = surface
    if cairo_image_surface_get_format(surface) != CAIRO_FORMAT_ARGB32 {
      // RGB24 and others: draw onto an ARGB32 surface so the layout is always the same.
      guard let converted = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h)),
        let cr = cairo_create(converted)
      else { throw .unreadableImage(path: path, reason: "out of memory") }
      cairo_set_source_surface(cr, surface, 0, 0)
      cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
      cairo_paint(cr)
      cairo_destroy(cr)
      argb = converted
    }
    defer { if argb != surface { cairo_surface_destroy(argb) } }
    cairo_surface_flush(argb)
    let argbStride = argb == surface ? stride : Int(cairo_image_surface_get_stride(argb))
    guard let data = cairo_image_surface_get_data(argb) else {
      throw .unreadableImage(path: path, reason: "no pixel data")
    }
    self.init(
      width: w, height: h, bytesPerRow: argbStride,
      pixels: [UInt8](UnsafeBufferPointer(start: data, count: argbStride * h)))
  }
}
