import FlickMotion
import FlickRaster
import Foundation

/// The goldens `flick verify --record` records in one run, kept (encoded, with this renderer's
/// fingerprint, in a ``GoldenSpool``: files of a temporary folder, not memory) until the run is
/// over and its manifest is known, then written with that manifest all or nothing
/// (``SnapshotCommit``), or not at all when the manifest would not describe every golden it lists
/// (``SnapshotManifest/checkCovers(previous:rewritten:matched:path:advice:)``).
package final class RecordedGoldens: Sendable {
  /// The spooled PNG files by file name inside the goldens folder.
  private let files = Locked<[String: SnapshotCommit.Content]>([:])
  /// The spool, made when the first golden is recorded.
  private let spool = Locked<GoldenSpool?>(nil)
  private let tracking: TemporaryFolderTracking

  /// - Parameter tracking: Told of the spool's temporary folder (the command line passes its
  ///   cleanup registry, so an interruption removes it).
  package init(tracking: TemporaryFolderTracking = .none) {
    self.tracking = tracking
  }

  /// What ``GoldenVerifier/recordInstead`` calls for a golden to record at a path.
  package var writer: @Sendable (Frame, String) throws(SnapshotError) -> Void {
    { [self] (frame: Frame, path: String) throws(SnapshotError) in
      let content = try madeSpool().add(frame, renderer: .current)
      files.withLock { $0[(path as NSString).lastPathComponent] = content }
    }
  }

  /// The spool, made on first use.
  private func madeSpool() throws(SnapshotError) -> GoldenSpool {
    if let made = spool.withLock({ $0 }) { return made }
    let new = try GoldenSpool(tracking: tracking)
    return spool.withLock { made in
      if let earlier = made { return earlier }
      made = new
      return new
    }
  }

  /// Removes the spooled goldens (after the commit, or instead of it). Called by the command: the
  /// verifier's worker threads may hold this after the run is over.
  package func discard() { spool.withLock { $0 }?.remove() }

  /// The file names recorded so far.
  package var names: Set<String> { Set(files.withLock { $0.keys }) }

  /// Writes the recorded goldens, the stored inputs `blobs` and `manifest` into `directory`, all
  /// or nothing.
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` for a name that leaves the folder,
  ///   ``SnapshotError/unwritableFile(path:reason:)``; the folder is then unchanged.
  package func commit(into directory: String, manifest: SnapshotManifest, blobs: [String: Data]) throws(SnapshotError) {
    let manifestPath = (directory as NSString).appendingPathComponent(SnapshotManifest.fileName)
    try manifest.validate(path: manifestPath)
    let contents = files.withLock { $0 }.sorted { $0.key < $1.key }.map { (name: $0.key, content: $0.value) }
    for (name, _) in contents {
      _ = try ContainedPath.resolve(name, in: directory, what: "golden", source: manifestPath)
    }
    try SnapshotCommit(directory: directory, contents: contents, manifest: manifest, blobs: blobs).apply()
  }
}
