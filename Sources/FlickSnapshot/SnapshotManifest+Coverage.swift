import FlickMotion
import FlickRaster
import Foundation

extension SnapshotManifest {
  /// What every golden of a manifest is drawn from, beyond its time: the template (name and
  /// hash), the parameters, the stored inputs, the scale and the frame size. The names of the
  /// ones that differ between `previous` and this manifest, in that order.
  package func designDifferences(from previous: SnapshotManifest) -> [String] {
    var out: [String] = []
    if template != previous.template || templateHash != previous.templateHash { out.append("template") }
    if parameters != previous.parameters || parameterHash != previous.parameterHash { out.append("parameters") }
    if inputs != previous.inputs { out.append("stored inputs") }
    if scale != previous.scale || width != previous.width || height != previous.height { out.append("scale or size") }
    return out
  }

  /// Checks that this manifest, about to replace `previous`, describes every golden it lists.
  ///
  /// A manifest says what all its goldens were drawn from (template, parameters, stored inputs,
  /// scale, renderer), so those change only when every golden it lists came from the new ones in
  /// this run: rewritten (`rewritten`), or, with the same renderer, verified to match the new
  /// design exactly as it stands (`matched`). A golden the run did not cover keeps the old design
  /// while the manifest would name the new one: after a renderer change verify re-renders the new
  /// stored inputs and the old golden would pass unseen.
  ///
  /// - Parameters:
  ///   - previous: The goldens' manifest before, or nil when there was none.
  ///   - rewritten: The files written by this run or acceptance.
  ///   - matched: The files this run verified to match (exactly as the new design draws them).
  ///   - path: The manifest's path, for the message.
  ///   - advice: What to do instead, the sentence the message ends with.
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` naming what changed and the goldens
  ///   not covered.
  package func checkCovers(
    previous: SnapshotManifest?, rewritten: Set<String>, matched: Set<String>, path: String, advice: String
  ) throws(SnapshotError) {
    guard let previous else { return }
    var changes = designDifferences(from: previous)
    let rendererChanged = renderer != previous.renderer
    if rendererChanged { changes.append("renderer") }
    guard !changes.isEmpty else { return }
    // A golden that matched across a renderer change still carries the old renderer's chunk.
    let uncovered = frames.map(\.file).filter {
      !rewritten.contains($0) && (rendererChanged || !matched.contains($0))
    }
    guard !uncovered.isEmpty else { return }
    throw .invalidManifest(
      path: path,
      reason: "the \(quoted: changes.joined(separator: ", ")) changed since the goldens were recorded, but "
        + "\(MessageText.list(uncovered)) would stay as recorded from the old one while the manifest names the "
        + "new one (after a renderer change verify would re-render the new inputs and pass them unseen); "
        + "\(quoted: advice); nothing was changed")
  }
}
