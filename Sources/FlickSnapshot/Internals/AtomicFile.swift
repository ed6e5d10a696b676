import Foundation

/// Writes files through a temporary file beside the destination, renamed on success, so a
/// failure never leaves a partial file.
enum AtomicFile {
  static func write(_ data: Data, to path: String) throws(SnapshotError) {
    let url = URL(fileURLWithPath: path)
    let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    do {
      try data.write(to: tmp)
    } catch {
      unlink(tmp.path)
      throw .unwritableFile(path: path, reason: error.localizedDescription)
    }
    guard rename(tmp.path, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(tmp.path)
      throw .unwritableFile(path: path, reason: reason)
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
      throw .unwritableFile(path: path, reason: error.localizedDescription)
    }
  }
}
