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
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw .unreadableImage(path: path, reason: "not a regular file")
    }
    guard Int(info.st_size) <= limits.maxFileBytes, let data = FileManager.default.contents(atPath: path) else {
      throw .unreadableImage(
        path: path, reason: "cannot be read within the decode limit of \(limits.maxFileBytes) bytes")
    }
    let checked: PNGFile.Checked
    do {
      checked = try PNGFile.check([UInt8](data))
    } catch {
      throw .unreadableImage(path: path, reason: error.message)
    }
    let keyword = Array(rendererKeyword.utf8) + [0]
    for chunk in checked.chunks where chunk.type == "tEXt" && chunk.data.starts(with: keyword) {
      return try? JSONDecoder().decode(RendererFingerprint.self, from: Data(chunk.data.dropFirst(keyword.count)))
    }
    return nil
  }
}

extension PNGImage {
  /// The bytes of the file at `path` when it is a regular file within the decode limit
  /// (`fstat` on the open file, before a byte is read; opened non-blocking, so a FIFO cannot hold
  /// the open); nil otherwise, and the decoder then says why. For the byte comparisons that come
  /// before decoding: a golden of gigabytes was read whole there before any limit was checked.
  static func boundedBytes(of path: String, limits: DecodeLimits) -> Data? {
    (try? AssetFile.read(path, maximumBytes: limits.maxFileBytes, kind: "a PNG file")).map { Data($0) }
  }
}
