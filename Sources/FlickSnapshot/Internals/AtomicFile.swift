import FlickMotion
import Foundation

/// Writes snapshot files through ``FlickMotion/AtomicDestination`` (a temporary beside the
/// destination, flushed and renamed on success), so a failure never leaves a partial file, with
/// the snapshot module's errors.
enum AtomicFile {
  static func write(_ data: Data, to path: String) throws(SnapshotError) {
    do {
      try AtomicDestination.write(data, to: path)
    } catch {
      throw .unwritableFile(path: path, reason: error.reason)
    }
  }

  static func write(_ text: String, to path: String) throws(SnapshotError) {
    try write(Data(text.utf8), to: path)
  }

  /// Creates `path` and its parents.
  static func makeDirectory(_ path: String) throws(SnapshotError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw .unwritableFile(path: path, reason: MessageText.reason(error))
    }
  }
}
