import FlickMotion

/// The files a template load resolved (images, fonts, Lottie and SVG files), in first-use order:
/// what `flick snapshot` stores beside its goldens so they can be rendered again later.
///
/// Pass one in ``TemplateOptions/assetLog``; every asset path the template names goes through
/// ``TemplateContext/resolveAsset(_:from:)``, which records the canonical absolute path here.
/// Shared by reference (loads may resolve from several threads); equal only to itself.
package final class AssetLog: Sendable, Equatable {
  private let files = Locked<[String]>([])

  package init() {}

  /// The canonical absolute paths resolved so far, each once, in first-use order.
  package var paths: [String] { files.withLock { $0 } }

  /// Records `path` (canonical, absolute) unless it is already there.
  package func record(_ path: String) {
    files.withLock { list in if !list.contains(path) { list.append(path) } }
  }

  package static func == (a: AssetLog, b: AssetLog) -> Bool { a === b }
}
