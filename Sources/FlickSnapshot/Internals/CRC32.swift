/// CRC-32 (ISO 3309, polynomial 0xEDB88320), as PNG chunks use.
enum CRC32 {
  static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    var c: UInt32 = 0xFFFF_FFFF
    table.withUnsafeBufferPointer { t in
      for byte in bytes { c = t[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    }
    return c ^ 0xFFFF_FFFF
  }
}
