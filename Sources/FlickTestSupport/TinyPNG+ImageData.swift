extension TinyPNG {
  /// A `width × height` RGBA PNG (1 × 1 by default) whose image data is a valid zlib stream of
  /// `inflatedBytes` zeros (the first ones are its rows), compressed about 160:1 with fixed
  /// Huffman codes, in 64 KiB `IDAT` chunks: a "PNG bomb" whose image data is far larger than a
  /// 1 × 1 image can need, or, under a larger header, small enough compressed and far larger
  /// inflated.
  package static func bomb(width: Int = 1, height: Int = 1, inflatedBytes: Int) -> [UInt8] {
    let stream = zlibZeros(inflatedBytes)
    var idat: [UInt8] = []
    var i = 0
    while i < stream.count {
      let n = min(65536, stream.count - i)
      idat += chunk("IDAT", Array(stream[i..<(i + n)]))
      i += n
    }
    return signature + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0]) + idat + chunk("IEND", [])
  }

  /// A zlib stream of `count` zeros: one fixed-Huffman block of a literal 0 and matches of 258
  /// bytes at distance 1 (13 bits each), then the rest as literals.
  static func zlibZeros(_ count: Int) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var bits: UInt64 = 0
    var used = 0
    func put(_ value: Int, _ n: Int) {
      bits |= UInt64(value) << UInt64(used)
      used += n
      while used >= 8 {
        out.append(UInt8(bits & 0xFF))
        bits >>= 8
        used -= 8
      }
    }
    /// A Huffman code, sent most significant bit first.
    func code(_ value: Int, _ n: Int) {
      for k in stride(from: n - 1, through: 0, by: -1) { put(value >> k & 1, 1) }
    }
    put(1, 1)  // BFINAL
    put(1, 2)  // fixed Huffman
    var left = count
    if left > 0 {
      code(0x30, 8)  // literal 0
      left -= 1
    }
    while left >= 258 {
      code(0b1100_0101, 8)  // length 258 (symbol 285)
      code(0, 5)  // distance 1
      left -= 258
    }
    for _ in 0..<left { code(0x30, 8) }
    code(0, 7)  // end of block (symbol 256)
    if used > 0 { put(0, 8 - used) }
    // Adler-32 of `count` zeros: a = 1, b = count mod 65521.
    return out + be32((count % 65521) << 16 | 1)
  }

  /// A legitimate RGBA PNG written the loosest way an encoder may: zlib level 0 (stored blocks
  /// of at most `block` bytes), an empty stored block after every row (as a per-row flush
  /// writes), `IDAT` chunks of 100 bytes; Adam7-interlaced when asked. Its image data is larger
  /// than the rows it holds, and still within what ``FlickScene/PNGImageData`` allows.
  package static func loose(
    width: Int, height: Int, interlaced: Bool, block: Int = 32,
    pixel: (_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8)
  ) -> [UInt8] {
    let passes =
      interlaced
      ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
      : [(0, 0, 1, 1)]
    var raw: [UInt8] = []
    var stream: [UInt8] = [0x78, 0x01]
    for (x0, y0, dx, dy) in passes {
      for y in stride(from: y0, to: height, by: dy) {
        var row: [UInt8] = [0]
        for x in stride(from: x0, to: width, by: dx) {
          let p = pixel(x, y)
          row += [p.0, p.1, p.2, p.3]
        }
        guard row.count > 1 else { continue }
        raw += row
        var i = 0
        while i < row.count {
          let n = min(block, row.count - i)
          stream += [0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
          stream += row[i..<(i + n)]
          i += n
        }
        stream += [0, 0, 0, 0xFF, 0xFF]  // the flush after the row
      }
    }
    stream += [1, 0, 0, 0xFF, 0xFF]  // the final, empty block
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    stream += be32(Int(b << 16 | a))
    var idat: [UInt8] = []
    var i = 0
    while i < stream.count {
      let n = min(100, stream.count - i)
      idat += chunk("IDAT", Array(stream[i..<(i + n)]))
      i += n
    }
    let header = be32(width) + be32(height) + [8, 6, 0, 0, interlaced ? 1 : 0]
    return signature + chunk("IHDR", header) + idat + chunk("IEND", [])
  }

  /// `png` with an `IDAT` chunk of `extra` bytes added after a `tEXt` chunk that follows the
  /// image data: data a decoder reading past the run would inflate.
  package static func withStrayImageData(_ png: [UInt8], extra: Int = 16) -> [UInt8] {
    let end = png.count - 12  // before IEND
    return Array(png[..<end]) + chunk("tEXt", Array("Comment\u{0}x".utf8))
      + chunk("IDAT", [UInt8](repeating: 0, count: extra)) + Array(png[end...])
  }
}
