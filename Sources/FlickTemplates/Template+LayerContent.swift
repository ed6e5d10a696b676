import FlickMotion
import FlickScene
internal import FlickRaster

extension Template {
  // MARK: - Text

  static func decodeText(_ node: TemplateNode, _ o: [String: TemplateNode]) throws(TemplateError) -> TextContent {
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
    // Unicode scalars, not Characters: a letter with 100,000 combining marks is one Character,
    // and shaping it takes minutes.
    let limit = node.context.limits.maximumTextLength
    let count = t.string.unicodeScalars.count
    guard count <= limit else {
      throw stringNode.error(
        "the text is \(count) characters (Unicode scalars, marks included), more than the \(limit) a text layer "
          + "may have (--max-text or FLICK_MAX_TEXT raises the cap)")
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
    if let n = o["fontWeight"] {
      if case .number = n.value.kind {
        let w = try n.int(in: 100...900)
        guard let weight = TextContent.FontWeight(rawValue: w) else {
          throw n.error("expected a font weight of 100, 200, … 900, found \(w)")
        }
        t.fontWeight = weight
      } else {
        let name = try n.word(
          oneOf: TextContent.FontWeight.allCases.map(\.name), orElse: "a number 100, 200, … 900")
        t.fontWeight = TextContent.FontWeight.allCases.first { $0.name == name } ?? .regular
      }
    }
    if let n = o["fontStyle"] {
      t.fontStyle =
        TextContent.FontStyle(rawValue: try n.string(oneOf: TextContent.FontStyle.allCases.map(\.rawValue))) ?? .normal
    }
    if let n = o["alignment"] {
      t.alignment =
        TextContent.Alignment(rawValue: try n.string(oneOf: TextContent.Alignment.allCases.map(\.rawValue))) ?? .left
    }
    if let n = o["isWrapped"] { t.isWrapped = try n.flag() }
    if let n = o["lineSpacing"] { t.lineSpacing = try n.double(in: Self.lineSpacingRange) }
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
    let colors = try TemplateLimits.gradientColors(colorsNode)
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

extension Template {
  /// A text layer without a `size` sizes itself to its text, as `sizeToFit()`: its bounds become
  /// the laid-out size of its initial string on one line per paragraph (measured with Pango as a
  /// render lays it out, with the template's fonts), placed by `position` and `anchorPoint` as
  /// any bounds. Unless the template says otherwise it does not wrap (`isWrapped: false`), so a
  /// later, longer string or number extends past the bounds (per `alignment`) instead of
  /// breaking onto a second line.
  static func fitTextSize(_ layer: inout Layer, _ node: TemplateNode) throws(TemplateError) {
    guard var text = layer.text else { return }
    if node.value.objectMembers.first(where: { $0.key == "isWrapped" }) == nil {
      text.isWrapped = false
      layer.content = .text(text)
    }
    do {
      layer.bounds.size = try TextMeasure.fittingSize(of: text, fontFiles: node.context.fontFiles)
    } catch {
      throw node.error(
        "this text layer has no 'size' and its text could not be measured (\(escaped: "\(error)")); give it a 'size'")
    }
  }
}
