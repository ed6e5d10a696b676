import Foundation

extension ReportAcceptance {
  /// Checks that `bytes`, the artefact `kind` of `frame` read from `path`, are what the run that
  /// wrote the summary wrote (its `sha256`): a report folder holding another run's file (a run
  /// cut short in a reused folder, two runs into one folder) is refused. Summaries of versions
  /// that recorded no hashes are not checked.
  ///
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` naming the file and the summary.
  static func checkWritten(
    _ bytes: Data, _ frame: SnapshotReport.Summary.Frame, _ kind: String, path: String, summaryPath: String
  ) throws(SnapshotError) {
    guard let expected = frame.sha256?[kind], SnapshotManifest.hash(bytes) != expected else { return }
    throw .invalidManifest(
      path: path,
      reason: "it is not the file \(quoted: summaryPath) describes (another SHA-256): the report is incomplete or "
        + "mixes two runs' files; verify again into a new folder and accept that report")
  }
}
