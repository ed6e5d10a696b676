import FlickMotion
import Foundation

extension SnapshotManifest {
  /// Reads the manifest of a goldens folder that `flick verify` checks against: nil only when
  /// the folder holds no golden file at all (it does not exist, is empty, or holds other files
  /// only), so that goldens can be recorded into it.
  ///
  /// A goldens folder may come from someone else's pull request, and the manifest is what makes
  /// verify strict: the times and scale to render, the stored inputs to re-render on another
  /// renderer, the motion golden to check, the files that are `unlisted`. Deleting it must not
  /// turn those checks off, so goldens without one are refused.
  ///
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` when the folder holds a golden PNG
  ///   (any case, hidden ones too), `motion.txt` or `inputs` but no `manifest.json`, or when the
  ///   manifest does not read (``read(from:)``).
  package static func readGoldens(from directory: String) throws(SnapshotError) -> SnapshotManifest? {
    if let manifest = try read(from: directory) { return manifest }
    let found = goldenFiles(in: directory)
    guard !found.isEmpty else { return nil }
    let shown = found.prefix(3).map { "'\(quoted: $0)'" }.joined(separator: ", ") + (found.count > 3 ? ", …" : "")
    throw .invalidManifest(
      path: (directory as NSString).appendingPathComponent(fileName),
      reason:
        "missing, but \(quoted: directory) holds goldens (\(escaped: shown)): without their manifest nothing says "
        + "which times, scale, renderer, stored inputs and motion golden they were recorded with, so they "
        + "cannot be verified; record them again with 'flick snapshot TEMPLATE --out DIR' (or restore "
        + "manifest.json)")
  }

  /// The names in `directory` that only a goldens folder holds: PNG files (any case of `.png`,
  /// hidden ones included), the motion golden and the stored inputs' folder; sorted.
  package static func goldenFiles(in directory: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter {
      let name = $0.lowercased()
      return name.hasSuffix(".png") || name == MotionGolden.fileName || name == SnapshotInputs.folder
    }.sorted()
  }
}
