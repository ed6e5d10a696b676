import FlickMotion
import FlickRaster
import Foundation

/// The goldens `flick verify --record` records in one run, held (encoded, with this renderer's
/// fingerprint) until the run is over and its manifest is known, then written with that manifest
/// all or nothing (``SnapshotCommit``), or not at all when the manifest would not describe every
/// golden it lists (``SnapshotManifest/checkCovers(previous:rewritten:matched:path:advice:)``).
package final class RecordedGoldens: Sendable {
  /// Encoded PNG bytes by file name inside the goldens folder.
  private let files = Locked<[String: Data]>([:])

  package init() {}

  /// What ``GoldenVerifier/recordInstead`` calls for a golden to record at a path.
  package var writer: @Sendable (Frame, String) throws(SnapshotError) -> Void {
    { [files] (frame: Frame, path: String) throws(SnapshotError) in
      let bytes = Data(try PNGFile.encode(frame, renderer: .current))
      files.withLock { $0[(path as NSString).lastPathComponent] = bytes }
    }
  }

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
    let encoded = files.withLock { $0 }.sorted { $0.key < $1.key }.map { (name: $0.key, bytes: $0.value) }
    for (name, _) in encoded {
      _ = try ContainedPath.resolve(name, in: directory, what: "golden", source: manifestPath)
    }
    try SnapshotCommit(directory: directory, encoded: encoded, manifest: manifest, blobs: blobs).apply()
  }
}
