import FlickMotion
import FlickScene
import FlickTemplates
import FlickVideo
import Foundation

/// The opened folder and what of it the studio may read: every path a request names is
/// relative to it and confined to it by the template rules (``FlickTemplates/TemplateContext``).
package struct StudioWorkspace: Sendable {
  /// The opened folder, canonical (symbolic links resolved).
  package let folder: String
  /// The templates given on the command line (relative names), or nil for every template of the folder.
  package let explicit: [String]?
  let context: TemplateContext

  /// The most templates listed, and the deepest subfolder searched.
  static let maximumTemplates = 2_000
  static let maximumDepth = 8
  /// What a refusal of a path outside the folder says: the studio has no `--allow-outside-assets`.
  static let outsideRemedy = "the studio serves only files inside the opened folder"

  /// Opens `folder`; `templates` (relative names) restrict the list.
  package init(folder: String, templates: [String]? = nil) {
    context = TemplateContext(baseFolder: folder)
    self.folder = context.baseFolder
    explicit = templates
  }

  /// Why a requested path is refused.
  package enum Refusal: Error, Equatable {
    /// 403: absolute, `..`, NUL, or resolving outside the folder.
    case forbidden(String)
    /// 404: not there.
    case missing(String)
    /// 409: a write refused for what is there (a symbolic link).
    case conflict(String)

    var response: HTTPResponse {
      switch self {
      case .forbidden(let message): StudioResponse.error(403, message)
      case .missing(let message): StudioResponse.error(404, message)
      case .conflict(let message): StudioResponse.error(409, message)
      }
    }
  }

  /// `relative` (percent-decoded already) as a canonical absolute path inside the folder.
  ///
  /// Refused (403) when it is empty, absolute, contains NUL or a `..` component, or resolves
  /// (every symbolic link followed) outside the folder; 404 when it does not exist (only when
  /// `mustExist`).
  package func resolve(_ relative: String, mustExist: Bool = true) -> Result<String, Refusal> {
    guard !relative.isEmpty else { return .failure(.forbidden("an empty path")) }
    guard !relative.unicodeScalars.contains("\0") else { return .failure(.forbidden("a path with a NUL character")) }
    guard !relative.hasPrefix("/") && !relative.hasPrefix("\\") else {
      return .failure(.forbidden("\(quoted: relative) is absolute; paths are relative to the opened folder"))
    }
    // Split at the scalars, not Characters: "/" and a combining mark after it are one Character.
    let components = relative.unicodeScalars.split(whereSeparator: { $0 == "/" || $0 == "\\" })
    guard !components.contains(where: { String($0) == ".." }) else {
      return .failure(.forbidden("\(quoted: relative) leaves the opened folder (..)"))
    }
    switch context.confine(relative) {
    case .failure(let problem):
      return .failure(.forbidden(problem.message(kind: "path", written: relative, remedy: Self.outsideRemedy)))
    case .success(let found):
      guard found.exists || !mustExist else { return .failure(.missing("no file \(quoted: relative)")) }
      return .success(found.path)
    }
  }

  /// Where a write to `relative` goes: the entry itself, never followed.
  ///
  /// `relative` is checked and confined as ``resolve(_:mustExist:)`` checks a path (so a link
  /// out of the folder is 403), its folder is resolved (links inside the folder followed), and
  /// the entry it names (without trailing slashes) is returned as it is, not resolved: when that
  /// entry is a symbolic link the write is refused (409), since writing there would write
  /// wherever the link leads (a checkout's `out.mp4 -> .git/config`). `.` names the folder.
  package func destination(_ relative: String) -> Result<String, Refusal> {
    if case .failure(let refusal) = resolve(relative, mustExist: false) { return .failure(refusal) }
    // The last "/" byte, not Character: "/" and a combining mark after it are one Character.
    let entry = Array(OutputEntry.entry(relative).utf8)
    let slash = entry.lastIndex(of: UInt8(ascii: "/"))
    let name = String(decoding: slash.map { entry[($0 + 1)...] } ?? entry[...], as: UTF8.self)
    var parent = folder
    if let slash {
      switch resolve(String(decoding: entry[..<slash], as: UTF8.self), mustExist: false) {
      case .failure(let refusal): return .failure(refusal)
      case .success(let path): parent = path
      }
    }
    if name == "." || name.isEmpty { return .success(parent) }
    let path = parent + "/" + name
    guard !OutputEntry.isLink(path) else {
      return .failure(
        .conflict(
          "\(quoted: relative) is a symbolic link; the studio never writes through one (remove it, or choose another name)"
        ))
    }
    return .success(path)
  }

  /// `absolute` relative to the folder (for names in answers).
  package func relative(_ absolute: String) -> String {
    PathText.relative(absolute, to: folder).flatMap { $0.isEmpty ? nil : $0 } ?? absolute
  }

  /// The templates: the explicit ones, or every `.json5` file with a `flick` member under the
  /// folder (hidden folders skipped), sorted by name.
  package func templates() -> [(name: String, title: String)] {
    let names = explicit ?? scan()
    return names.sorted().map { name in (name, title(of: folder + "/" + name) ?? name) }
  }

  /// The folder `root` (default: the opened folder) and its subfolders, hidden ones and
  /// `node_modules` skipped, at most ``maximumDepth`` deep and one more than
  /// ``FileWatcher/maximumFolders`` in all (the watcher warns when it leaves one unwatched): what
  /// the studio watches, so a file added anywhere in the folder is seen.
  package func folders(under root: String? = nil) -> Set<String> {
    var found: Set<String> = []
    var pending: [(String, Int)] = [(root ?? folder, 0)]
    let files = FileManager.default
    while let (here, depth) = pending.popLast(), found.count <= FileWatcher.maximumFolders {
      found.insert(here)
      guard depth < Self.maximumDepth, let entries = try? files.contentsOfDirectory(atPath: here) else { continue }
      for entry in entries.sorted() where !entry.hasPrefix(".") && entry != "node_modules" {
        let path = here + "/" + entry
        var isFolder: ObjCBool = false
        // Symbolic links are not followed: a link may lead out of the folder.
        guard (try? files.destinationOfSymbolicLink(atPath: path)) == nil,
          files.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
        else { continue }
        pending.append((path, depth + 1))
      }
    }
    return found
  }

  /// The files under `root` (an absolute folder inside the opened folder) whose extension is
  /// one of `extensions` (lower case), relative to the opened folder and sorted: hidden files
  /// and folders skipped, folders reached through symbolic links not entered, and a file listed
  /// only when it resolves inside the opened folder (a link to a file elsewhere is not).
  ///
  /// At most ``maximumTemplates`` files, counted as each is found (each folder's entries in name
  /// order): `complete` is false when more were left out. One folder of 60,000 pictures was listed
  /// whole, every entry resolved, before the cap was checked again between folders.
  package func files(extensions: Set<String>, under root: String) -> (names: [String], complete: Bool) {
    var found: [String] = []
    var pending: [(String, Int)] = [(root, 0)]
    let manager = FileManager.default
    while let (here, depth) = pending.popLast() {
      guard let entries = try? manager.contentsOfDirectory(atPath: here) else { continue }
      for entry in entries.sorted() where !entry.hasPrefix(".") && entry != "node_modules" {
        let path = here + "/" + entry
        let isLink = (try? manager.destinationOfSymbolicLink(atPath: path)) != nil
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
        if isFolder.boolValue {
          if !isLink && depth < Self.maximumDepth { pending.append((path, depth + 1)) }
          continue
        }
        guard extensions.contains((entry as NSString).pathExtension.lowercased()) else { continue }
        guard found.count < Self.maximumTemplates else { return (found.sorted(), false) }
        let rel = relative(path)
        guard case .success = resolve(rel) else { continue }
        found.append(rel)
      }
    }
    return (found.sorted(), true)
  }

  /// The templates under the opened folder: its `.json5` files (found as ``files(extensions:under:)``
  /// finds them: folders reached through symbolic links are not entered, so a link loop costs
  /// nothing) that are templates.
  private func scan() -> [String] {
    files(extensions: ["json5"], under: folder).names.filter { title(of: folder + "/" + $0) != nil }
  }

  /// The template's `name` (its file name without extension when it has none or does not
  /// parse: a template being edited stays listed), or nil when the file is JSON5 without a
  /// `flick` member (a params file, a Lottie file).
  private func title(of path: String) -> String? {
    let fallback = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    // The size first, on the open file (the bounded reader): a 2 GiB file was read whole before
    // it was found too large.
    guard let bytes = try? AssetFile.read(path, maximumBytes: 4 << 20, kind: "a listed template"),
      let text = String(bytes: bytes, encoding: .utf8), let root = try? JSON5Parser.parse(text)
    else { return fallback }
    guard case .object(let members) = root.kind, members.contains(where: { $0.key == "flick" }) else { return nil }
    if let name = members.first(where: { $0.key == "name" }), case .string(let s) = name.value.kind { return s }
    return fallback
  }
}
