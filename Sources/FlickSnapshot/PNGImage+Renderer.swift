import FlickMotion
import FlickRaster
import FlickScene
import Foundation

extension PNGImage {
  /// The renderer fingerprint a PNG file carries in its `flick-renderer` `tEXt` chunk (every
  /// golden Flick writes has one), read from the chunks without decoding any pixel; nil when the
  /// file has no such chunk, or one that does not read as a fingerprint.
  ///
  /// - Throws: ``SnapshotError/unreadableImage(path:reason:)`` when the file cannot be read, is
  ///   over the byte limit, or its chunk structure is damaged (``PNGFile/check(_:)``).
  package static func recordedRenderer(atPath path: String, limits: DecodeLimits = .standard) throws(SnapshotError)
    -> RendererFingerprint?
  {
    let data = try read(path, limits: limits)
    let checked: PNGFile.Checked
    do {
      checked = try PNGFile.check(data)
    } catch {
      throw .unreadableImage(path: path, reason: error.message)
    }
    return checked.rendererText.flatMap { try? JSONDecoder().decode(RendererFingerprint.self, from: Data($0)) }
  }
}

extension PNGImage {
  /// The bytes of the file at `path` when it is a regular file within the decode limit
  /// (`fstat` on the open file, before a byte is read; opened non-blocking, so a FIFO cannot hold
  /// the open); nil otherwise, and the decoder then says why. For the byte comparisons that come
  /// before decoding: a golden of gigabytes was read whole there before any limit was checked.
  static func boundedBytes(of path: String, limits: DecodeLimits) -> Data? {
    (try? read(path, limits: limits)).map { Data($0) }
  }

  /// The bytes of the PNG file at `path`, read once through ``FlickScene/AssetFile`` (opened
  /// non-blocking, `fstat` on the open descriptor: a regular file within `limits.maxFileBytes`).
  ///
  /// - Throws: ``SnapshotError/unreadableImage(path:reason:)`` saying why, naming the byte limit
  ///   and how to raise it when the file is over it.
  static func read(_ path: String, limits: DecodeLimits) throws(SnapshotError) -> [UInt8] {
    do {
      return try AssetFile.read(path, maximumBytes: limits.maxFileBytes, kind: "a PNG file")
    } catch {
      let reason =
        switch error.cause {
        case .cannotOpen(let number): String(cString: strerror(number)).lowercased()
        case .notRegular: "not a regular file"
        case .tooLarge(let size):
          "the file is \(size) bytes, over the decode limit of \(limits.maxFileBytes) "
            + "(--max-image-bytes, \(DecodeLimits.bytesVariable))"
        case .changed: error.reason
        }
      throw .unreadableImage(path: path, reason: reason)
    }
  }
}
