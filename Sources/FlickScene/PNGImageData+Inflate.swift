import CPNG

extension PNGImageData {
  /// How many bytes the zlib stream `stream` inflates to, counted by zlib through a fixed buffer
  /// and stopping as soon as the count passes `limit` (`flick_inflated_size` in CPNG). A stream
  /// that is not valid zlib is counted up to where it stops being valid, as far as a decoder
  /// could get.
  ///
  /// For the PNGs embedded in Lottie files and SVG pictures: stb_image (rlottie) inflates a PNG's
  /// whole stream into memory before looking at its rows, so within the compressed bound a
  /// header of a few megapixels still let a stream of zeros take gigabytes.
  static func inflatedSize(_ stream: [UInt8], limit: Int) -> Int {
    stream.withUnsafeBufferPointer { Int(flick_inflated_size($0.baseAddress, $0.count, limit)) }
  }
}
