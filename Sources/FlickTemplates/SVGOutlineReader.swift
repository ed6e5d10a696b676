import FlickMotion
import FlickScene
import Foundation

/// The scanner: tags, attributes and the element stack.
struct SVGOutlineReader {
  let bytes: [UInt8]
  var tokens: XMLTokenizer
  var size: Size?
  var path = ShapePath()

  /// One open element: its transform to the outline's units, whether its subtree is skipped,
  /// and the fill and stroke it hands down (`true` = paints).
  struct Open {
    var name: String
    var transform: Affine
    var skipped: Bool
    var fills: Bool
    var strokes: Bool
  }
  var stack: [Open] = []
  var elements = 0
  var sawRoot = false

  static let skippedElements: Set<String> = [
    "defs", "clipPath", "mask", "symbol", "pattern", "marker", "linearGradient", "radialGradient", "filter",
    "title", "desc", "metadata", "style", "script",
  ]
  static let refusedElements: Set<String> = [
    "text", "tspan", "textPath", "image", "use", "foreignObject", "switch", "svg",
  ]
  static let geometry: Set<String> = ["path", "rect", "circle", "ellipse", "line", "polyline", "polygon"]
  static let containers: Set<String> = ["g", "a"]

  init(bytes: [UInt8]) {
    self.bytes = bytes
    tokens = XMLTokenizer(bytes: bytes)
  }

  static func failure(_ message: String, at offset: Int, in bytes: [UInt8]) -> SVGShapeSource.Failure {
    let line = 1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    return SVGShapeSource.Failure(message: "line \(line): \(escaped: message)")
  }

  func fail(_ message: String, at offset: Int? = nil) -> SVGShapeSource.Failure {
    Self.failure(message, at: offset ?? tokens.offset, in: bytes)
  }

  mutating func read() throws(SVGShapeSource.Failure) {
    while let token = try tokens.next(failing: { Self.failure($0.message, at: $0.offset, in: $1) }) {
      switch token {
      case .text, .cdata, .processingInstruction, .skipped:
        continue
      case .end(let name, let offset):
        guard let open = stack.last, open.name == name else {
          throw fail(
            "</\(quoted: name)> closes nothing open" + (stack.last.map { " (<\(quoted: $0.name)> is)" } ?? ""),
            at: offset)
        }
        stack.removeLast()
      case .start(let qualified, let attributes, let selfClosing, let start):
        elements += 1
        guard elements <= SVGShapeSource.maximumElements else {
          throw fail("more than \(SVGShapeSource.maximumElements) elements")
        }
        try element(
          qualified, Dictionary(attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), at: start)
        if selfClosing { _ = stack.popLast() }
        guard stack.count <= SVGShapeSource.maximumDepth else {
          throw fail("elements are nested deeper than \(SVGShapeSource.maximumDepth) levels", at: start)
        }
      }
    }
    if let open = stack.last { throw fail("<\(quoted: open.name)> is not closed") }
    guard sawRoot else { throw fail("no <svg> element") }
  }

  mutating func element(_ qualified: String, _ attributes: [String: String], at offset: Int) throws(SVGShapeSource
    .Failure)
  {
    let parent = stack.last
    var name = qualified
    if let colon = qualified.firstIndex(of: ":") {
      let prefix = qualified[..<colon]
      name = String(qualified[qualified.index(after: colon)...])
      if prefix != "svg" {
        // Another vocabulary (an editor's own data): never drawn.
        stack.append(Open(name: qualified, transform: .identity, skipped: true, fills: false, strokes: false))
        return
      }
    }
    guard let parent else {
      guard name == "svg", !sawRoot else {
        throw fail("the document's root is <\(quoted: qualified)>, not <svg>", at: offset)
      }
      sawRoot = true
      let root = try rootTransform(attributes, at: offset)
      stack.append(Open(name: qualified, transform: root, skipped: false, fills: true, strokes: false))
      if let fill = attributes["fill"] { stack[0].fills = !Self.isNone(fill) }
      if let stroke = attributes["stroke"] { stack[0].strokes = !Self.isNone(stroke) }
      return
    }
    var open = Open(
      name: qualified, transform: parent.transform, skipped: parent.skipped, fills: parent.fills,
      strokes: parent.strokes)
    defer { stack.append(open) }
    if open.skipped { return }
    if Self.skippedElements.contains(name)
      || attributes["display"].map({ $0.trimmingCharacters(in: .whitespaces) == "none" }) == true
      || Self.style(attributes, "display") == "none"
    {
      open.skipped = true
      return
    }
    guard Self.containers.contains(name) || Self.geometry.contains(name) else {
      if Self.refusedElements.contains(name) {
        throw fail(
          "<\(quoted: name)> is not taken by the svg shape source (it reads path, rect, circle, ellipse, line, polyline, polygon and g)",
          at: offset)
      }
      throw fail(
        "unknown element <\(quoted: qualified)> (the svg shape source reads path, rect, circle, ellipse, line, polyline, polygon and g)",
        at: offset)
    }
    if let t = attributes["transform"] { open.transform = open.transform.concatenating(try transform(t, at: offset)) }
    if let fill = attributes["fill"] ?? Self.style(attributes, "fill") { open.fills = !Self.isNone(fill) }
    if let stroke = attributes["stroke"] ?? Self.style(attributes, "stroke") { open.strokes = !Self.isNone(stroke) }
    guard Self.geometry.contains(name), open.fills || open.strokes else { return }
    let outline = try shape(name, attributes, at: offset)
    guard path.elements.count + outline.elements.count <= SVGShapeSource.maximumPathElements else {
      throw fail("the outline has more than \(SVGShapeSource.maximumPathElements) path elements", at: offset)
    }
    path.elements += open.transform.apply(outline).elements
  }

  static func isNone(_ paint: String) -> Bool { paint.trimmingCharacters(in: .whitespaces) == "none" }

  /// A property from the `style` attribute (`fill: none; stroke: #000`).
  static func style(_ attributes: [String: String], _ property: String) -> String? {
    guard let style = attributes["style"] else { return nil }
    for declaration in style.split(separator: ";") {
      let parts = declaration.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == property {
        return parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }

  // MARK: - Values

  func numbers(_ text: String, at offset: Int, what: String) throws(SVGShapeSource.Failure) -> [Double] {
    var out: [Double] = []
    for field in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
      guard let v = DecimalText.value(field) else {
        throw fail("\(quoted: what): '\(quoted: field)' is not a number", at: offset)
      }
      out.append(v)
      guard out.count <= SVGShapeSource.maximumPathElements else {
        throw fail("\(quoted: what): too many numbers", at: offset)
      }
    }
    return out
  }

  /// A length in user units: a number, optionally `px`. nil when absent.
  func length(_ attributes: [String: String], _ key: String, at offset: Int) throws(SVGShapeSource.Failure) -> Double? {
    guard var text = attributes[key]?.trimmingCharacters(in: .whitespaces) else { return nil }
    if text.hasSuffix("px") { text.removeLast(2) }
    guard let v = DecimalText.value(text), abs(v) <= 1e7 else {
      throw fail(
        "\(quoted: key)=\"\(quoted: attributes[key] ?? "")\": the svg shape source takes lengths in user units (numbers or px)",
        at: offset)
    }
    return v
  }

  mutating func rootTransform(_ attributes: [String: String], at offset: Int) throws(SVGShapeSource.Failure) -> Affine {
    func given(_ key: String) throws(SVGShapeSource.Failure) -> Double? {
      // A percentage is relative to a viewport the shape source does not have: use the viewBox.
      if let t = attributes[key], t.trimmingCharacters(in: .whitespaces).hasSuffix("%") { return nil }
      return try length(attributes, key, at: offset)
    }
    let width = try given("width"), height = try given("height")
    guard let viewBox = attributes["viewBox"] else {
      if let width, let height, width > 0, height > 0 { size = Size(width: width, height: height) }
      return .identity
    }
    let v = try numbers(viewBox, at: offset, what: "viewBox")
    guard v.count == 4, v[2] > 0, v[3] > 0 else {
      throw fail("viewBox=\"\(quoted: viewBox)\": expected min-x min-y width height, sizes above 0", at: offset)
    }
    let w = width.flatMap { $0 > 0 ? $0 : nil } ?? v[2], h = height.flatMap { $0 > 0 ? $0 : nil } ?? v[3]
    size = Size(width: w, height: h)
    let aspect = (attributes["preserveAspectRatio"] ?? "xMidYMid meet").split(separator: " ").map(String.init)
    let sx = w / v[2], sy = h / v[3]
    switch aspect.first ?? "xMidYMid" {
    case "none":
      return Affine(a: sx, d: sy, e: -v[0] * sx, f: -v[1] * sy)
    case "xMidYMid" where aspect.count == 1 || aspect[1] == "meet":
      let s = min(sx, sy)
      return Affine(a: s, d: s, e: (w - v[2] * s) / 2 - v[0] * s, f: (h - v[3] * s) / 2 - v[1] * s)
    default:
      throw fail(
        "preserveAspectRatio=\"\(quoted: aspect.joined(separator: " "))\": the svg shape source takes none or xMidYMid meet",
        at: offset)
    }
  }

  func transform(_ text: String, at offset: Int) throws(SVGShapeSource.Failure) -> Affine {
    var result = Affine.identity
    var rest = Substring(text)
    var count = 0
    while true {
      rest = rest.drop { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }
      guard !rest.isEmpty else { break }
      count += 1
      guard count <= 64 else { throw fail("transform: more than 64 functions", at: offset) }
      guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), open < close else {
        throw fail("transform=\"\(quoted: text)\": expected name(numbers)", at: offset)
      }
      let name = rest[..<open].trimmingCharacters(in: .whitespaces)
      let v = try numbers(String(rest[rest.index(after: open)..<close]), at: offset, what: "transform \(name)")
      rest = rest[rest.index(after: close)...]
      let m: Affine
      func radians(_ deg: Double) -> Double { deg * .pi / 180 }
      switch (name, v.count) {
      case ("matrix", 6): m = Affine(a: v[0], b: v[1], c: v[2], d: v[3], e: v[4], f: v[5])
      case ("translate", 1): m = Affine(e: v[0])
      case ("translate", 2): m = Affine(e: v[0], f: v[1])
      case ("scale", 1): m = Affine(a: v[0], d: v[0])
      case ("scale", 2): m = Affine(a: v[0], d: v[1])
      case ("rotate", 1), ("rotate", 3):
        let r = radians(v[0])
        let rotation = Affine(a: cos(r), b: sin(r), c: -sin(r), d: cos(r))
        if v.count == 3 {
          m = Affine(e: v[1], f: v[2]).concatenating(rotation).concatenating(Affine(e: -v[1], f: -v[2]))
        } else {
          m = rotation
        }
      case ("skewX", 1): m = Affine(c: tan(radians(v[0])))
      case ("skewY", 1): m = Affine(b: tan(radians(v[0])))
      default: throw fail("transform: \(quoted: name) with \(v.count) numbers is not an SVG transform", at: offset)
      }
      result = result.concatenating(m)
    }
    return result
  }

  // MARK: - Geometry

  func shape(_ name: String, _ a: [String: String], at offset: Int) throws(SVGShapeSource.Failure) -> ShapePath {
    func len(_ key: String) throws(SVGShapeSource.Failure) -> Double { try length(a, key, at: offset) ?? 0 }
    switch name {
    case "path":
      guard let d = a["d"] else { return ShapePath() }
      do {
        return try ShapePath(svgPathData: d)
      } catch {
        throw fail("<path d>: character \(error.offset + 1): \(escaped: error.message)", at: offset)
      }
    case "rect":
      let r = Rect(x: try len("x"), y: try len("y"), width: try len("width"), height: try len("height"))
      guard r.width > 0, r.height > 0 else { return ShapePath() }
      var rx = try length(a, "rx", at: offset), ry = try length(a, "ry", at: offset)
      if rx == nil { rx = ry }
      if ry == nil { ry = rx }
      let cx = min(max(0, rx ?? 0), r.width / 2), cy = min(max(0, ry ?? 0), r.height / 2)
      guard cx > 0, cy > 0 else { return .rect(r) }
      return Self.roundedRect(r, rx: cx, ry: cy)
    case "circle":
      let r = try len("r")
      guard r > 0 else { return ShapePath() }
      return .ellipse(in: Rect(x: try len("cx") - r, y: try len("cy") - r, width: 2 * r, height: 2 * r))
    case "ellipse":
      let rx = try len("rx"), ry = try len("ry")
      guard rx > 0, ry > 0 else { return ShapePath() }
      return .ellipse(in: Rect(x: try len("cx") - rx, y: try len("cy") - ry, width: 2 * rx, height: 2 * ry))
    case "line":
      var p = ShapePath()
      p.move(to: Point(x: try len("x1"), y: try len("y1")))
      p.addLine(to: Point(x: try len("x2"), y: try len("y2")))
      return p
    default:  // polyline, polygon
      let v = try numbers(a["points"] ?? "", at: offset, what: "points")
      var p = ShapePath()
      for k in stride(from: 0, to: v.count - 1, by: 2) {
        let point = Point(x: v[k], y: v[k + 1])
        if k == 0 { p.move(to: point) } else { p.addLine(to: point) }
      }
      if name == "polygon", !p.elements.isEmpty { p.closeSubpath() }
      return p
    }
  }

  /// A rectangle with elliptical corners `rx` × `ry` (SVG's `<rect rx ry>`), clockwise from the top edge.
  static func roundedRect(_ r: Rect, rx: Double, ry: Double) -> ShapePath {
    let k = 0.5522847498307936
    var p = ShapePath()
    p.move(to: Point(x: r.minX + rx, y: r.minY))
    p.addLine(to: Point(x: r.maxX - rx, y: r.minY))
    p.addCurve(
      to: Point(x: r.maxX, y: r.minY + ry), control1: Point(x: r.maxX - rx + k * rx, y: r.minY),
      control2: Point(x: r.maxX, y: r.minY + ry - k * ry))
    p.addLine(to: Point(x: r.maxX, y: r.maxY - ry))
    p.addCurve(
      to: Point(x: r.maxX - rx, y: r.maxY), control1: Point(x: r.maxX, y: r.maxY - ry + k * ry),
      control2: Point(x: r.maxX - rx + k * rx, y: r.maxY))
    p.addLine(to: Point(x: r.minX + rx, y: r.maxY))
    p.addCurve(
      to: Point(x: r.minX, y: r.maxY - ry), control1: Point(x: r.minX + rx - k * rx, y: r.maxY),
      control2: Point(x: r.minX, y: r.maxY - ry + k * ry))
    p.addLine(to: Point(x: r.minX, y: r.minY + ry))
    p.addCurve(
      to: Point(x: r.minX + rx, y: r.minY), control1: Point(x: r.minX, y: r.minY + ry - k * ry),
      control2: Point(x: r.minX + rx - k * rx, y: r.minY))
    p.closeSubpath()
    return p
  }
}
