import FlickRaster
import FlickScene
import FlickTemplates
import Foundation

extension SnapshotInputs {
  /// Loads the goldens' stored inputs to render them with this process's renderer: what the
  /// goldens would hold had they been recorded here.
  ///
  /// The stored files are written into a fresh temporary folder (each checked against its
  /// SHA-256) and loaded from there; the folder stays while the returned ``StoredRendering``
  /// lives, which draws each frame when asked (so a caller holds only the frames it is using).
  ///
  /// - Parameters:
  ///   - goldens: The goldens folder (holding `inputs/`).
  ///   - times: The times to render, resolved against the stored template.
  ///   - scale: Pixels per point.
  ///   - allowOutsideAssets: Whether the stored template may read assets outside its stored files:
  ///     the command line's `--allow-outside-assets`, never what the manifest records.
  ///   - tracking: Told of the temporary folder before it is made and after it is removed, so an
  ///     interruption (SIGINT, SIGTERM…) removes it too (the command line passes its cleanup
  ///     registry, `Cleanup`).
  ///   - refusal: Asked once the stored template has loaded, before the first frame is drawn:
  ///     why its scene must not be drawn `times.count` times at `scale` (the command's frame,
  ///     work and memory caps), or nil when it may. The stored template is the goldens', not
  ///     the one the command was given, so its canvas may be larger.
  /// - Returns: What draws one frame (or why it could not be rendered) per time, in order.
  /// - Throws: ``SnapshotError/damagedInput(path:reason:)`` when a stored file is missing or
  ///   altered, ``SnapshotError/renderFailed(_:)`` when the stored template does not load,
  ///   ``SnapshotError/invalidManifest(path:reason:)`` with the reason `refusal` gives.
  package func rerender(
    from goldens: String, at times: [SnapshotTime], scale: Double, allowOutsideAssets: Bool = false,
    limits: TemplateLimits = TemplateLimits(), tracking: TemporaryFolderTracking = .none,
    refusal: (_ scene: Scene, _ scale: Double, _ frames: Int) -> String? = { _, _, _ in nil }
  ) throws(SnapshotError) -> StoredRendering {
    let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("flick-inputs-\(UUID().uuidString)")
    // Registered before it exists: an interruption at any point removes it.
    tracking.add(root)
    let folder = TrackedFolder(path: root, tracking: tracking)
    try AtomicFile.makeDirectory(root)
    let (templateFile, parameterFiles) = try materialize(from: goldens, into: root)
    let template: Template
    do {
      template = try load(
        template: templateFile, parameterFiles: parameterFiles, allowOutsideAssets: allowOutsideAssets, limits: limits)
    } catch {
      throw .renderFailed("the goldens' stored inputs do not load: \(escaped: error.description)")
    }
    let scene = template.scene
    if let reason = refusal(scene, scale, times.count) {
      throw .invalidManifest(
        path: (goldens as NSString).appendingPathComponent(SnapshotManifest.fileName), reason: reason)
    }
    return StoredRendering(scene: scene, scale: scale, times: times, folder: folder)
  }
}
