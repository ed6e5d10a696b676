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

  /// Creates the folder `relative` inside `root` and the folders between, one `mkdir` each,
  /// never `root` itself nor anything above it: when `root` has gone (an interruption's cleanup
  /// removed it while the files were being written), this fails instead of making it again, which
  /// would leave it behind.
  static func makeDirectory(_ relative: String, below root: String) throws(SnapshotError) {
    var path = root
    for part in relative.split(separator: "/") where part != "." {
      path += "/" + part
      if mkdir(path, 0o777) != 0, errno != EEXIST {
        throw .unwritableFile(path: path, reason: String(cString: strerror(errno)))
      }
    }
    guard access(root, F_OK) == 0 else { throw .unwritableFile(path: root, reason: "the folder has gone") }
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
