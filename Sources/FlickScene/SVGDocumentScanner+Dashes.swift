import FlickMotion
import Foundation

extension SVGDocumentCheck {
  /// The most dashes the dashed strokes of a picture may cut its paths and text into, with every
  /// reference expanded: 10⁶, the cap of a Lottie stroke (``LottieFeatureInspector/mostDashes``).
  /// librsvg hands Cairo the dash pattern as written, and Cairo walks and keeps every dash of a
  /// stroke: a pattern of 0.01 along a 300,000-unit path (1.5 · 10⁷ dashes) took `flick still`
  /// 8.7 s and 866 MB, five `<use>`s of it 44 s.
  package static let maximumDashes = LottieFeatureInspector.mostDashes
  /// The longest a glyph's outline is taken to be, in em (32): the longest of DejaVu Sans's and
  /// Inter's (`@`, `₩`, `W`) measure 5.5–7.6 em as Cairo flattens them; a dense CJK character has
  /// a few times that.
  static let glyphOutlineEms = 32.0
  /// The largest viewport a percentage may refer to, before the picture's own `width`, `height`
  /// and `viewBox` numbers (100,000 units: Flick draws a picture at its intrinsic size, at most
  /// 100,000 points a side).
  static let viewportBound = 100_000.0
}

/// The dash count of ``SVGDocumentScanner``: every `stroke-dasharray` (a presentation attribute, a
/// `style` declaration or a `<style>` sheet's) against the paths and text it can stroke.
///
/// Cairo dashes a stroke in the user space of the stroked element, where its path and its dash
/// lengths both are: a `transform` above it scales both alike and leaves the count as it is, so
/// the count is the length of what the pattern can apply to over the pattern's length, times its
/// dashes. A pattern given on an element applies to it and everything it holds or draws through a
/// reference (an inner pattern only replaces it, but both are counted); a sheet's pattern applies
/// to the whole picture. A path is bounded by its control polygon (arcs as the Béziers that
/// approximate them), a rectangle by its perimeter, a circle or ellipse by 2π times its larger
/// radius, and text by ``SVGDocumentCheck/glyphOutlineEms`` em a character at the largest font
/// size the picture can give (``FontSizeBound``). librsvg 2.54 ignores `pathLength`; the larger of
/// it and the path's own length is counted all the same.
extension SVGDocumentScanner {
  /// One dash pattern: how many lengths it lists, what they add up to in user units (at the
  /// least: ``leastUnits``), in fractions of the viewport's diagonal and in em, and where and
  /// what declared it. Its dashes per user unit of path are `count` over twice the least sum
  /// (an odd list repeats itself): ``leastPeriod(_:)``.
  struct Dash {
    var count: Int
    var units = 0.0
    var fractions = 0.0
    var ems = 0.0
    /// Whether every length is in user units or px, so that `units` is what librsvg draws.
    var exact = true
    var offset: Int
    var what: String
    var value: String
  }

  /// The largest font size a picture can give its text, in user units: the largest absolute size
  /// it names (12, librsvg's initial size, at least) times its largest relative factor (`em`,
  /// `%`, `larger`) once for every element that declares one, since each can compound down a
  /// chain, at most once for each level of the expanded document (``expandedDepth()``), at which
  /// a sheet's factor may apply at every level. The smallest size is bounded alongside (`least`).
  struct FontSizeBound {
    var absolute = 12.0
    var factor = 1.0
    var compounding = 0
    var inSheet = false
    var least = SmallestFontSize()

    func largest(levels depth: Int) -> Double {
      let levels = inSheet ? depth : min(compounding, depth)
      guard factor > 1 else { return absolute }
      let grown = absolute * pow(factor, Double(levels))
      return grown.isFinite ? grown : .infinity
    }

    /// Notes a `font-size` value (or a `font` shorthand's sizes) given on an element or in a sheet.
    mutating func note(_ value: Substring, shorthand: Bool, sheet: Bool) {
      for token in value.split(whereSeparator: { $0.isWhitespace || $0 == "/" || $0 == "," }) {
        let word = token.lowercased()
        let length = SVGDocumentScanner.length(token)
        if !(shorthand && length?.1.isEmpty == true) { least.note(word, length, sheet: sheet) }
        if word.contains("large") {
          absolute = max(absolute, 30)
          if word == "larger" { relative(1.2, sheet: sheet) }
          continue
        }
        guard let (number, unit) = length else { continue }
        // In a shorthand a unitless number is a weight or a line height, not a size.
        if shorthand && unit.isEmpty { continue }
        if let scale = SVGDocumentScanner.absoluteUnits[unit] {
          absolute = max(absolute, abs(number) * scale)
        } else {
          relative(abs(number) / (unit == "%" ? 100 : 1), sheet: sheet)
        }
      }
    }

    private mutating func relative(_ f: Double, sheet: Bool) {
      guard f > 1 else { return }
      factor = max(factor, f)
      if sheet { inSheet = true } else { compounding += 1 }
    }
  }

  /// User units per absolute CSS unit (96 per inch), the empty unit being user units.
  static let absoluteUnits: [String: Double] = [
    "": 1, "px": 1, "pt": 4.0 / 3, "pc": 16, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96, "q": 96 / 101.6,
  ]

  /// A length attribute of a shape in user units, split into a part in user units and a part in
  /// em (of a font size not known yet); 0 when it is not a length.
  func userLength(_ value: String?) -> (units: Double, ems: Double) {
    // The first word: a CSS value may end in `!important`.
    guard let word = value?.split(whereSeparator: { $0.isWhitespace }).first, let (number, unit) = Self.length(word)
    else { return (0, 0) }
    if let scale = Self.absoluteUnits[unit] { return (abs(number) * scale, 0) }
    if unit == "%" { return (abs(number) / 100 * viewport, 0) }
    return (0, abs(number))  // em, ex and the rest: at most the font size each
  }

  /// The `stroke-dasharray` keywords, none of which draws dashes of its own.
  private static let dashKeywords: Set<String> = [
    "", "none", "inherit", "initial", "unset", "revert", "revert-layer", "context-value",
  ]

  /// A `stroke-dasharray` value: nil when it draws no dashes (`none`, a keyword, a length below 0,
  /// lengths that add up to 0); a length in a unit librsvg does not resolve, or anything else
  /// that is not a length, is refused.
  func dashPattern(_ raw: Substring, what: String, at offset: Int) throws(SVGDocumentCheck.Problem) -> Dash? {
    var value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    if let last = value.utf8.last, last | 0x20 == 0x74, value.lowercased().hasSuffix("!important") {
      value = String(value.dropLast(10))
    }
    if value.utf8.count <= 16, Self.dashKeywords.contains(value.trimmingCharacters(in: .whitespaces).lowercased()) {
      return nil
    }
    var dash = Dash(count: 0, offset: offset, what: what, value: value)
    for token in value.split(whereSeparator: { $0.isWhitespace || $0 == "," }) {
      guard let (number, unit) = Self.length(token) else { throw unknownDash(what, value, at: offset) }
      if number < 0 { return nil }  // librsvg ignores the declaration
      if let scale = Self.leastUnits[unit] {
        dash.units += number * scale
        dash.exact = dash.exact && (unit.isEmpty || unit == "px")
      } else if unit == "%" {
        dash.fractions += number / 100
        dash.exact = false
      } else if unit == "em" || unit == "ex" {
        dash.ems += unit == "em" ? number : number / 2
        dash.exact = false
      } else {
        throw unknownDash(what, value, at: offset)
      }
      dash.count += 1
    }
    let sum = dash.units + dash.fractions + dash.ems
    guard sum > 0, sum.isFinite, dash.count > 0 else { return nil }
    return dash
  }

  private func unknownDash(_ what: String, _ value: String, at offset: Int) -> SVGDocumentCheck.Problem {
    fail(
      "\(quoted: what) \"\(quoted: value, limit: 40)\": expected dash and gap lengths (numbers, or px, pt, pc, mm, "
        + "cm, in, %, em, ex)", at: offset)
  }

  /// The least positive sum the lengths of `dash` can have where it is drawn, in user units
  /// (``leastViewportDiagonal``, ``leastFontSize``): 0 when it has no bound above 0. With a font
  /// size of exactly 0 its em lengths are 0, and it draws no dashes if nothing else is left.
  func leastPeriod(_ dash: Dash) -> Double {
    let rest = dash.units + dash.fractions * leastViewportDiagonal
    let least = dash.ems > 0 && fontSizes.least.zero && rest > 0 ? rest : rest + dash.ems * leastFontSize
    return least.isFinite ? least : 0
  }

  /// The geometry, font sizes and dash patterns of element `index` (local name `name`).
  mutating func noteStrokes(
    _ index: Int, _ name: String, _ attributes: [(name: String, value: String, offset: Int)]
  ) throws(SVGDocumentCheck.Problem) {
    var value: [String: String] = [:]
    for a in attributes where value[a.name] == nil { value[a.name] = a.value }
    let shown = LottieJSON.shown(elements[index].name)
    // A viewport a percentage below may refer to.
    var sizes = ["viewBox"].compactMap { value[$0] }.flatMap { Self.listNumbers($0, upTo: 4).compactMap { $0 } }
    if ["svg", "symbol", "use", "marker", "pattern"].contains(name) {
      for key in ["width", "height", "markerWidth", "markerHeight"] { sizes.append(userLength(value[key]).units) }
    }
    for size in sizes where size.isFinite { viewport = max(viewport, abs(size)) }
    var styleSides: [String: String] = [:]
    // Geometry properties a `style` declaration gives (librsvg reads `width`, `height`, `r`, `rx`
    // and `ry` there too): each counts at the larger of it and the attribute.
    var style: [String: (units: Double, ems: Double)] = [:]
    for a in attributes {
      switch a.name {
      case "font-size": fontSizes.note(Substring(a.value), shorthand: false, sheet: false)
      case "stroke-dasharray":
        let what = "<\(quoted: shown) \(quoted: a.name)>"
        try keep(try dashPattern(Substring(a.value), what: what, at: a.offset), in: index)
      case "style":
        for (property, css) in Self.declarations(a.value, sheet: false) {
          switch property {
          case "stroke-dasharray":
            let what = "<\(quoted: shown) style> stroke-dasharray"
            try keep(try dashPattern(css, what: what, at: a.offset), in: index)
          case "font-size", "font": fontSizes.note(css, shorthand: property == "font", sheet: false)
          default:
            style[property] = Self.larger(style[property], userLength(String(css)))
            styleSides[property] = String(css)
          }
        }
      default: continue
      }
    }
    noteViewport(name, value, style: styleSides)
    func size(_ key: String) -> (units: Double, ems: Double) {
      Self.larger(userLength(value[key]), style[key] ?? (0, 0))
    }
    var length: (units: Double, ems: Double) = (0, 0)
    func add(_ part: (units: Double, ems: Double), times: Double = 1) {
      length = (length.units + part.units * times, length.ems + part.ems * times)
    }
    switch name {
    case "path": add((Self.outlineLength(value["d"] ?? ""), 0))
    case "polyline", "polygon":
      add((Self.outlineLength("M" + (value["points"] ?? "") + (name == "polygon" ? "Z" : "")), 0))
    case "rect":
      add(size("width"), times: 2)
      add(size("height"), times: 2)
    case "circle": add(size("r"), times: 2 * .pi)
    case "ellipse": add(Self.larger(size("rx"), size("ry")), times: 2 * .pi)
    case "line":
      for key in ["x1", "x2", "y1", "y2"] { add(userLength(value[key])) }
    default: break
    }
    if let pathLength = value["pathLength"].flatMap({ Self.length(Substring($0)) }), pathLength.1.isEmpty {
      length.units = max(length.units, abs(pathLength.0))
    }
    elements[index].length = length.units.isNaN ? .infinity : length.units
    elements[index].ems = length.ems.isNaN ? .infinity : length.ems
    if ["rect", "circle", "ellipse"].contains(name) { elements[index].shape = name }
  }

  /// The larger of two lengths, part by part.
  static func larger(_ a: (units: Double, ems: Double)?, _ b: (units: Double, ems: Double)) -> (
    units: Double, ems: Double
  ) {
    (max(a?.units ?? 0, b.units), max(a?.ems ?? 0, b.ems))
  }

  /// What a sheet's geometry properties (the largest `width` and `height`, `r`, `rx` and `ry` it
  /// gives, any rule) can add to each rectangle, circle and ellipse of the picture.
  var sheetShapeLengths: [String: (units: Double, ems: Double)] {
    func size(_ key: String) -> (units: Double, ems: Double) { sheetSizes[key] ?? (0, 0) }
    let (w, h, r) = (size("width"), size("height"), size("r"))
    let radius = Self.larger(size("rx"), size("ry"))
    return [
      "rect": (2 * (w.units + h.units), 2 * (w.ems + h.ems)),
      "circle": (2 * .pi * r.units, 2 * .pi * r.ems),
      "ellipse": (2 * .pi * radius.units, 2 * .pi * radius.ems),
    ]
  }

  /// Keeps an element's patterns (an attribute's, its `style`'s); the densest counts.
  private mutating func keep(_ dash: Dash?, in index: Int) throws(SVGDocumentCheck.Problem) {
    if let dash { elements[index].dashes.append(dash) }
  }

  /// A `<style>` sheet's dash patterns (each for the whole picture) and font sizes.
  mutating func sheetStrokes(_ css: String, at offset: Int) throws(SVGDocumentCheck.Problem) {
    for (property, value) in Self.declarations(css, sheet: true) {
      if property == "stroke-dasharray" {
        if let dash = try dashPattern(value, what: "a stylesheet's stroke-dasharray", at: offset) {
          sheetDashes.append(dash)
        }
      } else if property == "font-size" || property == "font" {
        fontSizes.note(value, shorthand: property == "font", sheet: true)
      } else {
        sheetSizes[property] = Self.larger(sheetSizes[property], userLength(String(value)))
        if property == "width" || property == "height" { viewports.noteSheet(value) }
      }
    }
  }

  /// The longest path data `d` may draw: its control polygon up to the first error, as librsvg
  /// draws it. Data Flick's reader stops on before its end is bounded by its numbers instead:
  /// every leg at most twice its largest magnitude times the numbers before it (unbounded with
  /// an arc, whose radii can stretch it).
  static func outlineLength(_ d: String) -> Double {
    let (path, complete) = ShapePath.svgPathDataPrefix(d)
    if !complete {
      if d.utf8.contains(where: { $0 | 0x20 == 0x61 }) { return .infinity }  // 'a', 'A'
      let (count, largest) = pathNumbers(d)
      let legs = Double(count + d.utf8.filter { (0x41...0x5A).contains($0 & ~0x20) }.count + 1)
      return legs * legs * 2 * 2.squareRoot() * largest
    }
    var total = 0.0
    var current = Point.zero
    var start = Point.zero
    func leg(_ a: Point, _ b: Point) -> Double { hypot(b.x - a.x, b.y - a.y) }
    for element in path.elements {
      switch element {
      case .move(let p):
        current = p
        start = p
      case .line(let p):
        total += leg(current, p)
        current = p
      case .curve(let p, let c1, let c2):
        total += leg(current, c1) + leg(c1, c2) + leg(c2, p)
        current = p
      case .closeSubpath:
        total += leg(current, start)
        current = start
      }
    }
    return total.isNaN ? .infinity : total
  }

  /// How many numbers path data holds and the largest magnitude among them, read as SVG's
  /// grammar reads them (`10-5` is two numbers).
  static func pathNumbers(_ d: String) -> (count: Int, largest: Double) {
    var count = 0
    var largest = 0.0
    let bytes = Array(d.utf8)
    var i = 0
    func isDigit(_ at: Int) -> Bool { at < bytes.count && (0x30...0x39).contains(bytes[at]) }
    while i < bytes.count {
      let start = i
      if bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
      var digits = 0
      while isDigit(i) { i += 1; digits += 1 }
      if i < bytes.count, bytes[i] == 0x2E {
        i += 1
        while isDigit(i) { i += 1; digits += 1 }
      }
      guard digits > 0 else {
        i = start + 1
        continue
      }
      if i < bytes.count, bytes[i] | 0x20 == 0x65 {
        var j = i + 1
        if j < bytes.count, bytes[j] == 0x2B || bytes[j] == 0x2D { j += 1 }
        if isDigit(j) {
          i = j
          while isDigit(i) { i += 1 }
        }
      }
      count += 1
      let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)).map(abs) ?? .infinity
      largest = max(largest, v.isNaN ? .infinity : v)
    }
    return (count, largest)
  }

  /// What the dashes of `dash` cost over `totals`: the dashes (at most; infinite when its
  /// lengths have no bound above 0), the length in user units, and the least period.
  func dashes(_ dash: Dash, over totals: Totals) -> (count: Double, length: Double, period: Double) {
    let length = totals.length + totals.ems * largestFontSize
    let period = leastPeriod(dash)
    let count = length > 0 ? length * Double(dash.count) / (2 * period) : 0
    return (count.isNaN ? .infinity : count, length.isNaN ? .infinity : length, period)
  }

  /// Refuses `dash` where it cuts `totals` into more than the cap.
  func checkDashes(_ dash: Dash, over totals: Totals) throws(SVGDocumentCheck.Problem) -> Double {
    let (count, length, period) = dashes(dash, over: totals)
    guard count > SVGDocumentCheck.maximumDashes else { return count }
    let text = totals.ems > 0 ? "paths and text" : "paths"
    let shown = LottieFeatureInspector.shownNumber
    guard period > 0 else {
      throw fail(
        "\(quoted: dash.what) \"\(quoted: dash.value, limit: 40)\": its lengths in %, em or ex have no size above 0 "
          + "here (a viewport or a font size of the picture can shrink without bound) over \(quoted: text) up to "
          + "\(quoted: shown(length)) user units long; expected lengths in user units, or % of viewports of a "
          + "given size (a viewBox, or width and height) and em of font sizes above 0", at: dash.offset)
    }
    throw fail(
      "\(quoted: dash.what): a dash pattern of \(dash.exact ? "" : "at least ")\(quoted: shown(period)) user units over "
        + "\(quoted: text) up to \(quoted: shown(length)) user units long "
        + "(\(quoted: shown(count)) dashes; up to "
        + "\(quoted: shown(SVGDocumentCheck.maximumDashes)) are drawn)", at: dash.offset)
  }

  /// The densest of `patterns` where they are drawn.
  func densest(_ patterns: [Dash]) -> Dash? {
    patterns.max { Double($0.count) / leastPeriod($0) < Double($1.count) / leastPeriod($1) }
  }
}
