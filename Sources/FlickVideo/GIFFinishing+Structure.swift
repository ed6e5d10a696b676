import Foundation

extension GIFFinishing {
  /// The images (image descriptors) a GIF file stores, or nil when its structure is not a
  /// GIF's.
  static func imageCount(_ path: String) -> Int? { structure(path)?.images }

  /// The images (image descriptors) a GIF file stores and the pixels they cover in all (each
  /// image's width × height), or nil when its structure is not a GIF's. Reads the file mapped,
  /// block by block.
  static func structure(_ path: String) -> (images: Int, pixels: Int)? {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
    return data.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> (images: Int, pixels: Int)? in
      var i = 13
      guard b.count >= i, b[0] == 0x47, b[1] == 0x49, b[2] == 0x46 else { return nil }
      if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
      /// Skips data sub-blocks from `i`; false when the file ends first.
      func skipSubBlocks() -> Bool {
        while i < b.count {
          let length = Int(b[i])
          i += 1 + length
          if length == 0 { return true }
        }
        return false
      }
      var images = 0
      var pixels = 0
      while i < b.count {
        switch b[i] {
        case 0x21:
          i += 2
          guard skipSubBlocks() else { return nil }
        case 0x2C:
          guard i + 10 <= b.count else { return nil }
          pixels += (Int(b[i + 5]) | Int(b[i + 6]) << 8) * (Int(b[i + 7]) | Int(b[i + 8]) << 8)
          let packed = b[i + 9]
          i += 10
          if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }
          i += 1  // LZW minimum code size
          guard skipSubBlocks() else { return nil }
          images += 1
        case 0x3B:
          return (images, pixels)
        default:
          return nil
        }
      }
      return nil
    }
  }
}
