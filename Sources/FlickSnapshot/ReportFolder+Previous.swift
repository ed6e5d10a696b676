import Foundation

extension ReportFolder {
  /// The files Flick writes in a frame's artefact folder of a report (``GoldenVerifier``) and in
  /// the motion check's folder.
  package static let artifactNames: Set<String> = [
    "actual.png", "expected.png", "diff.png", "side-by-side.png", "zoom.png", "flicker.png", "golden-recorded.png",
    "rerendered.png", "drift-zoom.png", MotionGolden.fileName,
  ]

  /// Removes what an earlier run wrote into the report folder `path` before a new run writes
  /// there, so a run cut short (a signal, a kill, a full disk) never leaves the earlier run's
  /// `summary.json`, `index.html` and `junit.xml` beside its own frames: such a folder has no
  /// summary, and `flick accept` refuses it. Only a folder holding the ``markerName`` marker is
  /// touched, and in it only what Flick writes: the summary first, then the pages, the stored
  /// inputs (`inputs/<sha256>`) and every sub-folder's artefacts (``artifactNames``), each
  /// sub-folder removed when that leaves it empty. Links are removed as entries, never followed;
  /// any other file stays.
  ///
  /// - Throws: ``SnapshotError/unwritableFile(path:reason:)`` when one of those files cannot be
  ///   removed (the run would otherwise leave it beside its own).
  package static func clearPrevious(_ path: String) throws(SnapshotError) {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR,
      lstat((path as NSString).appendingPathComponent(markerName), &info) == 0
    else { return }
    for name in [SnapshotReport.summaryFile, SnapshotReport.htmlFile, SnapshotReport.junitFile] {
      try removeFile((path as NSString).appendingPathComponent(name))
    }
    for name in entries(of: path).sorted() where name != markerName {
      let folder = (path as NSString).appendingPathComponent(name)
      guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
      for file in entries(of: folder) {
        let owned =
          name == SnapshotInputs.folder
          ? file.count == 64 && file.allSatisfy(\.isHexDigit) : artifactNames.contains(file)
        if owned { try removeFile((folder as NSString).appendingPathComponent(file)) }
      }
      if entries(of: folder).isEmpty { rmdir(folder) }
    }
  }

  /// The names in `folder` (none when it cannot be read).
  private static func entries(of folder: String) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
  }

  /// Unlinks `path` (a file or a link, never what a link points to); a missing one is fine.
  private static func removeFile(_ path: String) throws(SnapshotError) {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return }
    if unlink(path) != 0 && errno != ENOENT {
      throw .unwritableFile(path: path, reason: String(cString: strerror(errno)))
    }
  }
}
