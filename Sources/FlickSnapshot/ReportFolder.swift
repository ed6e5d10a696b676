import FlickMotion
import Foundation

/// A folder that Flick writes reports and failure artefacts into, marked so that Flick never
/// overwrites files it did not create, and never writes through a symbolic link.
///
/// Flick writes into a folder only when it is new, empty, or holds the marker file
/// ``markerName`` that Flick leaves in every folder it creates for a report. A folder with other
/// files and no marker (a user's project, a docs folder) is refused. A report folder may come
/// from someone else's pull request, so a symbolic link is refused wherever Flick would write
/// through it: as the folder itself, as a folder on the way to it below the current folder
/// (`flick-report` in `flick-report/<template>`), or anywhere inside it (a frame's folder,
/// `inputs/`). Flick never makes links in a report folder, so any link there is someone else's.
package enum ReportFolder {
  /// The marker file Flick leaves in every report folder.
  package static let markerName = ".flick-report"

  /// How deep ``refusal(_:)`` looks for links inside a report folder (Flick's own are two deep).
  static let searchDepth = 8

  /// Why Flick must not write a report into `path`, or nil when it may.
  package static func refusal(_ path: String) -> String? {
    if let link = linkOnTheWay(to: path) {
      return "\(quoted: link) is a symbolic link; Flick does not write a report through links (remove it)"
    }
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }  // does not exist yet
    guard (info.st_mode & S_IFMT) == S_IFDIR else { return "\(quoted: path) exists and is not a folder" }
    let marker = (path as NSString).appendingPathComponent(markerName)
    if lstat(marker, &info) == 0 {
      guard let link = link(inside: path, depth: searchDepth) else { return nil }
      return "\(quoted: link) in the report folder is a symbolic link; Flick does not write a report through "
        + "links (remove it)"
    }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? ["?"]
    if entries.isEmpty { return nil }
    return "\(quoted: path) holds files Flick did not write (no \(markerName) marker); choose a new or empty folder"
  }

  /// Checks `path` may hold a report and creates it with its marker.
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` when the folder is not Flick's or a link
  ///   lies on the way, ``SnapshotError/unwritableFile(path:reason:)`` when it cannot be created.
  package static func claim(_ path: String) throws(SnapshotError) {
    if let reason = refusal(path) { throw .unsafePath("the report folder", reason: reason) }
    try AtomicFile.makeDirectory(path)
    let marker = (path as NSString).appendingPathComponent(markerName)
    var info = stat()
    if lstat(marker, &info) != 0 {
      try AtomicFile.write("written by flick: reports and failure images; safe to delete\n", to: marker)
    }
  }

  /// Creates the folder `path` inside a claimed report folder (a frame's artefacts, `inputs/`),
  /// or checks the one there is a real folder: a symbolic link (or anything else) under its name
  /// is refused, never followed, whatever was checked before.
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)``, ``SnapshotError/unwritableFile(path:reason:)``.
  package static func makeFolder(_ path: String) throws(SnapshotError) {
    if mkdir(path, 0o755) == 0 { return }
    let code = errno
    var info = stat()
    guard code == EEXIST, lstat(path, &info) == 0 else {
      throw .unwritableFile(path: path, reason: String(cString: strerror(code)))
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return
    case S_IFLNK:
      throw .unsafePath(path, reason: "it is a symbolic link; Flick does not write a report through links (remove it)")
    default: throw .unsafePath(path, reason: "it exists and is not a folder")
    }
  }

  /// The first symbolic link among the folders a write to `path` goes through that someone else
  /// may have planted: `path` itself and, when it lies in the current folder, each folder between
  /// (every component of a relative path); nil when there is none.
  static func linkOnTheWay(to path: String) -> String? {
    var start = ""
    var rest = path
    if path.hasPrefix("/") {
      let cwd = FileManager.default.currentDirectoryPath
      if let inside = PathText.relative(path, to: cwd) {
        start = cwd.hasSuffix("/") && cwd.count > 1 ? String(cwd.dropLast()) : cwd
        rest = inside
      } else {
        return linkAtEnd(of: path)
      }
    }
    var current = start
    for part in PathText.components(rest) {
      current = current.isEmpty ? String(part) : current + "/" + part
      if isLink(current) { return current }
    }
    return nil
  }

  /// The symbolic link a write to the absolute `path` goes through at its end: its last entry
  /// when that is a link, with `.` components and repeated and trailing slashes dropped first
  /// (`lstat("rep/.")` looks through a link `rep`), or a folder that a `..` steps out of
  /// (`rep/..` leads through the folder `rep` points to); nil when there is none. The folders
  /// above may be links.
  static func linkAtEnd(of path: String) -> String? {
    var parts: [String] = []
    for part in PathText.components(path) {
      switch part {
      case ".": continue
      case "..":
        guard !parts.isEmpty else { continue }  // `/..` is `/`
        let folder = "/" + parts.joined(separator: "/")
        if isLink(folder) { return folder }
        parts.removeLast()
      default: parts.append(part)
      }
    }
    let entry = "/" + parts.joined(separator: "/")
    return isLink(entry) ? entry : nil
  }

  /// The first symbolic link found inside `folder` (entries sorted, sub-folders searched to
  /// `depth`); links are never followed.
  static func link(inside folder: String, depth: Int) -> String? {
    guard depth > 0, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
    for name in names.sorted() {
      let path = (folder as NSString).appendingPathComponent(name)
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFLNK: return path
      case S_IFDIR: if let link = link(inside: path, depth: depth - 1) { return link }
      default: continue
      }
    }
    return nil
  }

  static func isLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }
}
