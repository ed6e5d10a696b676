import FlickRaster

/// Conversion of premultiplied BGRA bytes to straight (un-premultiplied) alpha.
enum StraightAlpha {
  /// `reciprocal[a]` = round(255 × 65536 / a): multiplying a premultiplied channel by it and
  /// shifting by 16 gives the straight value, rounded to nearest.
  private static let reciprocal: [UInt32] = (0...255).map { (a: Int) -> UInt32 in
    guard a > 0 else { return 0 }
    let scaled: Int = 255 * 65536 + a / 2
    return UInt32(scaled / a)
  }

  /// Returns `pixels` (BGRA, premultiplied) with each colour channel divided by alpha.
  /// Opaque pixels are unchanged; fully transparent pixels become transparent black. The result
  /// goes into a buffer from `pool` when it has one of the same size; a frame whose every pixel
  /// is opaque is its own straight-alpha form and is returned as it is (the same buffer).
  static func convert(_ pixels: [UInt8], pool: FramePool? = nil) -> [UInt8] {
    if isOpaque(pixels) { return pixels }
    if let pool, var out = pool.take(count: pixels.count) {
      out.withUnsafeMutableBufferPointer { target in
        pixels.withUnsafeBufferPointer { source in _ = target.update(fromContentsOf: source) }
        unpremultiply(target)
      }
      return out
    }
    var out = pixels
    out.withUnsafeMutableBufferPointer { unpremultiply($0) }
    return out
  }

  /// Converts `pixels` to straight alpha in place (no copy when the array is not shared).
  static func convertInPlace(_ pixels: inout [UInt8]) {
    if isOpaque(pixels) { return }
    pixels.withUnsafeMutableBufferPointer { unpremultiply($0) }
  }

  /// Whether every pixel of the BGRA `pixels` has alpha 255 (one AND over the words, which the
  /// compiler vectorises: about a tenth of the conversion's cost).
  static func isOpaque(_ pixels: [UInt8]) -> Bool {
    pixels.withUnsafeBytes { raw in
      var all: UInt32 = 0xFFFF_FFFF
      for word in raw.bindMemory(to: UInt32.self) { all &= word }
      return raw.count % 4 == 0 && UInt32(littleEndian: all) >> 24 == 0xFF
    }
  }

  /// Divides each colour channel of the BGRA pixels in `p` by alpha, in place.
  private static func unpremultiply(_ p: UnsafeMutableBufferPointer<UInt8>) {
    reciprocal.withUnsafeBufferPointer { recip in
      var i = 0
      let n = p.count
      while i + 3 < n {
        let a = p[i + 3]
        if a != 255 {
          if a == 0 {
            p[i] = 0
            p[i + 1] = 0
            p[i + 2] = 0
          } else {
            let r = recip[Int(a)]
            p[i] = UInt8(min(255, (UInt32(p[i]) * r + 32768) >> 16))
            p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * r + 32768) >> 16))
            p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * r + 32768) >> 16))
          }
        }
        i += 4
      }
    }
  }
}
