import FlickMotion

/// Where something was written in a template file: what a message about it after loading (a
/// font that is not installed, a picture that does not decode, a layer that failed to draw)
/// needs to read `FILE:LINE:COL: json.path: message`.
package struct SourceSite: Sendable, Equatable {
  /// The template file, as given.
  package var file: String
  /// The JSON path (`layers[2].sublayers[0].fontFamily`).
  package var path: String
  /// 1-based line and column.
  package var line: Int
  package var column: Int

  init(_ node: TemplateNode) {
    file = node.file
    path = node.path
    line = node.value.line
    column = node.value.column
  }

  /// A template error at this site.
  package func error(_ message: String) -> TemplateError {
    TemplateError(file: file, path: path, line: line, column: column, message: message)
  }
}

/// Where a layer, and the members that need files or fonts to draw, were written.
package struct LayerSite: Sendable, Equatable {
  /// The layer object.
  package var layer: SourceSite
  /// `fontFamily`, `contents`, `source` and `transform`, when the layer (or a style it takes, or
  /// the component it comes from) wrote them.
  package var members: [String: SourceSite] = [:]

  /// The site of member `key`, or the layer's when it has none of its own.
  package func site(_ key: String) -> SourceSite { members[key] ?? layer }
}

extension Template {
  /// The members a ``LayerSite`` keeps.
  static let sitedMembers: Set<String> = ["fontFamily", "contents", "source", "transform"]

  /// The site of every layer in `layers` (the decoded array, after components and styles),
  /// sublayers and masks included, by id. Decoding has already checked ids, depth and kinds.
  static func layerSites(_ layers: TemplateNode) -> [String: LayerSite] {
    var out: [String: LayerSite] = [:]
    var stack = (try? layers.array()) ?? []
    while let node = stack.popLast() {
      guard case .object(let members) = node.value.kind else { continue }
      var site = LayerSite(layer: SourceSite(node))
      var id: String?
      for member in members {
        let child = node.child(member.key, member.value)
        switch member.key {
        case "id": if case .string(let s) = member.value.kind { id = s }
        case "sublayers": stack += (try? child.array()) ?? []
        case "mask": stack.append(child)
        case let key where sitedMembers.contains(key): site.members[key] = SourceSite(child)
        default: break
        }
      }
      if let id { out[id] = site }
    }
    return out
  }
}
