import FlickMotion
import Foundation

/// The rules for the entries Flick writes: an output's destination is never a symbolic link
/// (Flick does not write through one, nor into or out of a linked folder), and every temporary
/// file is a new file of Flick's own (created exclusively, never through a link).
package enum OutputEntry {
  /// `path` without trailing slashes (`frames/` is the entry `frames`, which `lstat` would
  /// otherwise resolve through a link).
  package static func entry(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
    return String(p)
  }

  /// Whether the entry at `path` itself is a symbolic link (not followed).
  package static func isLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(entry(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }

  /// Refuses a destination (a file, or a PNG sequence's folder) that is a symbolic link.
  ///
  /// - Throws: ``VideoError/linkedOutput(path:)`` (invalid input, exit 2).
  package static func refuseLink(_ path: String) throws(VideoError) {
    if isLink(path) { throw .linkedOutput(path: entry(path)) }
  }

  /// Creates `path` as a new, empty regular file of Flick's own for a temporary: whatever had
  /// its name is removed first (a link itself, never its target), then the file is created with
  /// `O_EXCL | O_NOFOLLOW`.
  ///
  /// - Returns: The open descriptor (read-write), or the `errno` description.
  package static func createTemporary(_ path: String, mode: mode_t = 0o644) -> Result<Int32, TemporaryFailure> {
    var info = stat()
    if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR { unlink(path) }
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    return fd >= 0 ? .success(fd) : .failure(TemporaryFailure(reason: String(cString: strerror(errno))))
  }

  /// ``createTemporary(_:mode:)`` for a file another program fills (ffmpeg overwrites the empty
  /// file Flick made, which is no link).
  ///
  /// - Returns: nil, or the `errno` description.
  package static func reserveTemporary(_ path: String) -> String? {
    switch createTemporary(path) {
    case .success(let fd):
      close(fd)
      return nil
    case .failure(let failure):
      return failure.reason
    }
  }

  /// Registers `files` with ``Cleanup`` and creates each as a new, empty file of Flick's own
  /// (``reserveTemporary(_:)``) for ffmpeg to fill: its `-y` overwrites them and never writes
  /// through a link planted under a temporary's name.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` naming `destination`.
  package static func reserveTemporaries(_ files: [String], for destination: String) throws(VideoError) {
    for file in files {
      Cleanup.shared.add(file: file)
      if let reason = reserveTemporary(file) {
        throw .cannotWrite(path: destination, reason: "cannot create \(quoted: file): \(escaped: reason)")
      }
    }
  }

  /// Why a temporary file could not be created.
  package struct TemporaryFailure: Error {
    package var reason: String
  }
}
