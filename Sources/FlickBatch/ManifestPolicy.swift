/// What a manifest may reach: by default only files inside its own folder. A manifest may come
/// from someone else's pull request, so widening this is the operator's decision, taken on the
/// command line (`--allow-outside-manifest`, `--allow-outside-assets`), never in the manifest.
package struct ManifestPolicy: Sendable, Equatable {
  /// Accept template, data, params and output paths outside the manifest's folder
  /// (`--allow-outside-manifest`).
  package var allowOutsideFolder: Bool
  /// Honour a render's `allowOutsideAssets: true` (`--allow-outside-assets`); without it such a
  /// render is refused.
  package var allowOutsideAssets: Bool
  /// The size caps.
  package var limits: ManifestLimits

  package init(
    allowOutsideFolder: Bool = false, allowOutsideAssets: Bool = false, limits: ManifestLimits = ManifestLimits()
  ) {
    self.allowOutsideFolder = allowOutsideFolder
    self.allowOutsideAssets = allowOutsideAssets
    self.limits = limits
  }
}
