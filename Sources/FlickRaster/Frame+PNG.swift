internal import CCairo
internal import CPNG
import FlickMotion
import FlickScene
import Foundation

extension Frame {
  /// Encodes the frame as a PNG file (8-bit, un-premultiplied; RGB when every pixel is opaque,
  /// RGBA otherwise), written atomically: a temporary file beside `path` is renamed over it only
  /// once it is complete.
  ///
  /// The pixels a decoder reads back are exactly those Cairo's `cairo_surface_write_to_png`
  /// stores (same colour type, same un-premultiplying). The bytes are Flick's own encoder's
  /// (`Sources/CPNG/fastpng.h`): each row filtered with None, Sub or Up, LZ77 limited to runs
  /// (distance 1 and one pixel) and long repeats found by a sparse hash probe, one dynamic
  /// Huffman block per 128 KiB, the file assembled in memory and written with one `write`. They
  /// differ from libpng's and Cairo's for the same pixels (the decoded pixels do not). On the
  /// bundled templates' frames it takes 2.1–3.5× less CPU than libpng at zlib level 1 (the
  /// previous writer) for 0.56–1.01× its file size (docs/benchmarks.md, "Fast PNG encoder").
  ///
  /// - Throws: ``RasterError/unwritableImage(path:reason:)``, also when ``pixels`` does not
  ///   hold `bytesPerRow × height` bytes (``pixelsMismatch``; nothing is written).
  public func writePNG(to path: String) throws(RasterError) { try writePNG(to: path, threads: 1) }

  /// ``writePNG(to:)`` with `threads` (1 or 2, more count as 2) sharing the encoding: the same
  /// bytes (see ``pngData(threads:)``). `commit` puts the finished temporary file in place of
  /// `path` and returns nil or why it could not (default
  /// ``FlickMotion/AtomicDestination/commit(_:to:)``; `flick still` commits under its
  /// interruption lock).
  package func writePNG(
    to path: String, threads: Int,
    commit: (_ temporary: String, _ destination: String) -> String? = commitInPlace
  ) throws(RasterError) {
    try writeAtomically(to: path, commit: commit) { tmp in
      let status = pixels.withUnsafeBufferPointer { buffer in
        flick_fastpng_write_threads(
          tmp, buffer.baseAddress, Int32(width), Int32(height), Int32(bytesPerRow), Int32(min(max(threads, 1), 2)))
      }
      return status == 0 ? nil : String(cString: strerror(status))
    }
  }

  /// The previous encoder, libpng at zlib level 1 with the Up filter on every row: the same
  /// decoded pixels as ``writePNG(to:)`` (used by the tests that check it).
  func writePNGWithLibpng(to path: String) throws(RasterError) {
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
        guard
          let surface = cairo_image_surface_create_for_data(
            buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(bytesPerRow))
        else { return CAIRO_STATUS_NO_MEMORY }
        defer { cairo_surface_destroy(surface) }
        return cairo_surface_write_to_png(surface, tmp)
      }
      return status == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(status))
    }
  }

  /// Puts a finished temporary file in place of the destination
  /// (``FlickMotion/AtomicDestination/commit(_:to:)``); nil, or why it could not.
  private static func commitInPlace(_ temporary: String, _ destination: String) -> String? {
    AtomicDestination.commit(temporary, to: destination)?.reason
  }

  /// Runs `encode` on a temporary path beside `path`
  /// (``FlickMotion/AtomicDestination/temporary(for:)``; it returns nil or a failure), then puts
  /// the result in place with `commit` (by default ``FlickMotion/AtomicDestination/commit(_:to:)``:
  /// flushed, renamed over `path`, the folder flushed); nothing is left behind on failure.
  private func writeAtomically(
    to path: String, commit: (_ temporary: String, _ destination: String) -> String? = commitInPlace,
    _ encode: (String) -> String?
  ) throws(RasterError) {
    // The encoders read `bytesPerRow × height` bytes from the array's start: never past its end.
    if let mismatch = pixelsMismatch { throw .unwritableImage(path: path, reason: mismatch) }
    let tmp = AtomicDestination.temporary(for: path)
    // Whatever has the temporary's name goes first (a link is removed, not followed): the
    // encoder creates a new file of its own.
    unlink(tmp)
    if let reason = encode(tmp) {
      unlink(tmp)
      throw .unwritableImage(path: path, reason: reason)
    }
    if let reason = commit(tmp, path) {
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
    let bytes: [UInt8]
    do {
      bytes = try AssetFile.read(path, maximumBytes: AssetFile.maximumImageBytes, kind: "an image file")
    } catch {
      throw .unreadableImage(path: path, reason: error.reason)
    }
    let image = try DecodedImage.decodePNG(bytes, path: path)
    self.init(width: image.width, height: image.height, bytesPerRow: image.stride, pixels: image.copyPixels())
  }
}
