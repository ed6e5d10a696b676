import FlickRaster
import FlickTestSupport

/// Seeded frames for the PNG encoder's tests: runs of one byte, noise, copies of earlier bytes at
/// distances up to 40,000 (the encoder's hash matches, near block ends, across rows and across a
/// split between threads) and repeated 4-byte words, opaque or translucent (premultiplied: no
/// colour byte above its alpha).
enum PNGMixture {
  /// A `width` × `height` frame with `bytesPerRow` bytes a row (≥ 4 × `width`), filled by pieces
  /// of 1...`longestPiece` bytes drawn from `random`.
  static func frame(
    width: Int, height: Int, bytesPerRow: Int, longestPiece: Int, translucent: Bool,
    using random: inout SeededGenerator
  ) -> Frame {
    var bytes = [UInt8](repeating: 0, count: bytesPerRow * height)
    var at = 0
    while at < bytes.count {
      let length = min(Int.random(in: 1...longestPiece, using: &random), bytes.count - at)
      switch Int.random(in: 0...3, using: &random) {
      case 0:
        let v = UInt8.random(in: 0...255, using: &random)
        for k in 0..<length { bytes[at + k] = v }
      case 1:
        for k in 0..<length { bytes[at + k] = UInt8.random(in: 0...255, using: &random) }
      case 2:
        let distance = Int.random(in: 1...40_000, using: &random)
        for k in 0..<length where at + k >= distance { bytes[at + k] = bytes[at + k - distance] }
      default:
        let v = UInt32.random(in: 0...UInt32.max, using: &random)
        for k in 0..<length { bytes[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k % 4))) }
      }
      at += length
    }
    for p in stride(from: 0, to: bytes.count - 3, by: 4) {
      if translucent {
        for c in 0..<3 { bytes[p + c] = min(bytes[p + c], bytes[p + 3]) }
      } else {
        bytes[p + 3] = 255
      }
    }
    return Frame(width: width, height: height, bytesPerRow: bytesPerRow, pixels: bytes)
  }
}
