import FlickRaster
import FlickScene
import Foundation

/// Accepts a renderer update (`flick accept --renderer`): the goldens are re-rendered from their
/// own stored inputs (``SnapshotInputs``) by this renderer and take its fingerprint, so the
/// design goldens (template, parameters, assets) are untouched and only the renderer's drift is
/// taken in.
///
/// Run it where the goldens are checked (the CI image), as with `flick accept`.
package struct RendererUpdate: Sendable {
  /// One golden to rewrite.
  package struct Golden: Sendable {
    /// The file name inside the goldens folder.
    package var file: String
    /// The golden's new PNG file, with the new renderer's fingerprint: re-rendered here and
    /// spooled (``GoldenSpool``) as soon as drawn, or as the other machine wrote it, when taken
    /// from a report (copied unchanged).
    package var content: SnapshotCommit.Content
    /// How far the recorded golden is from it (nil when the recorded one does not decode or its
    /// size differs).
    package var drift: RendererDrift?
  }

  /// The goldens folder.
  package let directory: String
  /// The goldens to rewrite, in manifest order.
  package let goldens: [Golden]
  /// The manifest as it is now.
  package let previous: SnapshotManifest
  /// The manifest written: the same, with this renderer's fingerprint.
  package var manifest: SnapshotManifest

  /// Re-renders every golden of `directory` from its stored inputs.
  ///
  /// - Parameter refusal: Why the stored template's scene must not be drawn once per golden
  ///   (the command's caps), or nil when it may; asked before the first frame is drawn
  ///   (``SnapshotInputs/rerender(from:at:scale:allowOutsideAssets:limits:tracking:refusal:)``).
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` when there is no manifest, it
  ///   stores no inputs or `refusal` refuses; ``SnapshotError/damagedInput(path:reason:)``,
  ///   ``SnapshotError/renderFailed(_:)`` when the inputs cannot be rendered.
  package init(
    goldens directory: String, limits: DecodeLimits = .standard, tracking: TemporaryFolderTracking = .none,
    refusal: (_ scene: Scene, _ scale: Double, _ frames: Int) -> String? = { _, _, _ in nil }
  ) throws(SnapshotError) {
    let path = (directory as NSString).appendingPathComponent(SnapshotManifest.fileName)
    guard let manifest = try SnapshotManifest.read(from: directory) else {
      throw .invalidManifest(path: path, reason: "no manifest here; make the goldens with flick snapshot first")
    }
    guard let inputs = manifest.inputs else {
      throw .invalidManifest(
        path: path,
        reason: "these goldens store no inputs (recorded before Flick stored them), so they cannot be re-rendered; "
          + "re-record them with flick snapshot")
    }
    // Never with access outside the stored files: what the manifest records grants nothing.
    let rendering = try inputs.rerender(
      from: directory, at: manifest.frames.map(\.time), scale: manifest.scale, allowOutsideAssets: false,
      tracking: tracking, refusal: refusal)
    // Each golden is drawn, measured and spooled in turn: one frame is held at a time.
    let spool = try GoldenSpool(tracking: tracking)
    var goldens: [Golden] = []
    for (i, entry) in manifest.frames.enumerated() {
      let frame = try rendering.frame(i).frame.get()
      let file = try ContainedPath.resolve(entry.file, in: directory, what: "golden", source: path)
      let drift = (try? PNGImage(contentsOf: file, limits: limits)).flatMap {
        RendererDrift.measure(recorded: $0, rerendered: PNGImage(frame: frame))
      }
      goldens.append(Golden(file: entry.file, content: try spool.add(frame, renderer: .current), drift: drift))
    }
    self.directory = directory
    self.goldens = goldens
    self.previous = manifest
    var updated = manifest
    updated.renderer = .current
    self.manifest = updated
  }

  /// Writes the re-rendered goldens and the manifest together, all or nothing (``SnapshotCommit``).
  package func apply() throws(SnapshotError) {
    try manifest.validate(path: (directory as NSString).appendingPathComponent(SnapshotManifest.fileName))
    for golden in goldens {
      _ = try ContainedPath.resolve(golden.file, in: directory, what: "golden", source: directory)
    }
    try SnapshotCommit(directory: directory, contents: goldens.map { ($0.file, $0.content) }, manifest: manifest)
      .apply()
  }
}
