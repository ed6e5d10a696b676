import FlickMotion
import FlickScene
import Foundation

/// A decoded, validated template: metadata and the ``Scene`` it describes.
///
/// Format version 1 (`"flick": 1`) is documented in `docs/templates.md`.
public struct Template: Sendable {
  /// The format version this build reads.
  public static let formatVersion = 1

  /// Short name (defaults to the file name without extension).
  public var name: String
  /// One-line description for `flick templates` and `flick info`.
  public var description: String
  /// The scene, ready to render.
  public var scene: Scene

  /// Reads and decodes the template at `path`.
  ///
  /// - Throws: ``TemplateError`` naming the file, the JSON path, the line and column.
  public static func load(path: String) throws(TemplateError) -> Template {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
      throw TemplateError(file: path, path: "", message: reason)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw TemplateError(file: path, path: "", message: "the file is not UTF-8 text")
    }
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return try decode(text, file: path, defaultName: name)
  }

  /// Decodes a template from JSON5 text; `file` is used in error messages only.
  public static func decode(_ text: String, file: String = "", defaultName: String = "template")
    throws(TemplateError) -> Template
  {
    let root: JSON5Value
    do {
      root = try JSON5Parser.parse(text)
    } catch {
      throw TemplateError(file: file, path: "", line: error.line, column: error.column, message: error.message)
    }
    let doc = TemplateNode(value: root, path: "", file: file)
    let o = try doc.object(allowed: ["flick", "name", "description", "canvas", "layers", "timeline"])
    guard let version = o["flick"] else {
      throw doc.error("missing the format version: add \"flick\": \(formatVersion) at the top level")
    }
    let v = try version.int(in: 1...Int.max)
    guard v == formatVersion else {
      throw version.error("format version \(v) is newer than this Flick reads (\(formatVersion)); upgrade Flick")
    }
    guard let canvasNode = o["canvas"] else { throw doc.error("missing 'canvas'") }
    var scene = try decodeCanvas(canvasNode)
    var ids = Set<String>()
    for node in try o["layers"]?.array() ?? [] {
      scene.layers.append(try decodeLayer(node, ids: &ids))
    }
    for node in try o["timeline"]?.array() ?? [] {
      scene.animations.append(try decodeAction(node, ids: ids, scene: scene))
    }
    return Template(
      name: try o["name"]?.string() ?? defaultName,
      description: try o["description"]?.string() ?? "",
      scene: scene)
  }

  // MARK: - Sections

  private static func decodeCanvas(_ node: TemplateNode) throws(TemplateError) -> Scene {
    let o = try node.object(allowed: ["width", "height", "fps", "duration", "background"])
    func required(_ key: String) throws(TemplateError) -> TemplateNode {
      guard let n = o[key] else { throw node.error("missing '\(key)'") }
      return n
    }
    let width = try required("width").int(in: 1...16384)
    let height = try required("height").int(in: 1...16384)
    let fps = try o["fps"]?.int(in: 1...240) ?? 60
    let duration = try required("duration").double(in: 0.001...3600)
    let background = try o["background"]?.color() ?? .white
    return Scene(
      size: Size(width: Double(width), height: Double(height)), fps: fps, duration: duration,
      backgroundColor: background)
  }

  private static func decodeLayer(_ node: TemplateNode, ids: inout Set<String>) throws(TemplateError) -> Layer {
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

  /// Decodes one timeline entry; `scene` holds the animations before it, which give the start
  /// value when 'from' is omitted (the value the property has when the animation begins).
  private static func decodeAction(_ node: TemplateNode, ids: Set<String>, scene: Scene) throws(TemplateError)
    -> LayerAnimation
  {
    let o = try node.object(allowed: ["target", "property", "from", "to", "at", "duration", "curve"])
    guard let targetNode = o["target"] else { throw node.error("an animation needs a 'target' layer id") }
    let target = try targetNode.string()
    guard ids.contains(target) else {
      var message = "no layer with id '\(target)'"
      if let guess = TemplateNode.closest(to: target, in: Array(ids).sorted()) { message += "; did you mean '\(guess)'?" }
      throw targetNode.error(message)
    }
    guard let propertyNode = o["property"] else { throw node.error("an animation needs a 'property'") }
    guard let toNode = o["to"] else { throw node.error("an animation needs a 'to' value") }
    let at = try o["at"]?.double(in: 0...3600) ?? 0
    let duration = try o["duration"]?.double(in: 0...3600) ?? 0.4
    let curve = try o["curve"].map { n throws(TemplateError) in try decodeCurve(n) } ?? .default
    let context = TweenContext(scene: scene, target: target, from: o["from"], to: toNode, at: at, duration: duration, curve: curve)
    switch try propertyNode.string(oneOf: ["position", "opacity", "backgroundColor", "cornerRadius"]) {
    case "position":
      return try context.tween(.position) { n throws(TemplateError) in try n.point() }
    case "opacity":
      return try context.tween(.opacity) { n throws(TemplateError) in try n.double(in: 0...1) }
    case "cornerRadius":
      return try context.tween(.cornerRadius) { n throws(TemplateError) in try n.double(in: 0...100_000) }
    default:
      return try context.tween(.backgroundColor) { n throws(TemplateError) in try n.color() }
    }
  }

  private static func decodeCurve(_ node: TemplateNode) throws(TemplateError) -> TimingFunction {
    if case .array = node.value.kind {
      let v = try node.numbers(count: 4)
      guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
        throw node.error("a cubic-bezier curve needs x1 and x2 in 0…1, found \(v[0]) and \(v[2])")
      }
      return TimingFunction(v[0], v[1], v[2], v[3])
    }
    let name = try node.string(oneOf: TimingFunction.named.keys.sorted())
    return TimingFunction.named[name] ?? .default
  }
}

/// The parts of a timeline entry that every property's tween needs.
private struct TweenContext {
  let scene: Scene
  let target: String
  let from: TemplateNode?
  let to: TemplateNode
  let at: Double
  let duration: Double
  let curve: TimingFunction

  func tween<V>(_ property: LayerProperty<V>, _ decode: (TemplateNode) throws(TemplateError) -> V)
    throws(TemplateError) -> LayerAnimation
  {
    let toValue = try decode(to)
    let fromValue: V
    if let from {
      fromValue = try decode(from)
    } else {
      fromValue = scene.renderTree(at: at).layer(id: target).map(property.read) ?? toValue
    }
    return LayerAnimation(
      layerID: target, property: property,
      tween: BasicAnimation(from: fromValue, to: toValue, duration: duration, timingFunction: curve),
      beginTime: at)
  }
}
