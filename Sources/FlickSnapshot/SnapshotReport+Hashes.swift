import Foundation

extension SnapshotReport {
  /// The SHA-256 of the artefacts of `verdict` that `flick accept` takes (`actual`, `motion`; `rerendered` for `accept --renderer`),
  /// read back as they are in the report folder; nil when it has none.
  static func acceptedHashes(_ verdict: FrameVerdict) -> [String: String]? {
    var out: [String: String] = [:]
    for kind in ["actual", "motion", "rerendered"] {
      guard let path = verdict.artifacts[kind], let data = FileManager.default.contents(atPath: path) else { continue }
      out[kind] = SnapshotManifest.hash(data)
    }
    return out.isEmpty ? nil : out
  }
}
