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
  static func load() -> StudioPage {
    var files: [String: Data] = [:]
    guard let folder = pageFolder() else { return StudioPage(files: files) }
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

  /// The `Page` folder of the resource bundle `Flick_FlickStudio.resources`: beside the running
  /// executable (`swift build`, an installed copy of the build folder), else SwiftPM's own look-up.
  private static func pageFolder() -> String? {
    let bundleName = "Flick_FlickStudio.resources"
    var candidates: [String] = []
    if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
      let folder = executable.deletingLastPathComponent()
      candidates.append(folder.appendingPathComponent(bundleName).path)
      candidates.append(folder.deletingLastPathComponent().appendingPathComponent(bundleName).path)
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName).path)
    for candidate in candidates {
      let page = candidate + "/Page"
      if FileManager.default.fileExists(atPath: page) { return page }
    }
    return nil
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
