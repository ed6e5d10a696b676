import FlickMotion
import Foundation

/// The rules for the entries Flick writes: an output's destination is never a symbolic link
/// (Flick does not write through one, nor into or out of a linked folder), and every temporary
/// file is a new file of Flick's own (created exclusively, never through a link).
package enum OutputEntry {
  /// `path` without `.` components and repeated or trailing slashes, each `..` taking away the
  /// folder before it when that folder is no symbolic link: `frames/`, `frames/.`, `frames/./`,
  /// `frames//` and `frames/x/..` are all the entry `frames`, which `lstat` looks at itself (on
  /// `frames/.` it would look at what a link `frames` points to). A `..` after a link stays (the
  /// kernel follows the link first; ``link(in:)`` finds it), and so does a leading one.
  package static func entry(_ path: String) -> String {
    plainly(path).entry
  }

  /// The symbolic link a write to `path` would go through, or nil: the entry `path` names when
  /// it is a link (not followed), or a link that a `..` of `path` steps out of (`link/..`,
  /// `link/../x.mp4` lead through the folder the link points to).
  package static func link(in path: String) -> String? {
    let (entry, stepped) = plainly(path)
    if let stepped { return stepped }
    return isLinkEntry(entry) ? entry : nil
  }

  /// ``entry(_:)`` and the first link a `..` of `path` steps out of.
  private static func plainly(_ path: String) -> (entry: String, link: String?) {
    guard !path.isEmpty else { return (path, nil) }
    let absolute = path.utf8.first == UInt8(ascii: "/")
    func joined(_ parts: [String]) -> String {
      let text = (absolute ? "/" : "") + parts.joined(separator: "/")
      return text.isEmpty ? "." : text
    }
    var parts: [String] = []
    var link: String?
    for part in PathText.components(path) {
      switch part {
      case ".": continue
      case "..":
        if let last = parts.last, last != ".." {
          if isLinkEntry(joined(parts)) {
            if link == nil { link = joined(parts) }
            parts.append(part)
          } else {
            parts.removeLast()
          }
        } else if !(absolute && parts.isEmpty) {  // `/..` is `/`
          parts.append(part)
        }
      default: parts.append(part)
      }
    }
    return (joined(parts), link)
  }

  /// Whether the entry `path` is a symbolic link (`lstat`: the last component not followed).
  private static func isLinkEntry(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }

  /// Whether a write to `path` goes through a symbolic link: the entry itself is one, or a `..`
  /// steps out of one (``link(in:)``).
  package static func isLink(_ path: String) -> Bool {
    Self.link(in: path) != nil
  }

  /// The directory entry `path` names, as bytes: its folder with every symbolic link resolved,
  /// then its own name (not followed). Two paths with the same identity are the same entry
  /// (`a.mp4` and `self/a.mp4` where `self` links to `.`); a hard link to a file is another
  /// entry, which a rename over it leaves alone. A folder that cannot be resolved is taken as
  /// written, standardised.
  package static func identity(_ path: String) -> [UInt8] {
    let url = URL(fileURLWithPath: entry(path)).standardizedFileURL
    let folder = url.deletingLastPathComponent().path
    let resolved = realpath(folder, nil).map { pointer in
      defer { free(pointer) }
      return String(cString: pointer)
    }
    return Array(((resolved ?? folder) + "/" + url.lastPathComponent).utf8)
  }

  /// What kind of entry, other than a regular file, a folder or a symbolic link, is at `path`
  /// ("a character device", "a FIFO"…), or nil. Flick never replaces one: renaming a finished
  /// file over `/dev/null` would leave an ordinary file where the device was.
  package static func specialKind(_ path: String) -> String? {
    var info = stat()
    guard lstat(entry(path), &info) == 0 else { return nil }
    return AtomicDestination.specialKind(info.st_mode)
  }

  /// Refuses a destination (a file, or a PNG sequence's folder) that is a symbolic link.
  ///
  /// - Throws: ``VideoError/linkedOutput(path:)`` (invalid input, exit 2).
  package static func refuseLink(_ path: String) throws(VideoError) {
    if let link = Self.link(in: path) { throw .linkedOutput(path: link) }
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
