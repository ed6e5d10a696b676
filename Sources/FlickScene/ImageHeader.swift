import Foundation

/// The pixel size of a PNG, JPEG or WebP file, read from its header without decoding anything,
/// so a small file that would decode to gigabytes (a "PNG bomb") is refused up front (a
/// template's image assets, and the images embedded in a Lottie file).
package struct ImageHeader: Equatable, Sendable {
  package var width: Int
  package var height: Int

  /// Why a header could not be read.
  package struct Problem: Error {
    package var reason: String
  }

  /// Reads the header of the file at `path` (recognised by its first bytes, like the decoder):
  /// its first MiB, once the file is known to be a regular file of at most
  /// ``AssetFile/maximumImageBytes`` (the decoder's cap, so a template refuses the file where it
  /// names it). A PNG's image data must also fit its header (``PNGImageData/check(path:)``).
  package static func read(path: String) throws(Problem) -> ImageHeader {
    let head: [UInt8]
    do {
      head = try AssetFile.read(path, maximumBytes: AssetFile.maximumImageBytes, kind: "an image file", prefix: 1 << 20)
    } catch {
      throw Problem(reason: error.reason)
    }
    let header = try parse(head)
    // A PNG's image data is measured against the header now, from its chunk headers, before
    // any decoder inflates it (``PNGImageData``).
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      do {
        try PNGImageData.check(path: path)
      } catch {
        throw Problem(reason: error.reason)
      }
    }
    return header
  }

  /// The size in the header `bytes` (the file's first bytes).
  package static func parse(_ b: [UInt8]) throws(Problem) -> ImageHeader {
    func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
    func le16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    func le24(_ i: Int) -> Int { le16(i) | Int(b[i + 2]) << 16 }
    let size: ImageHeader
    if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else {
        throw Problem(reason: "a PNG without an IHDR header")
      }
      size = ImageHeader(width: be32(16), height: be32(20))
    } else if b.starts(with: [0xFF, 0xD8]) {
      size = try jpegFrameSize(b)
    } else if b.count >= 30, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
      switch String(decoding: b[12..<16], as: UTF8.self) {
      case "VP8 ": size = ImageHeader(width: le16(26) & 0x3FFF, height: le16(28) & 0x3FFF)
      case "VP8L":
        let bits = le24(21) | Int(b[24]) << 24
        size = ImageHeader(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
      case "VP8X": size = ImageHeader(width: le24(24) + 1, height: le24(27) + 1)
      default: throw Problem(reason: "a WebP file of an unknown kind")
      }
    } else {
      throw Problem(reason: "not a PNG, JPEG or WebP file")
    }
    guard size.width > 0, size.height > 0 else { throw Problem(reason: "the header gives an empty image") }
    return size
  }

  /// The size in a JPEG's frame header, found the way libjpeg finds its markers
  /// (`jdmarker.c`, `next_marker`): after each segment, bytes up to the next 0xFF are skipped (a
  /// corrupt stream; libjpeg only warns), then fill bytes (0xFF); 0xFF 0x00 is data, not a
  /// marker. The decoder sees the frame header this finds, whatever precedes it: a reader that
  /// took any byte after a segment for a marker read a "frame header" libjpeg skips as garbage, and
  /// a file passed for 1 × 1 that decodes to 12,000 × 12,000.
  static func jpegFrameSize(_ b: [UInt8]) throws(Problem) -> ImageHeader {
    func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    var i = 2
    while true {
      var marker: UInt8 = 0
      repeat {
        while i < b.count, b[i] != 0xFF { i += 1 }  // garbage before the marker
        while i < b.count, b[i] == 0xFF { i += 1 }  // fill bytes
        guard i < b.count else { throw Problem(reason: "a JPEG without a frame header") }
        marker = b[i]
        i += 1
      } while marker == 0x00
      if (0xD0...0xD9).contains(marker) || marker == 0x01 { continue }  // no length
      guard i + 2 <= b.count else { throw Problem(reason: "a JPEG without a frame header") }
      let length = be16(i)
      guard length >= 2 else { throw Problem(reason: "a broken JPEG segment") }
      if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
        guard i + 7 <= b.count else { throw Problem(reason: "a truncated JPEG frame header") }
        return ImageHeader(width: be16(i + 5), height: be16(i + 3))
      }
      i += length
    }
  }
}
