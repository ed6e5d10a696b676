/// Packed BGR (3 bytes a pixel) from packed BGRA, the alpha byte dropped: what an MP4's ffmpeg
/// reads (``FFmpegCommand/inputPixelFormat(_:)``).
enum PackedBGR {
  /// The BGR bytes of `bgra` (4 bytes a pixel), written into `out` (resized to fit; its storage
  /// is reused when it is large enough and not shared).
  static func pack(_ bgra: [UInt8], into out: inout [UInt8]) {
    let pixels = bgra.count / 4
    if out.count != pixels * 3 { out = [UInt8](repeating: 0, count: pixels * 3) }
    bgra.withUnsafeBytes { source in
      out.withUnsafeMutableBytes { target in
        guard let s = source.baseAddress, let t = target.baseAddress else { return }
        var i = 0
        // Four pixels at a time: 16 bytes in, 12 out (three 32-bit stores).
        while i + 4 <= pixels {
          let p0 = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
          let p1 = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: i * 4 + 4, as: UInt32.self))
          let p2 = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: i * 4 + 8, as: UInt32.self))
          let p3 = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: i * 4 + 12, as: UInt32.self))
          // As little-endian words, byte 0 is the lowest: drop byte 3 of each pixel.
          let w0 = (p0 & 0x00FF_FFFF) | (p1 << 24)
          let w1 = ((p1 >> 8) & 0x0000_FFFF) | (p2 << 16)
          let w2 = ((p2 >> 16) & 0x0000_00FF) | (p3 << 8)
          t.storeBytes(of: w0.littleEndian, toByteOffset: i * 3, as: UInt32.self)
          t.storeBytes(of: w1.littleEndian, toByteOffset: i * 3 + 4, as: UInt32.self)
          t.storeBytes(of: w2.littleEndian, toByteOffset: i * 3 + 8, as: UInt32.self)
          i += 4
        }
        while i < pixels {
          t.storeBytes(of: s.load(fromByteOffset: i * 4, as: UInt8.self), toByteOffset: i * 3, as: UInt8.self)
          t.storeBytes(of: s.load(fromByteOffset: i * 4 + 1, as: UInt8.self), toByteOffset: i * 3 + 1, as: UInt8.self)
          t.storeBytes(of: s.load(fromByteOffset: i * 4 + 2, as: UInt8.self), toByteOffset: i * 3 + 2, as: UInt8.self)
          i += 1
        }
      }
    }
  }
}
