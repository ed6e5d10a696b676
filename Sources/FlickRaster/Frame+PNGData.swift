internal import CPNG
import Foundation

extension Frame {
  /// The frame encoded as PNG in memory: exactly the bytes ``writePNG(to:)`` writes to a file
  /// (the same encoder, `flick_fastpng_encode`), for `flick studio`'s `/api/frame.png`.
  ///
  /// - Throws: ``RasterError/unwritableImage(path:reason:)`` (path `-`) when memory runs out.
  package func pngData() throws(RasterError) -> Data {
    var png: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status = pixels.withUnsafeBufferPointer { buffer in
      flick_fastpng_encode(buffer.baseAddress, Int32(width), Int32(height), Int32(bytesPerRow), &png, &size)
    }
    guard status == 0, let png else {
      throw .unwritableImage(path: "-", reason: String(cString: strerror(status == 0 ? ENOMEM : status)))
    }
    return Data(bytesNoCopy: png, count: size, deallocator: .free)
  }
}
