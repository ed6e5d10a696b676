import FlickMotion
import FlickRaster
import FlickSnapshot
import Foundation

extension Flick.Verify {
  /// The renderer the goldens were recorded with: what their own PNGs say (the `flick-renderer`
  /// chunk every golden Flick writes carries), never the manifest alone, which a pull request can
  /// edit without touching a golden. nil when no listed golden carries the chunk: their renderer is
  /// then unknown, and they are compared with the golden PNGs themselves (exactly unless
  /// `--perceptual`), never through stored inputs.
  ///
  /// - Throws: exit 2 when the manifest's fingerprint is not the one a golden carries: the
  ///   manifest does not describe its goldens (record them again).
  static func recordedRenderer(
    _ manifest: SnapshotManifest, _ against: String, limits: DecodeLimits
  ) throws(CommandError) -> RendererFingerprint? {
    var found: RendererFingerprint?
    for entry in manifest.frames {
      let path: String
      do {
        path = try ContainedPath.resolve(entry.file, in: against, what: "golden", source: against)
      } catch {
        throw CommandError(message: error.description, code: .invalidInput)
      }
      // A missing or undecodable golden is reported as such by its frame's verdict.
      guard FileManager.default.fileExists(atPath: path),
        let own = try? PNGImage.recordedRenderer(atPath: path, limits: limits)
      else { continue }
      let disagreement = own.differences(from: manifest.renderer)
      guard disagreement.isEmpty else {
        let manifestPath = (against as NSString).appendingPathComponent(SnapshotManifest.fileName)
        throw CommandError(
          message: "\(quoted: manifestPath): its renderer fingerprint is not the one the golden \(quoted: path) "
            + "was recorded with (its own 'flick-renderer' chunk; manifest → golden: "
            + "\(quoted: disagreement.joined(separator: ", "))): the manifest does not describe its goldens; "
            + "record them again with 'flick snapshot' (or take CI's with 'flick accept') rather than editing "
            + "manifest.json",
          code: .invalidInput)
      }
      found = own
    }
    return found
  }

  /// Writes the goldens `recording` holds with `updated`, their manifest, all or nothing, once
  /// it describes every golden it lists
  /// (``FlickSnapshot/SnapshotManifest/checkCovers(previous:rewritten:matched:path:advice:)``):
  /// a run that records some frames of a changed template (or at another scale, or on another
  /// renderer) must not give the goldens it left a manifest naming the new design.
  ///
  /// - Throws: exit 2, nothing written, when it does not; 3 when a file cannot be written.
  static func commitRecorded(
    _ recording: RecordedGoldens, _ updated: SnapshotManifest, previous: SnapshotManifest?, matched: Set<String>,
    against: String, blobs: [String: Data]
  ) throws(CommandError) {
    do {
      try updated.checkCovers(
        previous: previous, rewritten: recording.names, matched: matched,
        path: (against as NSString).appendingPathComponent(SnapshotManifest.fileName),
        advice: "record every frame the manifest lists ('--record all' at all its times, no '--at' subset) "
          + "or verify without recording and accept the whole report")
      try recording.commit(into: against, manifest: updated, blobs: blobs)
    } catch {
      throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
    }
  }

  /// A failing verdict (``FrameVerdict/Status/unlisted``) for every golden file in the folder
  /// that its manifest does not list: a PNG, or the motion golden when the manifest lists none.
  /// Nothing would check them, so a pull request that drops a failing entry (or the `motion`
  /// entry) from the manifest and leaves its file fails instead of passing; `flick snapshot`
  /// and `flick accept` never leave such files (they remove what the new manifest drops).
  static func unlistedGoldens(in folder: String, manifest: SnapshotManifest) -> [FrameVerdict] {
    let listed = Set(manifest.frames.map(\.file))
    var names = Flick.Diff.pngs(in: folder).filter { !listed.contains($0) }.sorted()
    let motion = (folder as NSString).appendingPathComponent(MotionGolden.fileName)
    if manifest.motion == nil, FileManager.default.fileExists(atPath: motion) { names.append(MotionGolden.fileName) }
    return names.map { name in
      FrameVerdict(
        name: name, time: "unlisted", seconds: nil, goldenPath: (folder as NSString).appendingPathComponent(name),
        status: .unlisted,
        message: "in the goldens folder but not listed in its manifest.json, so nothing checks it: list it "
          + "(record it with 'flick snapshot') or delete it")
    }
  }
}
