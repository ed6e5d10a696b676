import FlickRaster
import Foundation

extension Frame {
  /// The pixels as 32-bit words, row-major without padding: `B | G<<8 | R<<16 | A<<24`
  /// (premultiplied), the byte order of a little-endian machine.
  func packedWords() -> [UInt32] {
    #if _endian(little)
      if bytesPerRow == width * 4 {
        // Already packed: one copy, no per-pixel work.
        return [UInt32](unsafeUninitializedCapacity: width * height) { out, count in
          pixels.withUnsafeBytes { raw in
            if let src = raw.baseAddress, let dst = out.baseAddress { memcpy(dst, src, width * height * 4) }
          }
          count = width * height
        }
      }
    #endif
    return [UInt32](unsafeUninitializedCapacity: width * height) { out, count in
      pixels.withUnsafeBytes { raw in
        for y in 0..<height {
          let row = y * bytesPerRow
          for x in 0..<width {
            out[y * width + x] = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: row + x * 4, as: UInt32.self))
          }
        }
      }
      count = width * height
    }
  }

  /// Whether `other` has the same size and bit-identical pixels (row padding ignored).
  func samePixels(as other: Frame) -> Bool {
    guard width == other.width, height == other.height else { return false }
    return pixels.withUnsafeBytes { a in
      other.pixels.withUnsafeBytes { b in
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return false }
        if bytesPerRow == other.bytesPerRow && bytesPerRow == width * 4 {
          return memcmp(pa, pb, width * height * 4) == 0
        }
        for y in 0..<height where memcmp(pa + y * bytesPerRow, pb + y * other.bytesPerRow, width * 4) != 0 {
          return false
        }
        return true
      }
    }
  }

  /// Whether any pixel has alpha below 255.
  var hasTranslucentPixels: Bool {
    for y in 0..<height {
      let row = y * bytesPerRow
      for x in 0..<width where pixels[row + x * 4 + 3] != 255 { return true }
    }
    return false
  }
}
