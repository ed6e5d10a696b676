import FlickMotion
import FlickScene
import Foundation

extension ContainedPath {
  /// The most bytes of a `summary.json`, `manifest.json` or motion golden read from a report or
  /// goldens folder (64 MiB; a summary of 10,000 frames is about 15 MB).
  package static let maximumTextBytes = 64 << 20
  /// The most bytes of one stored input (`inputs/<sha256>`): 256 MiB, the largest font file a
  /// template may use (``FlickRaster/FontFile/maximumBytes``) and the largest image file.
  package static let maximumInputBytes = 256 << 20

  /// The bytes of `relative` inside `directory`, read only when what it names is a regular file
  /// inside the folder of at most `maximumBytes` bytes.
  ///
  /// The path is checked as ``resolve(_:in:what:source:)`` does, then opened (non-blocking: a FIFO
  /// cannot hold the open) and checked again on the open file: its real path (through every
  /// symbolic link, read from `/proc/self/fd`) must lie inside the folder, it must be a regular
  /// file, and `fstat` must give at most `maximumBytes` before a byte is read. A link that leads
  /// out of the folder, or nowhere, is refused the same way whatever is at its end, so a report
  /// cannot learn what exists outside it.
  ///
  /// - Returns: nil when nothing has that name.
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` for a path or link leaving the folder,
  ///   ``SnapshotError/invalidManifest(path:reason:)`` for something that is not a regular file,
  ///   is larger than the cap or cannot be read.
  package static func read(
    _ relative: String, in directory: String, what: String, source: String, maximumBytes: Int
  ) throws(SnapshotError) -> Data? {
    let path = try resolve(relative, in: directory, what: what, source: source)
    let shown = "\(quoted: what) '\(quoted: relative)' in \(quoted: source)"
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let failure = errno
      var info = stat()
      if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
        throw .unsafePath(shown, reason: "it is a symbolic link that leads to no file inside the folder")
      }
      if failure == ENOENT || failure == ENOTDIR { return nil }
      throw .invalidManifest(path: path, reason: "cannot be read: \(escaped: String(cString: strerror(failure)))")
    }
    defer { close(fd) }
    if let base = realPath(directory), let real = realPath("/proc/self/fd/\(fd)"),
      !PathText.isInside(real, folder: base)
    {
      throw .unsafePath(shown, reason: "it resolves to \(quoted: real), outside \(quoted: base)")
    }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw .invalidManifest(path: path, reason: "not a regular file")
    }
    guard Int(info.st_size) <= maximumBytes else {
      throw .invalidManifest(
        path: path,
        reason: "the file is \(info.st_size) bytes, more than the \(maximumBytes >> 20) MiB a \(quoted: what) may be")
    }
    guard let bytes = AssetFile.readBytes(fd, count: Int(info.st_size)) else {
      throw .invalidManifest(path: path, reason: "cannot be read whole (it changed while read)")
    }
    return Data(bytes)
  }
}
