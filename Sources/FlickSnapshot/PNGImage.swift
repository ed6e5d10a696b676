internal import CPNG
import FlickMotion
import FlickRaster
import Foundation

/// A PNG decoded completely by Flick: chunk structure and CRCs, the zlib stream (every block and
/// the Adler-32), every row and its filter byte, and the exact amount of data. Nothing is
/// compared until both sides of a comparison decode this way, so a damaged file never matches,
/// not even an identical copy of itself.
///
/// Pixels are kept as PNG holds them: straight (not premultiplied) 8-bit RGBA, which is also what
/// pixelmatch compares. All PNG colour types, bit depths 1–16 and Adam7 interlacing decode;
/// 16-bit samples keep their high byte (as Cairo's reader does).
///
/// Goldens written by Flick carry the renderer fingerprint that drew them in a `tEXt` chunk
/// (keyword ``rendererKeyword``), read into ``renderer``.
package struct PNGImage: Sendable {
  /// Width in pixels.
  package let width: Int
  /// Height in pixels.
  package let height: Int
  /// Straight-alpha pixels, row-major: `B | G<<8 | R<<16 | A<<24`.
  var words: [UInt32]
  /// The renderer that drew the image, when the file says (goldens Flick wrote).
  package var renderer: RendererFingerprint?

  /// The `tEXt` keyword under which Flick stores the renderer fingerprint (JSON).
  package static let rendererKeyword = "flick-renderer"

  /// Decodes the PNG file at `path`.
  ///
  /// - Throws: ``SnapshotError/unreadableImage(path:reason:)`` when the file is missing, larger
  ///   than the limits, or does not decode completely.
  package init(contentsOf path: String, limits: DecodeLimits = .standard) throws(SnapshotError) {
    try self.init(fileBytes: try Self.read(path, limits: limits), path: path, limits: limits)
  }

  /// Decodes `bytes`, the file at `path` as ``read(_:limits:)`` read it (once: a comparison that
  /// looks at a file's bytes first decodes those same bytes).
  init(fileBytes bytes: [UInt8], path: String, limits: DecodeLimits) throws(SnapshotError) {
    Self.fileDecodes?.withLock { $0 += 1 }
    do {
      self = try PNGImage(bytes: bytes, limits: limits)
    } catch {
      throw .unreadableImage(path: path, reason: error.message)
    }
    self.fileBytes = Data(bytes)
  }

  /// The file's bytes, when decoded from a file (to tell identical files apart cheaply, and to
  /// put the compared file itself into a report).
  package var fileBytes: Data?

  /// While set (a test), counts the files read and decoded (``init(contentsOf:limits:)``), so
  /// that a comparison is seen to decode each image once.
  @TaskLocal package static var fileDecodes: Locked<Int>?

  /// Decodes PNG bytes.
  init(bytes: [UInt8], limits: DecodeLimits) throws(PNGFile.StructureError) {
    let file = try PNGFile.check(bytes, inflating: true)
    let header = file.header
    let h0 = header.startIndex
    let width = Int(PNGFile.readUInt32(bytes, h0)), height = Int(PNGFile.readUInt32(bytes, h0 + 4))
    let depth = Int(bytes[h0 + 8]), colorType = Int(bytes[h0 + 9])
    let compression = bytes[h0 + 10], filter = bytes[h0 + 11], interlace = bytes[h0 + 12]
    typealias E = PNGFile.StructureError
    // PNG limits each side to 2³¹ − 1; so does the decode limit, before any allocation.
    guard width <= Int(Int32.max), height <= Int(Int32.max) else {
      throw E(message: "invalid size \(width)×\(height) (PNG allows at most 2147483647 per side)")
    }
    guard width * height <= limits.maxPixels else {
      throw E(
        message: "the header declares \(width)×\(height) = \(width * height) pixels, over the decode limit of "
          + "\(limits.maxPixels) (--max-image-pixels, \(DecodeLimits.pixelsVariable))")
    }
    // Per colour type: the bit depths PNG allows and the channels.
    let allowed: [Int: (depths: [Int], channels: Int)] = [
      0: ([1, 2, 4, 8, 16], 1), 2: ([8, 16], 3), 3: ([1, 2, 4, 8], 1), 4: ([8, 16], 2), 6: ([8, 16], 4),
    ]
    guard case let (depths, channels)? = allowed[colorType] else {
      throw E(message: "invalid colour type \(quoted: colorType)")
    }
    guard depths.contains(depth) else {
      throw E(message: "invalid bit depth \(depth) for colour type \(quoted: colorType)")
    }
    guard compression == 0, filter == 0 else { throw E(message: "unknown compression or filter method") }
    guard interlace <= 1 else { throw E(message: "unknown interlace method \(quoted: interlace)") }

    let data = file.imageDataBytes
    let bitsPerPixel = channels * depth
    // Adam7 passes: (x0, y0, dx, dy); a non-interlaced image is one pass.
    let passes: [(Int, Int, Int, Int)] =
      interlace == 1
      ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
      : [(0, 0, 1, 1)]
    var expected = 0
    for p in passes {
      let pw = (width - p.0 + p.2 - 1) / p.2, ph = (height - p.1 + p.3 - 1) / p.3
      if pw > 0 && ph > 0 { expected += ph * (1 + (pw * bitsPerPixel + 7) / 8) }
    }
    // Deflate expands at most about 1032:1, so data this short cannot hold the rows the header
    // declares: refused before the output is reserved.
    guard expected <= data * 1032 + 1024 else {
      throw E(
        message: "the header declares \(width)×\(height) but \(quoted: data) bytes of image data cannot hold "
          + "\(quoted: expected) bytes of rows (too few rows)")
    }
    // libpng decodes and checks the rest (CRCs, zlib, filters, palette indices, data amount).
    var message = [CChar](repeating: 0, count: 256)
    let chunkLimit = max(1 << 20, min(limits.maxFileBytes, bytes.count))
    var failed: Int32 = 0
    let words = [UInt32](unsafeUninitializedCapacity: width * height) { out, count in
      failed = bytes.withUnsafeBufferPointer { input in
        flick_png_decode(
          input.baseAddress, input.count, UInt32(width), UInt32(height), chunkLimit, out.baseAddress, &message,
          message.count)
      }
      count = failed == 0 ? width * height : 0
    }
    /// The text up to the first NUL of a buffer the C side filled.
    func text(_ buffer: [CChar]) -> String {
      String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    guard failed == 0 else {
      throw E(message: "libpng: \(escaped: text(message)) (damaged data)")
    }
    self.width = width
    self.height = height
    self.words = words
    // The fingerprint the chunk walk found (the first `tEXt` with the keyword): the same one
    // ``recordedRenderer(atPath:limits:)`` reads, so verify's renderer check and the comparison
    // never see two different renderers in one file.
    self.renderer = file.rendererText.flatMap { try? JSONDecoder().decode(RendererFingerprint.self, from: Data($0)) }
  }

  /// The straight-alpha pixels of a premultiplied `frame`, un-premultiplied exactly as Cairo's PNG
  /// writer does, so the result equals what a golden written from the frame holds.
  package init(frame: Frame) {
    width = frame.width
    height = frame.height
    renderer = nil
    let w = frame.width, stride = frame.bytesPerRow
    words = [UInt32](unsafeUninitializedCapacity: frame.width * frame.height) { out, count in
      frame.pixels.withUnsafeBufferPointer { p in
        for y in 0..<frame.height {
          let row = y * stride
          for x in 0..<w {
            let i = row + x * 4
            let a = UInt32(p[i + 3])
            let word: UInt32
            if a == 255 {
              word = UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | 0xFF00_0000
            } else if a == 0 {
              word = 0
            } else {
              let b = (UInt32(p[i]) * 255 + a / 2) / a, g = (UInt32(p[i + 1]) * 255 + a / 2) / a
              let r = (UInt32(p[i + 2]) * 255 + a / 2) / a
              word = b | g << 8 | r << 16 | a << 24
            }
            out[y * w + x] = word
          }
        }
      }
      count = frame.width * frame.height
    }
  }

  /// The image as a premultiplied frame, premultiplied exactly as Cairo's PNG reader does.
  package var frame: Frame {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    // Base pointers and a `while` loop, which stay plain instructions in an unoptimised build
    // (the debug `flick`'s verify and diff), where `enumerated()` over a buffer is generic calls
    // per pixel.
    words.withUnsafeBufferPointer { wordBuffer in
      pixels.withUnsafeMutableBufferPointer { pixelBuffer in
        guard let words = wordBuffer.baseAddress, let pixels = pixelBuffer.baseAddress else { return }
        let count = wordBuffer.count
        var i = 0
        while i < count {
          let w = words[i]
          let a = Int(w &>> 24)
          let o = i * 4
          i += 1
          if a == 0 { continue }
          if a == 255 {
            pixels[o] = UInt8(truncatingIfNeeded: w)
            pixels[o + 1] = UInt8(truncatingIfNeeded: w &>> 8)
            pixels[o + 2] = UInt8(truncatingIfNeeded: w &>> 16)
          } else {
            pixels[o] = Self.premultiplied(w, a)
            pixels[o + 1] = Self.premultiplied(w &>> 8, a)
            pixels[o + 2] = Self.premultiplied(w &>> 16, a)
          }
          pixels[o + 3] = UInt8(a)
        }
      }
    }
    return Frame(width: width, height: height, bytesPerRow: width * 4, pixels: pixels)
  }

  /// The low byte of `c` times alpha `a` (1–254), with Cairo's rounding: (t + t / 256) / 256
  /// with t = a × c + 128.
  private static func premultiplied(_ c: UInt32, _ a: Int) -> UInt8 {
    let t = a * Int(c & 0xFF) + 0x80
    return UInt8((t + (t >> 8)) >> 8)
  }

  /// Whether any pixel has alpha below 255.
  var hasTranslucentPixels: Bool { words.contains { $0 >> 24 != 0xFF } }
}
