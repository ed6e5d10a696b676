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
    let image = try DecodedImage.decodePNG(path: path)
    self.init(width: image.width, height: image.height, bytesPerRow: image.stride, pixels: image.copyPixels())
  }
}
