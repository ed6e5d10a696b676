import Foundation

/// What decoding needs besides the JSON itself: the folder assets resolve against and whether
/// an asset may come from outside it. Every ``TemplateNode`` of a document carries the same one.
struct TemplateContext: Sendable {
  /// Absolute folder that relative asset paths resolve against (the template's folder).
  var baseFolder: String
  /// Whether assets outside `baseFolder` are accepted (`--allow-outside-assets`).
  var allowOutsideAssets: Bool

  init(baseFolder: String = FileManager.default.currentDirectoryPath, allowOutsideAssets: Bool = false) {
    self.baseFolder = Self.canonical(baseFolder)
    self.allowOutsideAssets = allowOutsideAssets
  }

  /// `path` made absolute, with `.`/`..` removed and symbolic links resolved.
  static func canonical(_ path: String, relativeTo base: String? = nil) -> String {
    var url = URL(fileURLWithPath: path)
    if !path.hasPrefix("/"), let base { url = URL(fileURLWithPath: base).appendingPathComponent(path) }
    return url.standardizedFileURL.resolvingSymlinksInPath().path
  }

  /// Whether the canonical path `path` lies inside the base folder.
  func contains(_ path: String) -> Bool {
    let base = baseFolder.hasSuffix("/") ? baseFolder : baseFolder + "/"
    return path == baseFolder || path.hasPrefix(base)
  }
}

/// The reasons an asset path is refused, so callers can word the message for their source.
enum AssetProblem: Error, Equatable {
  case empty
  case outsideFolder(resolved: String, folder: String)
  case missing(resolved: String)
  case notAFile(resolved: String)

  /// The message for a `kind` of file ("image") written as `written` in the template.
  func message(kind: String, written: String) -> String {
    switch self {
    case .empty:
      return "an \(kind) path cannot be empty"
    case .outsideFolder(let resolved, let folder):
      return "\(kind) \"\(written)\": '\(resolved)' is outside the template's folder (\(folder)); "
        + "pass --allow-outside-assets to allow assets from anywhere"
    case .missing(let resolved): return "\(kind) \"\(written)\": no such file '\(resolved)'"
    case .notAFile(let resolved): return "\(kind) \"\(written)\": '\(resolved)' is a folder, not a file"
    }
  }
}

extension TemplateContext {
  /// Resolves an asset path written in the template (relative to ``baseFolder``) and checks the
  /// policy and that the file exists.
  ///
  /// - Returns: The canonical absolute path.
  func resolveAsset(_ path: String) -> Result<String, AssetProblem> {
    guard !path.isEmpty else { return .failure(.empty) }
    let resolved = Self.canonical(path, relativeTo: baseFolder)
    guard allowOutsideAssets || contains(resolved) else {
      return .failure(.outsideFolder(resolved: resolved, folder: baseFolder))
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder) else {
      return .failure(.missing(resolved: resolved))
    }
    guard !isFolder.boolValue else { return .failure(.notAFile(resolved: resolved)) }
    return .success(resolved)
  }
}
