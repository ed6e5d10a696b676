import FlickMotion
import FlickScene
import Foundation

extension Template {
  /// How deeply layers may nest through `sublayers` and `mask` (rendering recurses once per level
  /// and may need an offscreen group per level).
  public static let maximumLayerDepth = 64

  /// Keys every layer accepts.
  static let baseLayerKeys =
    [
      "id", "type", "size", "position", "anchorPoint", "opacity", "backgroundColor", "cornerRadius",
      "maskedCorners", "zPosition", "transform", "isHidden", "isDoubleSided", "borderWidth", "borderColor",
      "shadowColor", "shadowOpacity", "shadowRadius", "shadowOffset", "shadowPath", "masksToBounds", "mask",
      "contents", "contentsGravity", "contentsTint", "sublayers",
    ] + replicatorKeys + backdropKeys
  /// Keys of each layer kind (the Swift property names of its content).
  static let contentKeys: [LayerContentKind: [String]] = [
    .shape: [
      "path", "fillColor", "strokeColor", "lineWidth", "lineCap", "lineJoin", "miterLimit",
      "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd", "fillRule",
    ],
    .text: [
      "string", "fontFamily", "fontSize", "fontWeight", "fontStyle", "textColor", "alignment", "isWrapped",
      "lineSpacing", "tracking", "truncationMode", "number", "format",
    ],
    .gradient: ["kind", "colors", "locations", "startPoint", "endPoint"],
    .lottie: lottieKeys,
  ]

  /// Decodes one layer object (and its sublayers and mask), registering every id in `ids`.
  ///
  /// The layer kind comes from `"type"` (`layer`, `shape`, `text`, `gradient`) or, when it is
  /// omitted, from the kind-specific keys present. Image paths (`contents`) are relative to
  /// `baseDirectory`, by default the document's base folder (the template file's folder).
  static func decodeLayer(
    _ node: TemplateNode, ids: inout Set<String>, baseDirectory: String? = nil, depth: Int = 0
  ) throws(TemplateError) -> Layer {
    guard depth < maximumLayerDepth else {
      throw node.error("layers are nested deeper than \(maximumLayerDepth) levels (sublayers and masks)")
    }
    let base = baseDirectory ?? node.context.baseFolder
    let allKeys = baseLayerKeys + LayerContentKind.allCases.flatMap { contentKeys[$0] ?? [] }
    let o = try node.object(allowed: allKeys)
    let kind = try layerKind(node, o)
    guard let idNode = o["id"] else { throw node.error("a layer needs an 'id'") }
    let id = try idNode.string()
    guard !id.isEmpty else { throw idNode.error("a layer id cannot be empty") }
    guard ids.insert(id).inserted else { throw idNode.error("duplicate layer id '\(quoted: id)'") }
    var layer = Layer(id: id)
    if let n = o["size"] { layer.bounds = Rect(origin: .zero, size: try n.size()) }
    if let n = o["position"] { layer.position = try n.point() }
    if let n = o["anchorPoint"] { layer.anchorPoint = try n.point() }
    if let n = o["opacity"] { layer.opacity = try n.double(in: 0...1) }
    if let n = o["backgroundColor"] { layer.backgroundColor = try n.color() }
    if let n = o["cornerRadius"] { layer.cornerRadius = try n.double(in: 0...100_000) }
    if let n = o["maskedCorners"] { layer.maskedCorners = try decodeCorners(n) }
    if let n = o["zPosition"] { layer.zPosition = try n.double() }
    if let n = o["transform"] { layer.transform = try decodeTransform(n) }
    if let n = o["isHidden"] { layer.isHidden = try n.flag() }
    if let n = o["isDoubleSided"] { layer.isDoubleSided = try n.flag() }
    if let n = o["borderWidth"] { layer.borderWidth = try n.double(in: 0...100_000) }
    if let n = o["borderColor"] { layer.borderColor = try n.color() }
    if let n = o["shadowColor"] { layer.shadowColor = try n.color() }
    if let n = o["shadowOpacity"] { layer.shadowOpacity = try n.double(in: 0...1) }
    if let n = o["shadowRadius"] { layer.shadowRadius = try n.double(in: 0...1000) }
    if let n = o["shadowOffset"] { layer.shadowOffset = try n.point() }
    if let n = o["shadowPath"] { layer.shadowPath = try decodePath(n, base: base) }
    if let n = o["masksToBounds"] { layer.masksToBounds = try n.flag() }
    if let n = o["mask"] { layer.mask = try decodeLayer(n, ids: &ids, baseDirectory: base, depth: depth + 1) }
    if let n = o["contents"] { layer.contents = LayerImage(path: try imagePath(n, base: base)) }
    if let n = o["contentsGravity"] {
      layer.contentsGravity =
        ContentsGravity(rawValue: try n.string(oneOf: ContentsGravity.allCases.map(\.rawValue))) ?? .resize
    }
    if let n = o["contentsTint"] {
      guard layer.contents != nil else {
        throw n.error("'contentsTint' tints the 'contents' picture, and this layer has none")
      }
      layer.contents?.tint = try n.color()
    }
    switch kind {
    case .none: break
    case .shape: layer.content = .shape(try decodeShape(node, o, base: base))
    case .text: layer.content = .text(try decodeText(node, o))
    case .gradient: layer.content = .gradient(try decodeGradient(node, o))
    case .lottie: try decodeLottie(node, o, into: &layer)
    }
    try decodeReplicator(o, into: &layer)
    try decodeBackdrop(o, into: &layer)
    for child in try o["sublayers"]?.array() ?? [] {
      layer.sublayers.append(try decodeLayer(child, ids: &ids, baseDirectory: base, depth: depth + 1))
    }
    // Checked from the innermost replicator out, so the error names the one that passes the cap.
    if !layer.replicator.isNone { try checkReplicas(layer.replicatedLayerCount, at: o["instanceCount"] ?? node) }
    return layer
  }

  // MARK: - Kind

  private static func layerKind(_ node: TemplateNode, _ o: [String: TemplateNode]) throws(TemplateError)
    -> LayerContentKind
  {
    let typeNames = layerTypeNames
    let present = LayerContentKind.allCases.filter { k in (contentKeys[k] ?? []).contains { o[$0] != nil } }
    let kind: LayerContentKind
    if let t = o["type"] {
      let name = try t.string(oneOf: typeNames)
      kind = name == "layer" || name == "replicator" ? .none : LayerContentKind(rawValue: name) ?? .none
    } else if present.count > 1 {
      let keys = present.map { k in (contentKeys[k] ?? []).first { o[$0] != nil } ?? "" }
      throw node.error(
        "cannot tell the layer's type: it has keys of \(quoted: present.map(\.rawValue).joined(separator: " and ")) layers ("
          + keys.joined(separator: ", ") + "); add \"type\"")
    } else {
      kind = present.first ?? .none
    }
    for other in LayerContentKind.allCases where other != kind {
      for key in contentKeys[other] ?? [] {
        if let n = o[key] {
          let name = kind == .none ? "a plain layer" : "a \(kind.rawValue) layer"
          throw n.error("'\(quoted: key)' belongs to \(other.rawValue) layers, but this is \(quoted: name)")
        }
      }
    }
    return kind
  }

  // MARK: - Base properties

  private static func decodeCorners(_ node: TemplateNode) throws(TemplateError) -> CornerMask {
    let names: [String: CornerMask] = [
      "topLeft": .layerMinXMinYCorner, "topRight": .layerMaxXMinYCorner,
      "bottomLeft": .layerMinXMaxYCorner, "bottomRight": .layerMaxXMaxYCorner,
      "layerMinXMinYCorner": .layerMinXMinYCorner, "layerMaxXMinYCorner": .layerMaxXMinYCorner,
      "layerMinXMaxYCorner": .layerMinXMaxYCorner, "layerMaxXMaxYCorner": .layerMaxXMaxYCorner,
    ]
    var mask: CornerMask = []
    for item in try node.array() {
      let name = try item.string(
        oneOf: ["topLeft", "topRight", "bottomLeft", "bottomRight"]
          + names.keys.filter { $0.hasPrefix("layer") }.sorted())
      mask.insert(names[name] ?? [])
    }
    return mask
  }

  static func decodeTransform(_ node: TemplateNode) throws(TemplateError) -> LayerTransform {
    let o = try node.object(allowed: ["translation", "scale", "rotation", "rotationX", "rotationY", "perspective"])
    var t = LayerTransform()
    if let n = o["translation"] { t.translation = try n.point() }
    if let n = o["scale"] {
      if case .number = n.value.kind {
        let s = try n.double()
        t.scale = Point(x: s, y: s)
      } else {
        t.scale = try n.point()
      }
    }
    if let n = o["rotation"] { t.rotation = try n.radians() }
    if let n = o["rotationX"] { t.rotationX = try n.radians() }
    if let n = o["rotationY"] { t.rotationY = try n.radians() }
    if let n = o["perspective"] { t.perspective = try n.double(in: 0...1_000_000) }
    return t
  }

  private static func imagePath(_ node: TemplateNode, base: String) throws(TemplateError) -> String {
    let written = try node.string()
    guard !written.isEmpty else { throw node.error("an image path cannot be empty") }
    let ext = URL(fileURLWithPath: written).pathExtension.lowercased()
    guard ["png", "jpg", "jpeg", "webp", "svg"].contains(ext) else {
      throw node.error("image \"\(quoted: written)\": expected a .png, .jpg, .jpeg, .webp or .svg file")
    }
    // The asset policy (inside the template's folder unless --allow-outside-assets) is checked
    // before existence, so the error for a path outside does not depend on what is there.
    let path: String
    switch node.context.resolveAsset(written, from: base) {
    case .success(let resolved): path = resolved
    case .failure(let problem): throw node.error(problem.message(kind: "image", written: written))
    }
    // SVG is drawn as vectors (librsvg): no bitmap to bound, but its references and size are.
    if ext == "svg" {
      try checkSVGContents(node, written: written, path: path)
      return path
    }
    // The decoded size comes from the header, before anything is decoded: a small compressed
    // file can decode to gigabytes.
    let header: ImageHeader
    do {
      header = try ImageHeader.read(path: path)
    } catch {
      throw node.error("image \"\(quoted: written)\": \(escaped: error.reason)")
    }
    let limit = node.context.limits.maximumImagePixels
    guard header.width.multipliedReportingOverflow(by: header.height).partialValue <= limit,
      header.width <= 65535, header.height <= 65535
    else {
      throw node.error(
        "image \"\(quoted: written)\" is \(header.width)×\(header.height) pixels, more than the \(limit) an image may decode to "
          + "(--max-pixels or FLICK_MAX_PIXELS raises the cap)")
    }
    return path
  }

  static func folder(of file: String) -> String {
    guard !file.isEmpty else { return FileManager.default.currentDirectoryPath }
    return URL(fileURLWithPath: file).deletingLastPathComponent().path
  }

  // MARK: - Shape

  private static func decodeShape(
    _ node: TemplateNode, _ o: [String: TemplateNode], base: String? = nil
  ) throws(TemplateError) -> ShapeContent {
    guard let pathNode = o["path"] else { throw node.error("a shape layer needs a 'path'") }
    var s = ShapeContent(path: try decodePath(pathNode, base: base))
    if let n = o["fillColor"] { s.fillColor = try n.color() }
    if let n = o["strokeColor"] { s.strokeColor = try n.color() }
    if let n = o["lineWidth"] { s.lineWidth = try n.double(in: 0...100_000) }
    if let n = o["lineCap"] {
      s.lineCap =
        ShapeContent.LineCap(rawValue: try n.string(oneOf: ShapeContent.LineCap.allCases.map(\.rawValue))) ?? .butt
    }
    if let n = o["lineJoin"] {
      s.lineJoin =
        ShapeContent.LineJoin(rawValue: try n.string(oneOf: ShapeContent.LineJoin.allCases.map(\.rawValue))) ?? .miter
    }
    if let n = o["miterLimit"] { s.miterLimit = try n.double(in: 1...1000) }
    if let n = o["lineDashPattern"] {
      var dashes: [Double] = []
      for item in try n.array() { dashes.append(try item.double(in: 0...100_000)) }
      guard dashes.isEmpty || dashes.contains(where: { $0 > 0 }) else {
        throw n.error("a dash pattern needs at least one length above 0")
      }
      s.lineDashPattern = dashes
    }
    if let n = o["lineDashPhase"] { s.lineDashPhase = try n.double() }
    if let n = o["strokeStart"] { s.strokeStart = try n.double(in: 0...1) }
    if let n = o["strokeEnd"] { s.strokeEnd = try n.double(in: 0...1) }
    if let n = o["fillRule"] {
      s.fillRule =
        ShapeContent.FillRule(rawValue: try n.string(oneOf: ShapeContent.FillRule.allCases.map(\.rawValue))) ?? .nonZero
    }
    return s
  }

  /// A path: SVG path data (`"M0 0 L10 10 Z"`) or one helper object: `{ rect: [x, y, w, h] }`,
  /// `{ ellipse: [x, y, w, h] }`, `{ roundedRect: [x, y, w, h], cornerRadius: r }`,
  /// `{ arc: [cx, cy], radius: r, startAngle: a, endAngle: b, clockwise: true }`,
  /// `{ svg: "icon.svg", frame: [x, y, w, h] }` (an SVG file's outline, ``SVGShapeSource``; an
  /// asset relative to `base`, by default the template's folder).
  static func decodePath(_ node: TemplateNode, base: String? = nil) throws(TemplateError) -> ShapePath {
    if case .string(let d) = node.value.kind {
      let path: ShapePath
      do {
        path = try ShapePath(svgPathData: d)
      } catch {
        throw node.error("invalid SVG path data: character \(error.offset + 1): \(escaped: error.message)")
      }
      return try checkedPath(path, at: node)
    }
    guard case .object = node.value.kind else {
      throw node.expected("SVG path data (a string) or a shape object such as { rect: [0, 0, 100, 50] }")
    }
    let o = try node.object(
      allowed: [
        "rect", "ellipse", "roundedRect", "cornerRadius", "arc", "radius", "startAngle", "endAngle", "clockwise",
      ] + svgPathKeys)
    let forms = ["rect", "ellipse", "roundedRect", "arc", "svg"].filter { o[$0] != nil }
    guard forms.count == 1 else {
      throw node.error(
        "a shape object needs exactly one of 'rect', 'ellipse', 'roundedRect', 'arc', 'svg'"
          + (forms.isEmpty ? "" : " (found \(quoted: forms.joined(separator: ", ")))"))
    }
    if forms[0] == "svg" { return try checkedPath(decodeSVGPath(node, o, base: base), at: node) }
    if let n = o["frame"] { throw n.error("'frame' applies to an 'svg' shape") }
    func rect(_ n: TemplateNode) throws(TemplateError) -> Rect {
      let v = try n.numbers(count: 4)
      guard v[2] >= 0, v[3] >= 0 else { throw n.error("a rectangle's width and height cannot be negative") }
      return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
    let extra: [String: [String]] = [
      "rect": [], "ellipse": [], "roundedRect": ["cornerRadius"],
      "arc": ["radius", "startAngle", "endAngle", "clockwise"],
    ]
    let form = forms[0]
    for key in ["cornerRadius", "radius", "startAngle", "endAngle", "clockwise"]
    where o[key] != nil && !(extra[form] ?? []).contains(key) {
      throw (o[key] ?? node).error("'\(quoted: key)' does not apply to a '\(quoted: form)' shape")
    }
    switch form {
    case "rect": return .rect(try rect(o["rect"] ?? node))
    case "ellipse": return .ellipse(in: try rect(o["ellipse"] ?? node))
    case "roundedRect":
      return .roundedRect(
        try rect(o["roundedRect"] ?? node), cornerRadius: try o["cornerRadius"]?.double(in: 0...100_000) ?? 0)
    default:
      guard let radius = o["radius"] else { throw node.error("an arc needs a 'radius'") }
      return .arc(
        center: try (o["arc"] ?? node).point(), radius: try radius.double(in: 0...100_000),
        startAngle: try o["startAngle"]?.radians() ?? 0, endAngle: try o["endAngle"]?.radians() ?? 2 * .pi,
        clockwise: try o["clockwise"]?.flag() ?? true)
    }
  }

  // MARK: - Text

  private static func decodeText(_ node: TemplateNode, _ o: [String: TemplateNode]) throws(TemplateError) -> TextContent
  {
    var t: TextContent
    let stringNode: TemplateNode
    if let numberNode = o["number"] {
      if let both = o["string"] {
        throw both.error("a text layer shows either a 'string' or a 'number' (through its 'format'); remove one")
      }
      t = TextContent(string: "")
      if let f = o["format"] { t.numberFormat = try f.numberFormat() }
      t.show(number: try numberNode.double())
      stringNode = numberNode
    } else {
      guard let s = o["string"] else { throw node.error("a text layer needs a 'string' (or a 'number' to show)") }
      if let f = o["format"] {
        throw f.error("'format' shows a 'number'; give the text layer a 'number' instead of a 'string'")
      }
      t = TextContent(string: try s.string())
      stringNode = s
    }
    let limit = node.context.limits.maximumTextLength
    guard t.string.count <= limit else {
      throw stringNode.error(
        "the text is \(t.string.count) characters, more than the \(limit) a text layer may have "
          + "(--max-text or FLICK_MAX_TEXT raises the cap)")
    }
    if let n = o["fontFamily"] {
      t.fontFamily = try n.string()
      guard !t.fontFamily.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw n.error("a font family cannot be empty")
      }
      if TemplateParameter.isFontFile(t.fontFamily) {
        let family = try n.fontFile().families[0]
        throw n.error(
          "'fontFamily' takes a family name, not a file: list \"\(quoted: t.fontFamily)\" in the top-level 'fonts' and write \"\(quoted: family)\""
        )
      }
    }
    if let n = o["fontSize"] { t.fontSize = try n.double(in: 0.5...2000) }
    if let n = o["fontWeight"] {
      if case .number = n.value.kind {
        let w = try n.int(in: 100...900)
        guard let weight = TextContent.FontWeight(rawValue: w) else {
          throw n.error("expected a font weight of 100, 200, … 900, found \(w)")
        }
        t.fontWeight = weight
      } else {
        let names = TextContent.FontWeight.allCases.map { "\($0)" }
        let name = try n.string(oneOf: names)
        t.fontWeight = TextContent.FontWeight.allCases.first { "\($0)" == name } ?? .regular
      }
    }
    if let n = o["fontStyle"] {
      t.fontStyle =
        TextContent.FontStyle(rawValue: try n.string(oneOf: TextContent.FontStyle.allCases.map(\.rawValue))) ?? .normal
    }
    if let n = o["textColor"] { t.textColor = try n.color() }
    if let n = o["alignment"] {
      t.alignment =
        TextContent.Alignment(rawValue: try n.string(oneOf: TextContent.Alignment.allCases.map(\.rawValue))) ?? .left
    }
    if let n = o["isWrapped"] { t.isWrapped = try n.flag() }
    if let n = o["lineSpacing"] { t.lineSpacing = try n.double(in: -1000...1000) }
    if let n = o["tracking"] { t.tracking = try n.double(in: -100...1000) }
    if let n = o["truncationMode"] {
      t.truncationMode =
        TextContent.TruncationMode(rawValue: try n.string(oneOf: TextContent.TruncationMode.allCases.map(\.rawValue)))
        ?? .none
    }
    return t
  }

  // MARK: - Gradient

  /// The gradient keys of `o` (`colors`, `kind`, `locations`, `startPoint`, `endPoint`); `owner`
  /// names what needs the colours in messages ("a gradient layer", "a gradient background").
  static func decodeGradient(
    _ node: TemplateNode, _ o: [String: TemplateNode], owner: String = "a gradient layer"
  ) throws(TemplateError) -> GradientContent {
    guard let colorsNode = o["colors"] else { throw node.error("\(quoted: owner) needs 'colors'") }
    var colors: [Color] = []
    for item in try colorsNode.array() { colors.append(try item.color()) }
    guard !colors.isEmpty else { throw colorsNode.error("a gradient needs at least one colour") }
    var g = GradientContent(colors: colors)
    if let n = o["kind"] {
      let name = try n.string(oneOf: GradientContent.Kind.allCases.map(\.rawValue) + ["linear"])
      g.kind = name == "linear" ? .axial : GradientContent.Kind(rawValue: name) ?? .axial
    }
    if let n = o["locations"] {
      var locations: [Double] = []
      for item in try n.array() {
        let v = try item.double(in: 0...1)
        if let last = locations.last, v < last {
          throw item.error("locations must not decrease (\(TemplateNode.format(v)) after \(TemplateNode.format(last)))")
        }
        locations.append(v)
      }
      guard locations.count == colors.count else {
        throw n.error("expected \(colors.count) locations, one per colour, found \(locations.count)")
      }
      g.locations = locations
    }
    if let n = o["startPoint"] { g.startPoint = try n.point() }
    if let n = o["endPoint"] { g.endPoint = try n.point() }
    return g
  }
}

extension TemplateNode {
  /// `true` or `false`.
  fileprivate func flag() throws(TemplateError) -> Bool {
    guard case .bool(let b) = value.kind else { throw expected("true or false") }
    return b
  }
}

extension TemplateNode {
  /// A text layer's number `format`: printf-style with one number conversion (`"%.0f"`).
  func numberFormat() throws(TemplateError) -> TextNumberFormat {
    let source = try string()
    do {
      return try TextNumberFormat(source)
    } catch {
      throw self.error("\(escaped: error.description)")
    }
  }
}
