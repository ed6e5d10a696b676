import FlickMotion
import Foundation

/// The one check every PNG Flick reads passes before any decoder sees it (a template's image,
/// a Lottie file's and an SVG's embedded images, goldens, `flick diff`, `verify`, batch chunks,
/// the studio): the image data (`IDAT`) must be no larger than the image its header describes
/// can need.
///
/// Decoders inflate the whole zlib stream whatever the header says: libpng and Cairo's reader
/// inflate everything after the last row (`png_read_end`), stb_image (rlottie) inflates it all
/// into memory before looking at the rows. A 1 MB file whose header says 1 × 1 and whose
/// `IDAT` holds 1 GiB of compressed zeros cost 3 s of CPU, one of 16 MB over a minute, and one
/// embedded in a Lottie file 2 GB of memory. The check walks the chunk headers only (no CRC, no
/// inflating) and refuses image data over ``bound(width:height:bitDepth:colorType:interlaced:)``:
/// deflate expands at most about 1032:1, so a small header can then inflate to a few MB at most.
///
/// The bound is generous: the raw rows (`height × (1 + rowbytes)`, each Adam7 pass's rows for an
/// interlaced image), plus a quarter (zlib level 0 adds 5 bytes per stored block, 10 with a full
/// flush: 20 % when it flushes every 50 bytes; an encoder with only fixed Huffman codes, such as
/// stb_image_write's, expands incompressible rows by up to 9/8), plus 32 bytes a row (a flush per
/// row) and 4 KiB. For the small headers a bomb needs, the proportional part hardly matters: a
/// 1 × 1 image may have 4166 bytes of image data, which inflate to 4.3 MB at most.
///
/// Image data must also come in one run of consecutive `IDAT` chunks (PNG's rule): a decoder that
/// read `IDAT` after another chunk would inflate data the run did not count. `fdAT` chunks (APNG frames) are not counted: every decoder
/// Flick uses reads a PNG's default image only and skips them unread.
package enum PNGImageData {
  /// Why a PNG is refused.
  package struct Problem: Error, Equatable {
    package var reason: String
  }

  /// The most `IDAT` bytes a PNG of this header may hold (saturating: a header too large for
  /// `Int` gives `Int.max`, and its size is refused by the callers' pixel caps).
  package static func bound(width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool) -> Int {
    guard width > 0, height > 0 else { return 4096 }
    guard
      let (raw, rows) = rows(
        width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced),
      raw <= Int.max / 4
    else { return .max }
    return raw + raw / 4 + 32 * (rows + 1) + 4096
  }

  /// The bytes of the filtered rows a PNG of this header holds once inflated (`raw`: each row's
  /// filter byte and its samples, over every Adam7 pass when interlaced) and how many rows that
  /// is; nil when that does not fit in an `Int`.
  static func rows(
    width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool
  ) -> (raw: Int, rows: Int)? {
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 4
    // An invalid depth is taken at its largest: the decoder refuses it anyway.
    let bits = channels * ([1, 2, 4, 8, 16].contains(bitDepth) ? bitDepth : 16)
    guard width < 1 << 31, height < 1 << 31 else { return nil }
    // Adam7 passes (x0, y0, dx, dy); a non-interlaced image is one pass.
    let passes =
      interlaced
      ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
      : [(0, 0, 1, 1)]
    var raw = 0
    var rows = 0
    for (x0, y0, dx, dy) in passes {
      let w = (width - x0 + dx - 1) / dx, h = (height - y0 + dy - 1) / dy
      guard w > 0, h > 0 else { continue }
      // At most 2³¹ rows of at most 2³⁶ bytes: 2⁶⁷ overflows, so multiply with a check.
      let (bytes, overflow) = h.multipliedReportingOverflow(by: 1 + (w * bits + 7) / 8)
      guard !overflow, raw <= Int.max / 2 - bytes else { return nil }
      raw += bytes
      rows += h
    }
    return (raw, rows)
  }

  /// Checks the PNG `bytes` (a whole file or embedded image). A truncated file is left to the
  /// decoder, which refuses it; only the image data present is counted.
  ///
  /// With `inflating`, the image data is also inflated, counting only (no output is kept), and
  /// refused when it holds more than ``inflationSlack`` bytes beyond the rows: for a decoder that
  /// inflates the whole stream into memory (stb_image, in rlottie), which within the compressed
  /// bound a 2000 × 2000 header still let grow to gigabytes. It costs about one inflate of the
  /// image (a bomb is refused as soon as the count passes the rows).
  package static func check(_ bytes: [UInt8], inflating: Bool = false) throws(Problem) {
    let walked = try walk(count: bytes.count) { i in
      UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }
    guard inflating, let walked, let raw = walked.raw else { return }
    var stream: [UInt8] = []
    for range in walked.imageData { stream += bytes[range] }
    let limit = raw + inflationSlack
    guard inflatedSize(stream, limit: limit) <= limit else {
      throw Problem(
        reason: "the compressed image data inflates to more than the \(quoted: raw) bytes of rows the \(walked.width)×"
          + "\(walked.height) image its header describes can need; refused before decoding")
    }
  }

  /// How many bytes beyond its rows a PNG's image data may inflate to with ``check(_:inflating:)``:
  /// a valid stream has none; 64 KiB spares a writer that leaves a little after them.
  package static let inflationSlack = 64 << 10

  /// Checks the PNG file at `path` by reading its chunk headers only (8 bytes a chunk), for a
  /// check made before the file is read whole (a template's image at load time). A file that
  /// cannot be read is left to the reader that follows, which says why.
  package static func check(path: String) throws(Problem) {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
    _ = try walk(count: Int(info.st_size)) { offset in
      var b: [UInt8] = [0, 0, 0, 0]
      guard b.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 4, off_t(offset)) }) == 4 else { return nil }
      return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
    }
  }

  /// What a walk found: the header's size, its rows' bytes (nil when too large to count) and
  /// where the image data is (each `IDAT` chunk's data present in the file).
  private struct Walked {
    var width: Int
    var height: Int
    var raw: Int?
    var imageData: [Range<Int>]
  }

  /// Walks the chunks of a PNG of `count` bytes, reading big-endian words with `word(offset)`
  /// (the chunk headers and the `IHDR` data only; nil when the file cannot be read there), and
  /// refuses image data over the bound; nil when the bytes do not start with a PNG header.
  private static func walk(count: Int, word: (Int) -> UInt32?) throws(Problem) -> Walked? {
    func code(_ name: StaticString) -> UInt32 {
      name.withUTF8Buffer { b in UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]) }
    }
    // The signature, then IHDR: length 13, type, width, height, depth | colour | compression |
    // filter, interlace | CRC.
    guard count >= 33, word(0) == 0x8950_4E47, word(4) == 0x0D0A_1A0A, word(8) == 13, word(12) == code("IHDR"),
      let w = word(16), let h = word(20), let fields = word(24), let last = word(28)
    else { return nil }
    let width = Int(w), height = Int(h)
    let (depth, colorType, interlaced) = (Int(fields >> 24), Int((fields >> 16) & 0xFF), last >> 24 != 0)
    let limit = bound(width: width, height: height, bitDepth: depth, colorType: colorType, interlaced: interlaced)
    let raw = rows(width: width, height: height, bitDepth: depth, colorType: colorType, interlaced: interlaced)?.raw
    var walked = Walked(width: width, height: height, raw: raw, imageData: [])
    let idat = code("IDAT"), iend = code("IEND")
    var at = 8 + 12 + 13
    var imageData = 0
    var inRun = false
    var runEnded = false
    while at + 8 <= count, let length = word(at).map(Int.init), let type = word(at + 4), type != iend {
      if type == idat {
        guard !runEnded else {
          throw Problem(
            reason: "image data (IDAT) continues after another chunk; a PNG's image data is one run of IDAT chunks")
        }
        inRun = true
        let present = min(length, count - at - 8)
        imageData += present
        guard imageData <= limit else {
          throw Problem(
            reason:
              "the compressed image data (\(quoted: imageData) bytes or more) is larger than the \(width)×\(height) "
              + "image its header describes can need (at most \(limit) bytes); refused before decoding")
        }
        walked.imageData.append((at + 8)..<(at + 8 + present))
      } else if inRun {
        runEnded = true
      }
      at += 12 + length
    }
    return walked
  }
}
