import FlickMotion
import FlickScene

extension Template {
  /// Decodes one layer object (and its sublayers), registering every id in `ids`.
  static func decodeLayer(_ node: TemplateNode, ids: inout Set<String>) throws(TemplateError) -> Layer {
    let o = try node.object(allowed: [
      "id", "size", "position", "anchorPoint", "opacity", "backgroundColor", "cornerRadius", "sublayers",
    ])
    guard let idNode = o["id"] else { throw node.error("a layer needs an 'id'") }
    let id = try idNode.string()
    guard !id.isEmpty else { throw idNode.error("a layer id cannot be empty") }
    guard ids.insert(id).inserted else { throw idNode.error("duplicate layer id '\(id)'") }
    var layer = Layer(id: id)
    if let n = o["size"] { layer.bounds = Rect(origin: .zero, size: try n.size()) }
    if let n = o["position"] { layer.position = try n.point() }
    if let n = o["anchorPoint"] { layer.anchorPoint = try n.point() }
    if let n = o["opacity"] { layer.opacity = try n.double(in: 0...1) }
    if let n = o["backgroundColor"] { layer.backgroundColor = try n.color() }
    if let n = o["cornerRadius"] { layer.cornerRadius = try n.double(in: 0...100_000) }
    for child in try o["sublayers"]?.array() ?? [] {
      layer.sublayers.append(try decodeLayer(child, ids: &ids))
    }
    return layer
  }
}
