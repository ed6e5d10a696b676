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
  /// compiler vectorises: about a tenth of the conversion's cost). A pointer and an index, not a
  /// buffer's iterator: in an unoptimised build (the tests, the debug `flick`) the iterator is a
  /// generic call per word, a pointer's subscript is not.
  static func isOpaque(_ pixels: [UInt8]) -> Bool {
    pixels.withUnsafeBytes { raw in
      let words = raw.bindMemory(to: UInt32.self)
      guard raw.count % 4 == 0, let word = words.baseAddress else { return raw.count % 4 == 0 }
      var all: UInt32 = 0xFFFF_FFFF
      let n = words.count
      var i = 0
      while i < n {
        all &= word[i]
        i += 1
      }
      return UInt32(littleEndian: all) >> 24 == 0xFF
    }
  }

  /// The premultiplied channel `c` divided by alpha through its reciprocal `r`, rounded and
  /// capped at 255 (without `min`, a generic call per channel in an unoptimised build).
  @inline(__always) private static func straight(_ c: UInt8, _ r: UInt32) -> UInt8 {
    let value = (UInt32(c) * r + 32768) >> 16
    return value > 255 ? 255 : UInt8(truncatingIfNeeded: value)
  }

  /// Divides each colour channel of the BGRA pixels in `buffer` by alpha, in place.
  private static func unpremultiply(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    guard let p = buffer.baseAddress else { return }
    reciprocal.withUnsafeBufferPointer { table in
      // Pointers, whose subscripts stay plain loads in an unoptimised build.
      guard let recip = table.baseAddress else { return }
      var i = 0
      let n = buffer.count
      while i + 3 < n {
        let a = p[i + 3]
        if a != 255 {
          if a == 0 {
            p[i] = 0
            p[i + 1] = 0
            p[i + 2] = 0
          } else {
            let r = recip[Int(a)]
            p[i] = straight(p[i], r)
            p[i + 1] = straight(p[i + 1], r)
            p[i + 2] = straight(p[i + 2], r)
          }
        }
        i += 4
      }
    }
  }
}
