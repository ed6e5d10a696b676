import Foundation

/// What identifies a version of a file without reading it: device, inode, size and the
/// modification and status-change times (nanoseconds). An edit, a rename over the file (what
/// editors do on save) or a copy changes it, so the process-wide picture caches
/// (``ImageStore``, ``ResourcePool``) decode a file anew once it changed on disk instead of
/// drawing the version they decoded first (`flick studio` keeps one process across edits).
struct FileSignature: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  let modified: Int64
  let changed: Int64

  /// The signature of the file at `path` now (symbolic links followed), or nil when it cannot
  /// be read (the decoder then reports the file).
  static func of(_ path: String) -> FileSignature? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileSignature(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
  }
}
