import FlickMotion
import Foundation

extension SnapshotCommit {
  /// Refuses two entries naming one file: `names` (paths inside `directory`) are compared
  /// case-insensitively and by canonical equivalence (Swift string equality), as a
  /// case-insensitive or normalising file system would see them, so no two writes of one commit
  /// can land on one file.
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` naming both entries.
  static func checkDistinct(_ names: [String], in directory: String) throws(SnapshotError) {
    var seen: [String: String] = [:]
    for name in names {
      if let earlier = seen.updateValue(name, forKey: name.lowercased()) {
        throw .unsafePath(
          "file '\(quoted: name)' in \(quoted: directory)",
          reason: earlier == name
            ? "one commit lists it twice" : "it names the same file as '\(quoted: earlier)' on some file systems")
      }
    }
  }

  /// Puts every temporary in place, in order; when one cannot be, the ones already in place are
  /// undone (each destination's previous file, kept under a hidden name until the end, goes
  /// back; a destination that did not exist is removed), so the folder is as it was.
  ///
  /// - Throws: ``SnapshotError/unwritableFile(path:reason:)`` naming the file that failed.
  static func commitAll(_ temporary: [(tmp: String, final: String)]) throws(SnapshotError) {
    var done: [(final: String, previous: String?)] = []
    func undo() {
      for d in done.reversed() {
        if let previous = d.previous {
          rename(previous, d.final)
        } else {
          unlink(d.final)
        }
      }
      if !done.isEmpty { AtomicDestination.syncFolder(containing: done[0].final) }
    }
    for (i, t) in temporary.enumerated() {
      var failure: AtomicDestination.Failure?
      var previous: String?
      var info = stat()
      if lstat(t.final, &info) == 0 {
        let kept = AtomicDestination.temporary(for: t.final + ".old")
        unlink(kept)
        if let reason = keep(t.final, as: kept, info) {
          failure = AtomicDestination.Failure(reason: "cannot keep its previous version: " + reason)
          unlink(t.tmp)
        } else {
          previous = kept
        }
      }
      if failure == nil { failure = AtomicDestination.commit(t.tmp, to: t.final) }
      guard let failure else {
        done.append((t.final, previous))
        continue
      }
      if let previous { unlink(previous) }
      for rest in temporary[(i + 1)...] { unlink(rest.tmp) }
      undo()
      throw .unwritableFile(path: t.final, reason: failure.reason)
    }
    for d in done { if let previous = d.previous { unlink(previous) } }
  }

  /// Keeps the file at `path` (its `lstat` is `info`) under the second name `kept`: a hard
  /// link (a symbolic link is linked as a link, never followed); on a file system without hard
  /// links, a copy of a regular file's bytes or a new link with the same target.
  ///
  /// - Returns: nil, or why it could not be kept.
  private static func keep(_ path: String, as kept: String, _ info: stat) -> String? {
    if linkat(AT_FDCWD, path, AT_FDCWD, kept, 0) == 0 { return nil }
    let linkError = String(cString: strerror(errno))
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      guard let bytes = FileManager.default.contents(atPath: path) else { return linkError }
      do throws(AtomicDestination.Failure) {
        try AtomicDestination.writeTemporary(bytes, to: kept, mode: info.st_mode & 0o7777)
      } catch {
        return error.reason
      }
      return nil
    case S_IFLNK:
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path),
        symlink(target, kept) == 0
      else { return linkError }
      return nil
    default:
      return linkError
    }
  }
}
