internal import CPNG
import FlickMotion
import Foundation

extension Frame {
  /// The frame encoded as PNG in memory: exactly the bytes ``writePNG(to:)`` writes to a
  /// file (the same encoder, `flick_fastpng_encode_threads`), for `flick studio`'s
  /// `/api/frame.png` and snapshot artefacts.
  ///
  /// - Parameter threads: how many threads share the encoding, 1 or 2 (more count as 2); the
  ///   bytes are the same for both. Two pay on a single frame someone waits for (a still, a
  ///   studio frame), not where other frames already keep every core busy.
  /// - Throws: ``RasterError/unwritableImage(path:reason:)`` (path `-`) when memory runs out.
  package func pngData(threads: Int = 1) throws(RasterError) -> Data {
    if let mismatch = pixelsMismatch { throw .unwritableImage(path: "-", reason: mismatch) }
    let (png, status) = encodedPNG(threads: threads)
    guard let png else {
      throw .unwritableImage(path: "-", reason: String(cString: strerror(status == 0 ? ENOMEM : status)))
    }
    return png.data
  }

  /// The threads to encode one frame someone waits for with: 2 where there are two cores.
  package static var threadsForOneFrame: Int { MachineCPUs.usable >= 2 ? 2 : 1 }

  /// The encoder's result: the file's bytes and whether the second thread's guess failed and its
  /// half was deflated again (`warmGuess` false, for tests, makes it fail on nearly every frame),
  /// or nil and an errno value.
  func encodedPNG(threads: Int, warmGuess: Bool = true) -> (png: (data: Data, redone: Bool)?, status: Int32) {
    var png: UnsafeMutablePointer<UInt8>?
    var size = 0
    var redone: Int32 = 0
    // The encoder reads `bytesPerRow × height` bytes from the array's start: never past its end.
    guard pixelsMismatch == nil else { return (nil, EINVAL) }
    let status = pixels.withUnsafeBufferPointer { buffer in
      flick_fastpng_encode_threads(
        buffer.baseAddress, Int32(width), Int32(height), Int32(bytesPerRow), Int32(min(max(threads, 1), 2)),
        warmGuess ? 1 : 0, &png, &size, &redone)
    }
    guard status == 0, let png else { return (nil, status) }
    return ((Data(bytesNoCopy: png, count: size, deallocator: .free), redone != 0), 0)
  }
}
