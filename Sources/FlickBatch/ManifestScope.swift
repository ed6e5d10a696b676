import FlickMotion
import FlickScene
import FlickTemplates
import FlickVideo
import Foundation

/// The folder a manifest is confined to, with the policy: every path the manifest names
/// (template, data, params, output) is resolved and checked here, with the rules templates use
/// for their assets (``FlickTemplates/TemplateContext/confine(_:from:)``: resolution component
/// by component following every symbolic link, the policy decided before existence so a
/// manifest cannot learn which files exist elsewhere), and every file it names is read here,
/// bounded and never quoted.
struct ManifestScope {
  /// The manifest's folder, as written (absolute, `.` and `..` removed, links kept: paths in the
  /// plan stay relative to it).
  let folder: String
  let policy: ManifestPolicy
  private let context: TemplateContext

  init(manifest file: String, policy: ManifestPolicy) {
    folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
    self.policy = policy
    context = TemplateContext(baseFolder: folder, allowOutsideAssets: policy.allowOutsideFolder)
  }

  /// The path `node` (a string in the manifest) names, resolved against the folder and checked
  /// against the policy.
  ///
  /// - Parameter what: What the path is, for the message ("template", "data file").
  /// - Returns: The absolute path as written (`.`/`..` removed, links kept) or, when `..` after a
  ///   link makes that lead elsewhere, the resolved path; whether something is there; and whether
  ///   it lies inside the folder (it may not only when the policy allows).
  /// - Throws: A located ``FlickTemplates/TemplateError`` when it leaves the folder.
  func path(_ node: TemplateNode, what: String) throws(TemplateError) -> (path: String, exists: Bool, inside: Bool) {
    let written = try node.string()
    switch context.confine(written) {
    case .success(let found):
      // The path as written reads better in plans, but `..` after a link means something else
      // lexically than to the kernel (`link/../x`): keep it only when it leads to the same place.
      let lexical = Manifest.resolve(written, in: folder)
      let same = (try? context.confine(lexical).get())?.path == found.path
      return (same ? lexical : found.path, found.exists, context.contains(found.path))
    case .failure(.outsideFolder(let resolved, _)):
      throw node.error(
        "\(quoted: what) \"\(quoted: written)\": '\(quoted: resolved)' is outside the manifest's folder (\(quoted: folder)); "
          + "pass --allow-outside-manifest to allow paths from anywhere")
    case .failure:
      throw node.error("the \(quoted: what) path cannot be empty")
    }
  }

  /// Reads the file `node` names (confined by ``path(_:what:)``): a regular file of at most
  /// ``ManifestLimits/dataBytes``, UTF-8. Messages name the file and never show its bytes.
  ///
  /// - Returns: The path, the text, and whether the file lies inside the folder.
  func read(_ node: TemplateNode, what: String) throws(TemplateError) -> (path: String, text: String, inside: Bool) {
    let (path, exists, inside) = try path(node, what: what)
    guard exists else { throw node.error("no such \(quoted: what) '\(quoted: path)'") }
    return (path, try Self.read(path, what: what, limit: policy.limits.dataBytes, at: node), inside)
  }

  /// The text of the regular file at `path`, refusing anything else (a folder, a FIFO or device
  /// that could block, a file over `limit` bytes, bytes that are not UTF-8) without quoting it.
  /// The file is opened without blocking and checked on the open descriptor, so what is read is
  /// what was checked.
  ///
  /// - Parameters:
  ///   - node: Where the manifest names it, or nil for the manifest itself.
  ///   - followingLinks: false for Flick's own state files in an output folder (stamps, run
  ///     reports): a symbolic link there is refused ("a symbolic link"), never read through.
  static func read(
    _ path: String, what: String, limit: Int, at node: TemplateNode?, followingLinks: Bool = true
  ) throws(TemplateError) -> String {
    func refuse(_ message: String) -> TemplateError {
      node.map { $0.error("\(quoted: what) '\(quoted: path)': \(escaped: message)") }
        ?? TemplateError(file: path, path: "", message: message)
    }
    let data: Data
    do {
      data = Data(try AssetFile.read(path, maximumBytes: limit, kind: what, followingLinks: followingLinks))
    } catch {
      switch error.cause {
      case .cannotOpen(errno: ENOENT): throw refuse("no such \(what) file")
      case .cannotOpen(errno: ELOOP) where !followingLinks:
        throw refuse("the \(what) is a symbolic link; Flick does not read through it")
      case .notRegular: throw refuse("not a regular file")
      case .tooLarge(let size): throw refuse("the \(what) is \(size) bytes, over the cap of \(limit) bytes")
      case .cannotOpen, .changed: throw refuse("cannot read the \(what)")
      }
    }
    guard let text = String(data: data, encoding: .utf8) else {
      guard let at = SourceText.firstInvalidUTF8(in: data) else {
        throw refuse("the \(quoted: what) is not UTF-8 text")
      }
      throw refuse("the \(what) is not UTF-8 text (from line \(at.line), column \(at.column))")
    }
    return text
  }

  /// Whether `path`, or any folder between `base` and it, is a symbolic link (only what exists is
  /// looked at; `path` must lie lexically inside `base`).
  ///
  /// - Returns: The first link, or nil.
  static func link(in path: String, below base: String) -> String? {
    guard path != base else { return nil }
    guard let inside = PathText.relative(path, to: base) else { return isLink(path) ? path : nil }
    var current = base
    for part in PathText.components(inside) {
      current += "/" + part
      var info = stat()
      guard lstat(current, &info) == 0 else { return nil }
      if (info.st_mode & S_IFMT) == S_IFLNK { return current }
    }
    return nil
  }

  private static func isLink(_ path: String) -> Bool {
    // `link/.` and `link/..` are looked at as `link` (OutputEntry.link), not through it.
    OutputEntry.link(in: path) != nil
  }
}
