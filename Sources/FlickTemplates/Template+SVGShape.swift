import FlickMotion
import FlickScene
import Foundation

extension Template {
  /// The keys of the `svg` shape source in a path object.
  static let svgPathKeys = ["svg", "frame"]

  /// `{ svg: "icon.svg", frame: [x, y, w, h] }`: the outline of an SVG file (an asset, confined
  /// to the template's folder like every asset), in the document's units or stretched into `frame`.
  static func decodeSVGPath(
    _ node: TemplateNode, _ o: [String: TemplateNode], base: String?
  ) throws(TemplateError) -> ShapePath {
    guard let fileNode = o["svg"] else { throw node.error("an svg shape needs 'svg', the file") }
    let written = try fileNode.string()
    guard URL(fileURLWithPath: written).pathExtension.lowercased() == "svg" else {
      throw fileNode.error("svg shape \"\(quoted: written)\": expected a .svg file")
    }
    let file: String
    switch node.context.resolveAsset(written, from: base) {
    case .success(let resolved): file = resolved
    case .failure(let problem):
      throw fileNode.error(problem.message(kind: "svg shape", written: written, remedy: node.context.outsideRemedy))
    }
    var frame: Rect?
    if let n = o["frame"] {
      let v = try n.numbers(count: 4)
      guard v[2] > 0, v[3] > 0, v.allSatisfy({ abs($0) <= 1e7 }) else {
        throw n.error("a frame's width and height must be above 0")
      }
      frame = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
    do {
      return try SVGShapeSource(contentsOf: file).placed(in: frame)
    } catch {
      throw fileNode.error("svg shape \"\(quoted: written)\" ('\(quoted: file)'): \(escaped: error.message)")
    }
  }
}
