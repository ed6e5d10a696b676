import Foundation

/// The page's own files (`Sources/FlickStudio/Page/`, copied into the FlickStudio resource
/// bundle at build time), read once at start: only these names are ever served.
struct StudioPage: Sendable {
  /// File contents by name relative to `Page/` (`index.html`, `app.js`, `icons/x.svg`).
  let files: [String: Data]

  /// The Content-Security-Policy of the page.
  static let contentSecurityPolicy =
    "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'"

  /// Reads the bundled `Page` folder (beside the executable, or where SwiftPM built it).
  ///
  /// - Throws: ``StudioError/pageMissing(searched:)`` naming the folders looked in when none has
  ///   the page (`index.html`): a `flick` copied without its resource folder would serve
  ///   nothing but 404s.
  static func load() throws(StudioError) -> StudioPage {
    var files: [String: Data] = [:]
    let candidates = pageCandidates()
    guard let folder = candidates.first(where: { FileManager.default.fileExists(atPath: $0 + "/" + indexName) }) else {
      throw .pageMissing(searched: candidates)
    }
    let manager = FileManager.default
    if let walker = manager.enumerator(atPath: folder) {
      while let name = walker.nextObject() as? String {
        var isFolder: ObjCBool = false
        let path = folder + "/" + name
        guard manager.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
          !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
          let data = manager.contents(atPath: path)
        else { continue }
        files[name] = data
      }
    }
    return StudioPage(files: files)
  }

  /// The resource bundle SwiftPM builds beside `flick`, which holds `Page/`.
  static let bundleName = "Flick_FlickStudio.resources"

  /// The page's entry, which a `Page` folder must hold.
  static let indexName = "index.html"

  /// The `Page` folders of the resource bundle ``bundleName`` that are looked in, in order:
  /// beside the running executable (`swift build`, an installed copy of the build folder), in
  /// its parent folder, else SwiftPM's own look-up.
  static func pageCandidates() -> [String] {
    var bundles: [String] = []
    if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
      let folder = executable.deletingLastPathComponent()
      bundles.append(folder.appendingPathComponent(bundleName).path)
      bundles.append(folder.deletingLastPathComponent().appendingPathComponent(bundleName).path)
    }
    bundles.append(Bundle.main.bundleURL.appendingPathComponent(bundleName).path)
    var seen: Set<String> = []
    return bundles.map { $0 + "/Page" }.filter { seen.insert($0).inserted }
  }

  /// The MIME type for a file name.
  static func contentType(_ name: String) -> String {
    switch URL(fileURLWithPath: name).pathExtension.lowercased() {
    case "html": "text/html; charset=utf-8"
    case "js", "mjs": "text/javascript; charset=utf-8"
    case "css": "text/css; charset=utf-8"
    case "svg": "image/svg+xml"
    case "png": "image/png"
    case "jpg", "jpeg": "image/jpeg"
    case "webp": "image/webp"
    case "json": "application/json"
    case "woff2": "font/woff2"
    case "ico": "image/x-icon"
    default: "application/octet-stream"
    }
  }
}
