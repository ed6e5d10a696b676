import Foundation

/// The sizes a dash length in `%`, `em` or `ex` resolves against, for the dash count of
/// ``SVGDocumentScanner`` (SVGDocumentScanner+Dashes.swift): a dash count is an upper bound, so a
/// dash length counts at the least it can be, and a pattern counts at the least its lengths can
/// add up to while still drawing dashes. librsvg (length.rs, `CssLength::to_user`) resolves a
/// dash length in `%` against the normalized diagonal √((w² + h²) / 2) of the current viewport,
/// one in `em` against the element's computed font size (`ex` at half of it), and lengths in
/// absolute units at its default 90 dots an inch; `setup_cr_for_stroke` (drawing_ctx.rs) draws a
/// pattern whose lengths add up to 0 as a solid stroke.
extension SVGDocumentScanner {
  /// User units per absolute unit at the fewest dots an inch librsvg can use (its default, 90;
  /// 96 is the CSS one): the least a dash length in these units can be.
  static let leastUnits: [String: Double] = [
    "": 1, "px": 1, "pt": 90.0 / 72, "pc": 15, "mm": 90 / 25.4, "cm": 90 / 2.54, "in": 90, "q": 90 / 101.6,
  ]

  /// The smallest font size a picture's text can take, in user units, beside the largest
  /// (``FontSizeBound``): the smallest absolute size it names (12, librsvg's initial size, at
  /// most; `xx-small` is 12 pt · 1.2⁻³ at 90 dots an inch) times its smallest relative factor
  /// (`em`, `ex`, `%`, `smaller`) once for each level of the expanded document it can apply at.
  /// A size or factor of 0 makes a size of exactly 0 (`zero`), where a dash length in em is 0.
  struct SmallestFontSize {
    var absolute = 12.0
    var factor = 1.0
    var shrinking = 0
    var inSheet = false
    var zero = false

    func smallest(levels: Int) -> Double {
      let applied = inSheet ? levels : min(shrinking, levels)
      let size = absolute * pow(factor, Double(applied))
      return size.isFinite ? size : 0
    }

    mutating func note(_ word: String, _ length: (Double, String)?, sheet: Bool) {
      if word.contains("small") {
        // `smaller` divides the parent's size by 1.2; `xx-small` is 12 pt · 1.2⁻³ at 90 dots an inch.
        if word == "smaller" { relative(1 / 1.2, sheet: sheet) } else { absolute = min(absolute, 12 / 1.728 * 1.25) }
        return
      }
      guard let (number, unit) = length else { return }
      if let scale = SVGDocumentScanner.leastUnits[unit] {
        let size = abs(number) * scale
        if size == 0 { zero = true } else { absolute = min(absolute, size) }
      } else if let per = ["%": 100.0, "em": 1, "ex": 2][unit] {
        relative(abs(number) / per, sheet: sheet)
      }
    }

    private mutating func relative(_ f: Double, sheet: Bool) {
      if f == 0 { zero = true }
      guard f > 0, f < 1 else { return }
      factor = min(factor, f)
      if sheet { inSheet = true } else { shrinking += 1 }
    }
  }

  /// The smallest normalized diagonal a viewport of the picture can have: the smallest of those
  /// whose size is known (a `viewBox`, else `width` and `height`, or a marker's `markerWidth`
  /// and `markerHeight`; 1 × 1 for `objectBoundingBox` content) times the factors of those sized
  /// in percentages of the viewport around them, each once (a viewport sits in each other at
  /// most once along a chain of elements and references). A sheet's percentage may apply to
  /// every viewport up to the expanded document's depth.
  struct SmallestViewport {
    var absolute = Double.infinity
    var factor = 1.0
    var sheetFactor = 1.0
    var viewports = 0
    var unbounded = false

    func diagonal(levels: Int) -> Double {
      guard !unbounded, absolute.isFinite else { return 0 }
      let d = absolute * factor * pow(sheetFactor, Double(min(viewports, levels)))
      return d.isFinite ? d : 0
    }

    static func diagonal(_ w: Double, _ h: Double) -> Double { ((w * w + h * h) / 2).squareRoot() }

    /// A side of a viewport as librsvg reads it: user units, a fraction of the viewport around
    /// it, or neither (em, ex); nil where it is not a length or below 0 (the default applies).
    enum Side {
      case units(Double)
      case fraction(Double)
      case font
    }

    static func side(_ raw: String?) -> Side? {
      guard let word = raw?.split(whereSeparator: { $0.isWhitespace }).first,
        let (number, unit) = SVGDocumentScanner.length(word), number >= 0, number.isFinite
      else { return nil }
      if let scale = SVGDocumentScanner.leastUnits[unit] { return .units(number * scale) }
      if unit == "%" { return .fraction(number / 100) }
      return unit == "em" || unit == "ex" ? .font : nil
    }

    /// Notes a viewport of sides `w` and `h` (nil: the default, `fallback`).
    mutating func note(_ w: Side?, _ h: Side?, fallback: Side) {
      switch (w ?? fallback, h ?? fallback) {
      case (.units(0), _), (_, .units(0)), (.fraction(0), _), (_, .fraction(0)): return  // not drawn
      case (.units(let a), .units(let b)): absolute = min(absolute, Self.diagonal(a, b))
      case (.units(let a), _), (_, .units(let a)): absolute = min(absolute, a / 2.squareRoot())
      case (.fraction(let p), .fraction(let q)): factor *= min(1, p, q)
      default: unbounded = true  // a side in em over one in % or em: no size below it is known
      }
      viewports += 1
    }

    /// Notes a `viewBox` value: true when it gives the viewport (4 numbers, a size above 0).
    mutating func noteViewBox(_ raw: String?) -> Bool {
      guard let raw else { return false }
      let numbers = SVGDocumentScanner.listNumbers(raw, upTo: 5)
      guard numbers.count == 4, let w = numbers[2], let h = numbers[3], w >= 0, h >= 0 else { return false }
      if w > 0, h > 0 { absolute = min(absolute, Self.diagonal(w, h)) }
      return true
    }

    /// Notes a sheet's `width` or `height`, which may size any viewport.
    mutating func noteSheet(_ raw: Substring) {
      switch Self.side(String(raw)) {
      case .units(let a)? where a > 0: absolute = min(absolute, a / 2.squareRoot())
      case .fraction(let p)? where p > 0: sheetFactor = min(sheetFactor, p)
      case .font?: unbounded = true
      default: break
      }
    }
  }

  /// Notes the viewport element `name` gives its content, from its attributes `value` and the
  /// `width` and `height` of its `style` (which override the attributes).
  mutating func noteViewport(_ name: String, _ value: [String: String], style: [String: String]) {
    let sides = (style["width"] ?? value["width"], style["height"] ?? value["height"])
    switch name {
    case "svg":
      if !viewports.noteViewBox(value["viewBox"]) {
        viewports.note(SmallestViewport.side(sides.0), SmallestViewport.side(sides.1), fallback: .fraction(1))
      }
    case "use":  // a <symbol> or <svg> it draws takes its size
      viewports.note(SmallestViewport.side(sides.0), SmallestViewport.side(sides.1), fallback: .fraction(1))
    case "symbol": _ = viewports.noteViewBox(value["viewBox"])
    case "marker":
      if !viewports.noteViewBox(value["viewBox"]) {
        viewports.note(
          SmallestViewport.side(value["markerWidth"]), SmallestViewport.side(value["markerHeight"]),
          fallback: .units(3))
      }
    case "pattern", "mask":
      let units = value[name == "mask" ? "maskContentUnits" : "patternContentUnits"] ?? ""
      if !(name == "pattern" && viewports.noteViewBox(value["viewBox"])), units.contains("objectBoundingBox") {
        viewports.absolute = min(viewports.absolute, 1)
      }
    default: break
    }
  }

  /// The most elements a chain through the expanded document can hold (children and references,
  /// a sheet's references once each): the most levels an inherited font size or a nested
  /// viewport can compound over. A cycle counts nothing here; ``expand()`` refuses it.
  func expandedDepth() -> Int {
    var memo: [Int: Int] = [:]
    var open: Set<Int> = []
    func depth(_ index: Int) -> Int {
      if let known = memo[index] { return known }
      guard !open.contains(index), open.count < 5 * SVGDocumentCheck.maximumDepth else { return 0 }
      open.insert(index)
      var deepest = 0
      for child in elements[index].children { deepest = max(deepest, depth(child)) }
      for reference in elements[index].references {
        if let target = ids[reference.id] { deepest = max(deepest, depth(target)) }
      }
      open.remove(index)
      memo[index] = deepest + 1
      return deepest + 1
    }
    let sheet = sheetReferences.reduce(0) { $0 + (ids[$1.id].map(depth) ?? 0) }
    return (roots.map(depth).max() ?? 0) + sheet
  }
}
