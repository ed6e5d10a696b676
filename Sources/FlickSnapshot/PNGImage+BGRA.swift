extension PNGImage {
  /// The pixels as packed straight-alpha BGRA bytes (`width × 4` bytes a row): the bytes ffmpeg's
  /// `bgra` pixel format holds, and what a render feeds an encoder that wants straight alpha.
  package var straightBGRA: [UInt8] {
    words.withUnsafeBufferPointer { source in
      [UInt8](unsafeUninitializedCapacity: source.count * 4) { out, count in
        for (i, w) in source.enumerated() {
          out[i * 4] = UInt8(w & 0xFF)
          out[i * 4 + 1] = UInt8((w >> 8) & 0xFF)
          out[i * 4 + 2] = UInt8((w >> 16) & 0xFF)
          out[i * 4 + 3] = UInt8(w >> 24)
        }
        count = source.count * 4
      }
    }
  }
}
