import FlickMotion
import Foundation

extension Studio {
  /// The kinds of file `GET /api/files` lists, with their extensions (those templates accept
  /// for images and font files).
  enum AssetKind: String, CaseIterable {
    case image, font

    var extensions: Set<String> {
      switch self {
      case .image: ["png", "jpg", "jpeg", "webp", "svg"]
      case .font: ["ttf", "otf", "ttc"]
      }
    }
  }

  /// `GET /api/files?kind=image|font[&folder=REL]`: the files of that kind in the opened folder
  /// (or its subfolder `folder`, confined like every path), relative to the opened folder — what
  /// the parameters form offers for image and font parameters.
  func files(_ request: HTTPRequest) -> HTTPResponse {
    let names = AssetKind.allCases.map(\.rawValue)
    guard let text = request.argument("kind"), let kind = AssetKind(rawValue: text) else {
      return StudioResponse.error(400, "files needs kind=\(names.joined(separator: "|"))")
    }
    var root = workspace.folder
    if let folder = request.argument("folder") {
      switch workspace.resolve(folder) {
      case .failure(let refusal): return refusal.response
      case .success(let path):
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
          return StudioResponse.error(404, "\(quoted: folder) is not a folder")
        }
        root = path
      }
    }
    let list = workspace.files(extensions: kind.extensions, under: root)
    let folder = root == workspace.folder ? "" : workspace.relative(root)
    return StudioResponse.json(
      FilesBody(kind: kind.rawValue, folder: folder, files: list.names, truncated: !list.complete))
  }
}

/// `GET /api/files`.
struct FilesBody: Encodable {
  var kind: String
  var folder: String
  var files: [String]
  /// Whether files were left out: only the first ``StudioWorkspace/maximumTemplates`` found are listed.
  var truncated: Bool
}
