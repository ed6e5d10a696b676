/// Small PNG files for the fuzz generators, made without any library: 8-bit RGB or RGBA, stored
/// (uncompressed) deflate blocks, so the bytes are the same on every machine.
package enum TinyPNG {
  /// A `width × height` PNG filled with `rgb`.
  package static func solid(width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) -> [UInt8] {
    image(width: width, height: height, colorType: 2) { _, _ in [rgb.0, rgb.1, rgb.2] }
  }

  /// A `width × height` RGBA PNG (straight alpha) whose pixel at column `x`, row `y` is
  /// `pixel(x, y)` (red, green, blue, alpha).
  package static func rgba(
    width: Int, height: Int, pixel: (_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8)
  ) -> [UInt8] {
    image(width: width, height: height, colorType: 6) { x, y in
      let p = pixel(x, y)
      return [p.0, p.1, p.2, p.3]
    }
  }

  /// A PNG of colour type `colorType` (2 RGB, 6 RGBA) whose pixel bytes are `pixel(x, y)`.
  static func image(width: Int, height: Int, colorType: UInt8, pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
    var raw: [UInt8] = []
    raw.reserveCapacity((width * (colorType == 6 ? 4 : 3) + 1) * height)
    for y in 0..<height {
      raw.append(0)
      for x in 0..<width { raw += pixel(x, y) }
    }
    return signature + chunk("IHDR", be32(width) + be32(height) + [8, colorType, 0, 0, 0])
      + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
  }

  /// Only a signature and an IHDR claiming `width × height` (a "PNG bomb" header; no data).
  package static func header(width: Int, height: Int) -> [UInt8] {
    signature + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
  }

  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  static func be32(_ v: Int) -> [UInt8] {
    [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(data.count) + body + be32(Int(crc32(body)))
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
      c ^= UInt32(b)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
  }

  static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var i = 0
    repeat {
      let n = min(65535, raw.count - i)
      out.append(i + n == raw.count ? 1 : 0)
      out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
      out += raw[i..<(i + n)]
      i += n
    } while i < raw.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return out + be32(Int(b << 16 | a))
  }

  /// Standard padded base64 of `bytes`.
  package static func base64(_ bytes: [UInt8]) -> String {
    let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let n = min(3, bytes.count - i)
      let v = Int(bytes[i]) << 16 | (n > 1 ? Int(bytes[i + 1]) << 8 : 0) | (n > 2 ? Int(bytes[i + 2]) : 0)
      out += [table[v >> 18 & 63], table[v >> 12 & 63], n > 1 ? table[v >> 6 & 63] : 61, n > 2 ? table[v & 63] : 61]
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}
