internal import CCairo
internal import CJPEG
internal import CWebP
import FlickMotion
import FlickScene
import Foundation

/// A decoded picture: premultiplied ARGB32 pixels that never change after decoding, so any
/// number of threads may wrap them in Cairo surfaces at once.
final class DecodedImage: @unchecked Sendable {
  let width: Int
  let height: Int
  let stride: Int
  private let pixels: UnsafeMutablePointer<UInt8>

  fileprivate init(width: Int, height: Int, stride: Int, pixels: UnsafeMutablePointer<UInt8>) {
    self.width = width
    self.height = height
    self.stride = stride
    self.pixels = pixels
  }

  deinit { pixels.deallocate() }

  /// A Cairo surface over the pixels (read only; the caller destroys it, before this image dies).
  func makeSurface() -> OpaquePointer? {
    guard
      let s = cairo_image_surface_create_for_data(
        pixels, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride)),
      cairo_surface_status(s) == CAIRO_STATUS_SUCCESS
    else { return nil }
    return s
  }

  /// A copy of the pixels, `stride × height` bytes.
  func copyPixels() -> [UInt8] {
    [UInt8](UnsafeBufferPointer(start: pixels, count: stride * height))
  }

  /// Decodes a PNG, JPEG or WebP file (recognised by its first bytes, not its name).
  ///
  /// The file is read once, after `fstat` says it is a regular file of at most
  /// ``FlickScene/AssetFile/maximumImageBytes`` (``FlickScene/AssetFile``); the decoders work on
  /// those bytes.
  static func decode(path: String) throws(RasterError) -> DecodedImage {
    let bytes: [UInt8]
    do {
      bytes = try AssetFile.read(path, maximumBytes: AssetFile.maximumImageBytes, kind: "an image file")
    } catch {
      throw .unreadableImage(path: path, reason: error.reason)
    }
    // The size from the header, before decoding: a small file can decode to gigabytes.
    // (Templates refuse images over their own, lower cap at load time; this guards every caller.)
    // A header that cannot be read is refused too, rather than left to the decoder uncapped; the
    // JPEG and WebP decoders also check the size they read themselves.
    let header: ImageHeader
    do {
      header = try ImageHeader.parse(bytes)
    } catch {
      throw .unreadableImage(path: path, reason: error.reason)
    }
    let (w, h) = (header.width, header.height)
    guard w <= 32767, h <= 32767, w * h <= maximumPixels else {
      throw .unreadableImage(
        path: path,
        reason: "the header gives \(w)×\(h) pixels; at most \(maximumPixels) pixels and 32767 per side are decoded")
    }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try decodePNG(bytes, path: path) }
    if bytes.starts(with: [0xFF, 0xD8]) { return try decodeJPEG(bytes, path: path) }
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
      return try decodeWebP(bytes, path: path)
    }
    throw .unreadableImage(path: path, reason: "not a PNG, JPEG or WebP file")
  }

  /// The most pixels an image may decode to (16384 × 16384, 1 GiB decoded).
  static let maximumPixels = 16384 * 16384

  /// Decodes the PNG `bytes` (the file at `path`, already read) onto premultiplied ARGB32,
  /// whatever its colour type.
  static func decodePNG(_ bytes: [UInt8], path: String) throws(RasterError) -> DecodedImage {
    // Cairo's reader (libpng) inflates all the image data, rows or not: it must fit the header.
    do {
      try PNGImageData.check(bytes, inflating: true)
    } catch {
      throw .unreadableImage(path: path, reason: error.reason)
    }
    let surface = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
      var source = PNGSource(buffer: buffer)
      return withUnsafeMutablePointer(to: &source) { pointer in
        cairo_image_surface_create_from_png_stream(
          { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let source = closure.assumingMemoryBound(to: PNGSource.self)
            let wanted = Int(length)
            guard source.pointee.offset + wanted <= source.pointee.buffer.count,
              let base = source.pointee.buffer.baseAddress
            else { return CAIRO_STATUS_READ_ERROR }
            data.update(from: base + source.pointee.offset, count: wanted)
            source.pointee.offset += wanted
            return CAIRO_STATUS_SUCCESS
          }, pointer)
      }
    }
    guard let surface else { throw .unreadableImage(path: path, reason: "cannot decode the PNG") }
    defer { cairo_surface_destroy(surface) }
    return try premultiplied(surface, path: path)
  }

  /// The bytes a PNG stream reads from, and how far it has read.
  private struct PNGSource {
    var buffer: UnsafeBufferPointer<UInt8>
    var offset = 0
  }

  /// The PNG surface cairo decoded, drawn onto ARGB32 pixels of their own.
  private static func premultiplied(_ surface: OpaquePointer, path: String) throws(RasterError) -> DecodedImage {
    let status = cairo_surface_status(surface)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw .unreadableImage(path: path, reason: String(cString: cairo_status_to_string(status)))
    }
    let w = Int(cairo_image_surface_get_width(surface))
    let h = Int(cairo_image_surface_get_height(surface))
    let stride = w * 4
    let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * h)
    pixels.initialize(repeating: 0, count: stride * h)
    let image = DecodedImage(width: w, height: h, stride: stride, pixels: pixels)
    // Drawing onto ARGB32 gives one layout for every PNG colour type (opaque ones get alpha 255).
    guard let target = image.makeSurface() else { throw .unreadableImage(path: path, reason: "out of memory") }
    defer { cairo_surface_destroy(target) }
    guard let cr = cairo_create(target) else { throw .unreadableImage(path: path, reason: "out of memory") }
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_surface(cr, surface, 0, 0)
    cairo_paint(cr)
    cairo_destroy(cr)
    cairo_surface_flush(target)
    return image
  }

  private static func decodeJPEG(_ bytes: [UInt8], path: String) throws(RasterError) -> DecodedImage {
    var rgb: UnsafeMutablePointer<UInt8>?
    var w: Int32 = 0
    var h: Int32 = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBufferPointer { buffer in
      flick_jpeg_decode(buffer.baseAddress, UInt(buffer.count), UInt64(maximumPixels), &rgb, &w, &h, &message)
    }
    guard status == 0, let rgb else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw .unreadableImage(path: path, reason: "cannot decode the JPEG: \(escaped: reason)")
    }
    defer { free(rgb) }
    let width = Int(w)
    let height = Int(h)
    let stride = width * 4
    let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
    for y in 0..<height {
      let src = rgb + y * width * 3
      let dst = pixels + y * stride
      for x in 0..<width {
        // ARGB32 on a little-endian machine: B, G, R, A in memory; opaque, so no premultiplication.
        dst[4 * x] = src[3 * x + 2]
        dst[4 * x + 1] = src[3 * x + 1]
        dst[4 * x + 2] = src[3 * x]
        dst[4 * x + 3] = 255
      }
    }
    return DecodedImage(width: width, height: height, stride: stride, pixels: pixels)
  }
}

extension DecodedImage {
  fileprivate static func decodeWebP(_ bytes: [UInt8], path: String) throws(RasterError) -> DecodedImage {
    var w: Int32 = 0
    var h: Int32 = 0
    // The size as libwebp reads it, checked before it decodes.
    guard bytes.withUnsafeBufferPointer({ WebPGetInfo($0.baseAddress, $0.count, &w, &h) }) != 0, w > 0, h > 0,
      Int(w) * Int(h) <= maximumPixels
    else { throw .unreadableImage(path: path, reason: "the WebP header gives \(w)×\(h) pixels, or none") }
    let decoded = bytes.withUnsafeBufferPointer { WebPDecodeBGRA($0.baseAddress, $0.count, &w, &h) }
    guard let decoded, w > 0, h > 0 else { throw .unreadableImage(path: path, reason: "cannot decode the WebP") }
    defer { WebPFree(decoded) }
    let width = Int(w)
    let height = Int(h)
    let stride = width * 4
    let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
    // Straight BGRA to premultiplied, rounded as Cairo does for PNG.
    func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
      let t = Int(c) * Int(a) + 0x80
      return UInt8((t + (t >> 8)) >> 8)
    }
    for i in 0..<(width * height) {
      let a = decoded[4 * i + 3]
      pixels[4 * i] = premultiply(decoded[4 * i], a)
      pixels[4 * i + 1] = premultiply(decoded[4 * i + 1], a)
      pixels[4 * i + 2] = premultiply(decoded[4 * i + 2], a)
      pixels[4 * i + 3] = a
    }
    return DecodedImage(width: width, height: height, stride: stride, pixels: pixels)
  }
}

/// Every picture decoded so far in this process, by path: decoded once, shared by all renderers,
/// and decoded again when the file changed on disk (``FileSignature``: a long-lived process such
/// as `flick studio` draws an edited picture as it is now; the old decode is dropped). A picture
/// another thread is decoding is waited for rather than decoded twice (``PicturePrefetch``
/// decodes a still's pictures while its template compiles); pictures of different paths decode
/// in parallel. A decode that fails is not kept: the next asker decodes again and gets the error.
/// A path is decoded only while it leads where it was bound (``FileResolution``): a picture
/// replaced by a symbolic link (or a folder on its way) after its template was compiled is
/// refused, not read through the link.
enum ImageStore {
  private enum Entry {
    /// A thread is decoding it (for this signature of the file).
    case decoding(FileSignature?)
    case decoded(FileSignature?, DecodedImage)
  }

  nonisolated(unsafe) private static var entries: [String: Entry] = [:]
  /// How many decodes of each path have started (tests).
  nonisolated(unsafe) private static var decodes: [String: Int] = [:]
  /// Guards `entries` and `decodes` (every access is under it); broadcast whenever a decode ends.
  private static let condition = NSCondition()

  static func image(at path: String) throws(RasterError) -> DecodedImage {
    let signature = FileSignature.of(path)
    condition.lock()
    waiting: while true {
      switch entries[path] {
      case .decoded(let known, let image) where known == signature:
        condition.unlock()
        return image
      case .decoding(let known) where known == signature:
        condition.wait()
      default:
        break waiting
      }
    }
    entries[path] = .decoding(signature)
    decodes[path, default: 0] += 1
    condition.unlock()
    // Outside the lock; read only where the path was bound (``FileResolution``).
    let result = Result { () throws(RasterError) -> DecodedImage in
      if let refusal = FileResolution.refusal(path) { throw .unreadableImage(path: path, reason: refusal) }
      return try DecodedImage.decode(path: path)
    }
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    switch result {
    case .success(let image):
      entries[path] = .decoded(signature, image)
      return image
    case .failure(let error):
      entries[path] = nil
      throw error
    }
  }

  /// How many times this process has started decoding the picture at `path` (tests).
  static func decodeCount(of path: String) -> Int {
    condition.withLock { decodes[path] ?? 0 }
  }
}
