import FlickMotion
internal import FlickRaster
import Foundation

/// What decoding needs besides the JSON itself: the folder assets resolve against and whether
/// an asset may come from outside it. Every ``TemplateNode`` of a document carries the same one.
package struct TemplateContext: Sendable {
  /// Absolute folder that relative asset paths resolve against (the template's folder).
  package var baseFolder: String
  /// Whether assets outside `baseFolder` are accepted (`--allow-outside-assets`).
  package var allowOutsideAssets: Bool
  /// The caps loading checks.
  var limits: TemplateLimits
  /// What a message about an asset outside ``baseFolder`` tells the user to do
  /// (``TemplateOptions/outsideRemedy``).
  var outsideRemedy = AssetProblem.allowOutsideRemedy
  /// Where resolved asset files are recorded, if anywhere (``AssetLog``).
  package var assetLog: AssetLog?
  /// The template's text, for messages about a place inside a string (``TemplateSource``).
  var source: TemplateSource?
  /// The template's font files (top-level `fonts`, `font` parameters), registered before a text
  /// layer without a `size` is measured (``Template/fitTextSize(_:_:)``).
  var fontFiles: [String] = []
  /// The font files this load has read (one per template load; nil outside one).
  var fontReads: TemplateFontFiles?

  package init(
    baseFolder: String = FileManager.default.currentDirectoryPath, allowOutsideAssets: Bool = false,
    limits: TemplateLimits = TemplateLimits()
  ) {
    self.baseFolder = Self.canonical(baseFolder)
    self.allowOutsideAssets = allowOutsideAssets
    self.limits = limits
  }

  /// `path` made absolute, with `.`/`..` removed and symbolic links resolved.
  static func canonical(_ path: String, relativeTo base: String? = nil) -> String {
    var url = URL(fileURLWithPath: path)
    if !path.hasPrefix("/"), let base { url = URL(fileURLWithPath: base).appendingPathComponent(path) }
    return url.standardizedFileURL.resolvingSymlinksInPath().path
  }

  /// Whether the canonical path `path` lies inside the base folder.
  package func contains(_ path: String) -> Bool {
    PathText.isInside(path, folder: baseFolder)
  }
}

/// The reasons an asset path is refused, so callers can word the message for their source.
package enum AssetProblem: Error, Equatable {
  case empty
  /// The path holds a NUL character: the file system would read it only up to there.
  case nulCharacter
  case outsideFolder(resolved: String, folder: String)
  case missing(resolved: String)
  case notAFile(resolved: String)

  /// What a message about an asset outside the folder tells the user to do when the command
  /// loading the template accepts `--allow-outside-assets` (``TemplateOptions/outsideRemedy``).
  package static let allowOutsideRemedy = "pass --allow-outside-assets to allow assets from anywhere"

  /// The message for a `kind` of file ("image") written as `written` in the template; `remedy`
  /// ends the message about a path outside the folder.
  package func message(kind: String, written: String, remedy: String = allowOutsideRemedy) -> String {
    switch self {
    case .empty:
      return "an \(quoted: kind) path cannot be empty"
    case .nulCharacter:
      return "\(quoted: kind) \"\(escaped: written)\": a path cannot contain a NUL character (\\u0000)"
    case .outsideFolder(let resolved, let folder):
      return "\(quoted: kind) \"\(quoted: written)\": '\(quoted: resolved)' is outside the template's folder "
        + "(\(quoted: folder)); "
        + remedy
    case .missing(let resolved): return "\(quoted: kind) \"\(quoted: written)\": no such file '\(quoted: resolved)'"
    case .notAFile(let resolved):
      return "\(quoted: kind) \"\(quoted: written)\": '\(quoted: resolved)' is a "
        + "folder, not a file"
    }
  }
}

extension TemplateContext {
  /// Resolves an asset path written in the template (relative to ``baseFolder``) and checks the
  /// policy and that the file exists.
  ///
  /// The policy is decided before existence, on the path with every symbolic link resolved
  /// (``resolve(_:)`` follows links even through components that do not exist), so a path
  /// outside the folder gets the same error whether or not anything is there: a template cannot
  /// use the messages to learn which files exist elsewhere on the machine.
  ///
  /// - Parameter folder: Where a relative `path` starts (default ``baseFolder``); the policy is
  ///   always about ``baseFolder``.
  /// - Returns: The canonical absolute path.
  package func resolveAsset(_ path: String, from folder: String? = nil) -> Result<String, AssetProblem> {
    let resolved: String, exists: Bool
    switch confine(path, from: folder) {
    case .success(let found): (resolved, exists) = found
    case .failure(let problem): return .failure(problem)
    }
    var isFolder: ObjCBool = false
    guard exists, FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder) else {
      return .failure(.missing(resolved: resolved))
    }
    guard !isFolder.boolValue else { return .failure(.notAFile(resolved: resolved)) }
    assetLog?.record(resolved)
    // Whoever reads the file later (a render of this compile, maybe long after) reads it only
    // while the confined path still leads to itself.
    FileResolution.bind(resolved)
    return .success(resolved)
  }

  /// `path` resolved as ``resolveAsset(_:from:)`` does (every symbolic link followed, component
  /// by component) and checked against the policy only: whether anything is there is returned,
  /// never used to decide, so the answer for a path outside the folder does not depend on what
  /// exists there. Used for paths that need not be files yet (output folders).
  ///
  /// - Returns: The canonical absolute path and whether it exists, or why it is refused.
  package func confine(
    _ path: String, from folder: String? = nil
  ) -> Result<(path: String, exists: Bool), AssetProblem> {
    guard !path.isEmpty else { return .failure(.empty) }
    // Checked in full, the path would be opened only up to the NUL: "img.png\u{0}.svg" read img.png.
    guard !path.utf8.contains(0), !(folder?.utf8.contains(0) ?? false) else { return .failure(.nulCharacter) }
    let start = folder.map { Self.canonical($0) } ?? baseFolder
    let (resolved, exists) = Self.resolve(path.hasPrefix("/") ? path : start + "/" + path)
    guard allowOutsideAssets || contains(resolved) else {
      return .failure(.outsideFolder(resolved: resolved, folder: baseFolder))
    }
    return .success((resolved, exists))
  }

  /// The most symbolic links followed while resolving one path (as the kernel's ELOOP limit).
  static let maximumSymlinks = 40

  /// The absolute `path` with `.`, `..` and every symbolic link resolved, component by component
  /// like `realpath(3)`, but carrying on lexically past the first component that does not exist
  /// (which then cannot be a link), and whether the whole path exists. A dangling link resolves
  /// to where it points. More than ``maximumSymlinks`` links count as not existing.
  static func resolve(_ path: String) -> (path: String, exists: Bool) {
    // Split at every "/" byte, as the kernel does: "/" and a combining mark after it are one
    // Character, which String's split would keep in one component ("../\u{301}x" is `..` then
    // `\u{301}x` to the kernel, one name to a Character split).
    var pending = PathText.components(path).reversed() as [String]
    var resolved: [String] = []
    var exists = true
    var links = 0
    while let component = pending.popLast() {
      if component == "." || component.isEmpty { continue }
      if component == ".." {
        if !resolved.isEmpty { resolved.removeLast() }
        continue
      }
      let candidate = "/" + (resolved + [component]).joined(separator: "/")
      guard exists else {
        resolved.append(component)
        continue
      }
      var info = stat()
      guard lstat(candidate, &info) == 0 else {
        exists = false
        resolved.append(component)
        continue
      }
      guard (info.st_mode & S_IFMT) == S_IFLNK else {
        resolved.append(component)
        continue
      }
      links += 1
      guard links <= maximumSymlinks, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate)
      else {
        exists = false
        resolved.append(component)
        continue
      }
      if target.hasPrefix("/") { resolved = [] }
      pending.append(contentsOf: PathText.components(target).reversed())
    }
    return ("/" + resolved.joined(separator: "/"), exists)
  }
}

/// A template's text as read, with its file name: what maps an offset inside a string's value
/// back to the line and column it is written at (escapes, `\`-continued lines). Shared by every
/// node of a document; used only for messages.
final class TemplateSource: Sendable {
  let file: String
  let text: String

  init(file: String, text: String) {
    self.file = file
    self.text = text
  }
}
