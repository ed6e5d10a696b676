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
}
