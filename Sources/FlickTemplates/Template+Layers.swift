import FlickMotion
import FlickScene
import Foundation

extension Template {
  /// How deeply layers may nest through `sublayers` and `mask` (rendering recurses once per level
  /// and may need an offscreen group per level).
  public static let maximumLayerDepth = 64
  /// The most dashes a shape's stroke may have: its path's length over the dash pattern's
  /// length (times its dashes a pattern); Cairo's time is proportional to it on curves.
  static let mostDashes = 1e6

  /// Keys every layer accepts: `id`, `type`, the animatable properties' keys (from the
  /// catalogue; `transform` holds its own) and the keys of things that do not animate.
  static let baseLayerKeys =
    ["id", "type"] + propertyKeys(of: nil)
    + [
      "maskedCorners", "transform", "isHidden", "isDoubleSided", "shadowPath", "masksToBounds", "mask",
      "contents", "contentsGravity", "contentsTint", "sublayers", "constraints",
    ] + replicatorKeys + backdropKeys
  /// Keys of each layer kind (the Swift property names of its content): its animatable
  /// properties' keys (from the catalogue), then the others.
  static let contentKeys: [LayerContentKind: [String]] = [
    .shape: propertyKeys(of: .shape) + [
      "path", "lineCap", "lineJoin", "miterLimit", "lineDashPattern", "fillRule",
    ],
    .text: propertyKeys(of: .text) + [
      "string", "fontFamily", "fontWeight", "fontStyle", "alignment", "isWrapped", "lineSpacing", "truncationMode",
      "format",
    ],
    .gradient: propertyKeys(of: .gradient) + ["kind", "locations"],
    .lottie: propertyKeys(of: .lottie) + lottieKeys.filter { !propertyKeys(of: .lottie).contains($0) },
  ]

  /// The layer keys of the catalogue's properties of `kind` (nil: every layer's), in catalogue
  /// order; `transform.…` keys live inside `transform`.
  static func propertyKeys(of kind: LayerContentKind?) -> [String] {
    LayerPropertyDescriptor.catalogue.filter { $0.contentKind == kind }.compactMap(\.layerKey)
      .filter { !$0.contains(".") }
  }

  /// Property keys whose kind's decoder reads them itself, with rules beyond the property's
  /// value and range: a text layer's `number` (instead of a `string`, through `format`), a
  /// gradient's `colors`, `startPoint`, `endPoint` (shared with the canvas's gradient
  /// background), a Lottie layer's `frame` and `progress` (bounded by the file's frames).
  static let keysDecodedByKind: Set<String> = ["number", "colors", "startPoint", "endPoint", "frame", "progress"]

  /// Writes every property key of `o` (but ``keysDecodedByKind``) into `layer`, each decoded and
  /// range-checked from its catalogue row.
  static func decodePropertyKeys(_ o: [String: TemplateNode], into layer: inout Layer) throws(TemplateError) {
    for (key, d) in decodedPropertyKeys {
      guard let n = o[key] else { continue }
      try d.write(n, into: &layer)
    }
  }

  /// The catalogue rows ``decodePropertyKeys(_:into:)`` writes, by layer key, in catalogue order:
  /// those with a key of their own (no dotted path) that is not one of ``keysDecodedByKind``.
  /// Chosen once, not for every layer.
  static let decodedPropertyKeys: [(key: String, descriptor: LayerPropertyDescriptor)] =
    LayerPropertyDescriptor.catalogue.compactMap { d in
      guard let key = d.layerKey, !key.contains("."), !keysDecodedByKind.contains(key) else { return nil }
      return (key, d)
    }

  /// Decodes one layer object (and its sublayers and mask), registering every id in `ids`.
  /// `level` is how deeply the layer is drawn (``FlickScene/Layer/drawingDepth`` of the path to
  /// it: the replicators above count their holder levels).
  ///
  /// The layer kind comes from `"type"` (`layer`, `shape`, `text`, `gradient`) or, when it is
  /// omitted, from the kind-specific keys present. Image paths (`contents`) are relative to
  /// `baseDirectory`, by default the document's base folder (the template file's folder).
  static func decodeLayer(
    _ node: TemplateNode, ids: inout Set<String>, baseDirectory: String? = nil, depth: Int = 0, level: Int = 1
  ) throws(TemplateError) -> Layer {
    guard depth < maximumLayerDepth else {
      throw node.error("layers are nested deeper than \(maximumLayerDepth) levels (sublayers and masks)")
    }
    guard level <= Layer.maximumDrawingDepth else {
      throw node.error(
        "this layer is drawn \(level) levels deep, more than the cap of \(Layer.maximumDrawingDepth): sublayers and "
          + "masks nest one level each, and a replicator of n instances puts its last copy n levels below itself "
          + "(n + 1 with instanceJitter); use fewer instances or nest less")
    }
    let base = baseDirectory ?? node.context.baseFolder
    let allKeys = baseLayerKeys + LayerContentKind.allCases.flatMap { contentKeys[$0] ?? [] }
    try checkMisplacedKeys(node, allowed: allKeys)
    let o = try node.object(allowed: allKeys)
    let kind = try layerKind(node, o)
    guard let idNode = o["id"] else { throw node.error("a layer needs an 'id'") }
    let id = try idNode.string()
    guard !id.isEmpty else { throw idNode.error("a layer id cannot be empty") }
    guard ids.insert(id).inserted else { throw idNode.error("duplicate layer id '\(quoted: id)'") }
    var layer = Layer(id: id)
    if let n = o["maskedCorners"] { layer.maskedCorners = try decodeCorners(n) }
    if let n = o["transform"] { layer.transform = try decodeTransform(n) }
    if let n = o["isHidden"] { layer.isHidden = try n.flag() }
    if let n = o["isDoubleSided"] { layer.isDoubleSided = try n.flag() }
    if let n = o["shadowPath"] { layer.shadowPath = try decodePath(n, base: base) }
    if let n = o["masksToBounds"] { layer.masksToBounds = try n.flag() }
    if let n = o["mask"] {
      layer.mask = try decodeLayer(n, ids: &ids, baseDirectory: base, depth: depth + 1, level: level + 1)
    }
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
    try decodePropertyKeys(o, into: &layer)
    if kind == .text, o["size"] == nil { try fitTextSize(&layer, node) }
    try decodeReplicator(o, into: &layer)
    try decodeBackdrop(o, into: &layer)
    for child in try o["sublayers"]?.array() ?? [] {
      layer.sublayers.append(
        try decodeLayer(
          child, ids: &ids, baseDirectory: base, depth: depth + 1, level: level + 1 + layer.replicaLevels))
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

  /// The keys of a `transform` object: the catalogue's `transform.…` layer keys.
  static let transformKeys = LayerPropertyDescriptor.catalogue.compactMap(\.layerKey)
    .filter { $0.hasPrefix("transform.") }.map { String($0.dropFirst("transform.".count)) }

  /// A `transform` object: each key decoded and range-checked from its catalogue row (`scale`
  /// may also be one number for both axes).
  static func decodeTransform(_ node: TemplateNode) throws(TemplateError) -> LayerTransform {
    try checkMisplacedKeys(node, allowed: transformKeys, inTransform: true)
    let o = try node.object(allowed: transformKeys)
    var layer = Layer(id: "")
    for d in LayerPropertyDescriptor.catalogue {
      guard let key = d.layerKey, key.hasPrefix("transform."), let n = o[String(key.dropFirst("transform.".count))]
      else { continue }
      if case .point(let p) = d.property, case .number = n.value.kind {
        let s = try PropertyValueDecoder.number(d).value(n)
        p.write(&layer, Point(x: s, y: s))
      } else {
        try d.write(n, into: &layer)
      }
    }
    return layer.transform
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
    case .failure(let problem):
      throw node.error(problem.message(kind: "image", written: written, remedy: node.context.outsideRemedy))
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
    if let n = o["lineCap"] {
      s.lineCap =
        ShapeContent.LineCap(rawValue: try n.string(oneOf: ShapeContent.LineCap.allCases.map(\.rawValue))) ?? .butt
    }
    if let n = o["lineJoin"] {
      s.lineJoin =
        ShapeContent.LineJoin(rawValue: try n.string(oneOf: ShapeContent.LineJoin.allCases.map(\.rawValue))) ?? .miter
    }
    if let n = o["miterLimit"] { s.miterLimit = try n.double(in: Self.miterLimitRange) }
    if let n = o["lineDashPattern"] {
      var dashes: [Double] = []
      for item in try n.array() { dashes.append(try item.double(in: Self.lengthRange)) }
      guard dashes.isEmpty || dashes.contains(where: { $0 > 0 }) else {
        throw n.error("a dash pattern needs at least one length above 0")
      }
      // Cairo walks a curve's every dash: 0.11-point dashes round a 10⁶-point curve took 14 s.
      let dashCount = s.path.length / dashes.reduce(0, +) * Double(max(1, dashes.count / 2))
      if dashCount > Self.mostDashes {
        let period = dashes.reduce(0, +)
        throw n.error(
          "a dash pattern of \(quoted: period) points makes "
            + (dashCount < 1e15 ? "\(Int(dashCount))" : "more than 10¹⁵") + " dashes along this path; "
            + "up to \(Int(Self.mostDashes)) are drawn (lengthen the pattern)")
      }
      s.lineDashPattern = dashes
    }
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
        try rect(o["roundedRect"] ?? node), cornerRadius: try o["cornerRadius"]?.double(in: Self.lengthRange) ?? 0)
    default:
      guard let radius = o["radius"] else { throw node.error("an arc needs a 'radius'") }
      return .arc(
        center: try (o["arc"] ?? node).point(), radius: try radius.double(in: Self.lengthRange),
        startAngle: try o["startAngle"]?.radians() ?? 0, endAngle: try o["endAngle"]?.radians() ?? 2 * .pi,
        clockwise: try o["clockwise"]?.flag() ?? true)
    }
  }
}

extension TemplateNode {
  /// `true` or `false`.
  func flag() throws(TemplateError) -> Bool {
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
