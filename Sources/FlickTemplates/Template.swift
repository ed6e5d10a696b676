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
}
