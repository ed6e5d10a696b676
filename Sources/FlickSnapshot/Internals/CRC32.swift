internal import CPNG

/// CRC-32 (ISO 3309, polynomial 0xEDB88320), as PNG chunks use: zlib's `crc32`.
enum CRC32 {
  static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    if let crc = bytes.withContiguousStorageIfAvailable({ flick_png_crc32($0.baseAddress, $0.count) }) { return crc }
    let copy = [UInt8](bytes)
    return copy.withUnsafeBufferPointer { flick_png_crc32($0.baseAddress, $0.count) }
  }
}
