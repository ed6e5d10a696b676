import Foundation

/// A folder that Flick writes reports and failure artefacts into, marked so that Flick never
/// overwrites files it did not create.
///
/// Flick writes into a folder only when it is new, empty, or holds the marker file
/// ``markerName`` that Flick leaves in every folder it creates for a report. A folder with other
/// files and no marker (a user's project, a docs folder) is refused.
package enum ReportFolder {
  /// The marker file Flick leaves in every report folder.
  package static let markerName = ".flick-report"

  /// Why Flick must not write a report into `path`, or nil when it may.
  package static func refusal(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }  // does not exist yet
    if (info.st_mode & S_IFMT) == S_IFLNK { return "\(path) is a symbolic link" }
    guard (info.st_mode & S_IFMT) == S_IFDIR else { return "\(path) exists and is not a folder" }
    let marker = (path as NSString).appendingPathComponent(markerName)
    if FileManager.default.fileExists(atPath: marker) { return nil }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? ["?"]
    if entries.isEmpty { return nil }
    return "\(path) holds files Flick did not write (no \(markerName) marker); choose a new or empty folder"
  }

  /// Checks `path` may hold a report and creates it with its marker.
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` when the folder is not Flick's,
  ///   ``SnapshotError/unwritableFile(path:reason:)`` when it cannot be created.
  package static func claim(_ path: String) throws(SnapshotError) {
    if let reason = refusal(path) { throw .unsafePath("the report folder", reason: reason) }
    try AtomicFile.makeDirectory(path)
    let marker = (path as NSString).appendingPathComponent(markerName)
    if !FileManager.default.fileExists(atPath: marker) {
      try AtomicFile.write("written by flick: reports and failure images; safe to delete\n", to: marker)
    }
  }
}
