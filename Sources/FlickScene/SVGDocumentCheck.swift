import FlickMotion
import Foundation

/// What Flick checks in an SVG picture before librsvg is given it: that it names no other file
/// and cannot make librsvg work without bound.
///
/// librsvg gets the file's bytes without a base location, so it resolves no path or `file:`
/// URL (only `data:`), but Flick does not rely on that alone. The document is scanned (XML's
/// own entities and character references only; no DTD internal subset) and refused, with its
/// line and column, when:
/// - a reference names anything but an element of the same document: an `href` (any prefix,
///   such as `xlink:href`) that is not `#id`, except an `<a>` link (never loaded) and an
///   `<image>` embedding a base64 PNG or JPEG within the pixel cap; a CSS `url(…)` that is not
///   `url(#id)`; `@import`; an `<?xml-stylesheet?>`; XInclude; a CSS escape (`\`), which could
///   spell any of these;
/// - it is larger than ``maximumFileSize``, has more than ``maximumElements`` elements, nests
///   them deeper than ``maximumDepth`` or gives one more than ``maximumAttributes`` attributes;
///   one element's `d` or `points` over ``maximumPathNumbers`` numbers is refused where it is;
/// - its text (with every reference expanded) is over ``maximumTextCharacters`` characters;
/// - references multiply past the caps: every `<use>`, `url(#id)` and `href="#id"` draws its
///   target again (a marker once per vertex), so the document expanded with every reference is
///   counted and may have at most ``maximumInstances`` elements and ``maximumPathNumbers``
///   path coordinates (`d`, `points`); a reference cycle is refused;
/// - its dashed strokes would cut what they stroke into more than ``maximumDashes`` dashes, every
///   reference expanded (each pattern against everything it can stroke; SVGDocumentScanner+Dashes.swift;
///   a length in `%`, `em` or `ex` at the least it can resolve to), or a dash length in `%` or
///   `em` has no size above 0 it can be bounded by;
/// - a filter primitive asks librsvg for work it does not bound, or that crashes it: a
///   `<feConvolveMatrix>` kernel over ``maximumKernelNumbers`` numbers or an `order` over
///   ``maximumKernelOrder``, a `<feTurbulence>` of more than ``maximumTurbulenceOctaves``
///   octaves; a number list longer than librsvg reads or needs (``maximumListNumbers(element:attribute:)``).
///
/// The scan is one pass over the bytes whose work is linear in the file's size (no value is
/// copied per number or re-read per reference), and bytes accepted once are not scanned again
/// (``wasAccepted(_:maximumPixels:)``).
package enum SVGDocumentCheck {
  /// The largest SVG picture read, in bytes (4 MiB).
  package static let maximumFileSize = 4 << 20
  /// The most elements in the file (10,000).
  package static let maximumElements = 10_000
  /// How deeply elements may nest (64).
  package static let maximumDepth = 64
  /// The most elements the document draws with every reference expanded (10,000 instances,
  /// as a template's components).
  package static let maximumInstances = 10_000
  /// The most numbers in path data (`d`) and point lists (`points`) with every reference
  /// expanded: 10,000 numbers, about 5,000 points. librsvg's time to stroke a path grows with the
  /// square of its crossing segments: 10,000 random segments across 512² take 12 s, 150,000
  /// minutes (measured 2026-12-02 on the 2-core machine).
  package static let maximumPathNumbers = ShapePath.maximumSVGPathElements
  /// The most attributes on one element (1,000; an exported icon's elements have a handful).
  package static let maximumAttributes = 1_000
  /// The most characters of text (the content of `<text>` and what it holds) with every
  /// reference expanded: 100,000. librsvg lays text out with Pango, and 4 million characters in
  /// a 4 MiB picture took 14 s and 1.5 GB; a label or a poster's copy is far below the cap.
  package static let maximumTextCharacters = 100_000

  /// Why an SVG picture is refused, and where (1-based line and column).
  package struct Problem: Error, Sendable {
    package var line: Int
    package var column: Int
    package var message: String
  }

  /// What an accepted picture holds that costs memory beyond its own drawing.
  package struct Summary: Sendable, Equatable {
    /// The pixels of each distinct embedded image (librsvg decodes each `href` once per
    /// document and keeps it).
    package var imagePixels: [Int] = []
  }

  /// Checks the SVG `data`; `maximumPixels` caps every embedded image. Bytes accepted before
  /// under the same or a smaller cap are not scanned again (``wasAccepted(_:maximumPixels:)``).
  @discardableResult
  package static func check(_ data: Data, maximumPixels: Int) throws(Problem) -> Summary {
    guard data.count <= maximumFileSize else {
      throw Problem(line: 1, column: 1, message: "the SVG is larger than \(maximumFileSize >> 20) MiB")
    }
    if let summary = accepted(data, maximumPixels: maximumPixels) { return summary }
    var scanner = SVGDocumentScanner(bytes: [UInt8](data), maximumPixels: maximumPixels)
    try scanner.scan()
    try scanner.expand()
    let summary = Summary(imagePixels: Array(scanner.imagePixels.values))
    remember(data, maximumPixels: maximumPixels, summary: summary)
    return summary
  }
}

/// The scanner behind ``SVGDocumentCheck``: one pass over the XML building a flat element tree
/// (ids, references, path numbers), then the expansion count.
struct SVGDocumentScanner {
  let bytes: [UInt8]
  let maximumPixels: Int
  var tokens: XMLTokenizer

  struct Element {
    var name: String
    var offset: Int
    var children: [Int] = []
    /// Numbers in its own `d` / `points`.
    var numbers = 0
    /// Characters of text directly in it, inside a `<text>`.
    var characters = 0
    /// `#id` targets it draws, each with how many times (a marker: once per vertex).
    var references: [(id: String, times: Int, offset: Int)] = []
    /// The longest its own geometry may be, in user units and in em of a font size.
    var length = 0.0
    var ems = 0.0
    /// Its own dash patterns (an attribute's, its `style`'s).
    var dashes: [Dash] = []
    /// `rect`, `circle` or `ellipse` (a sheet's sizes may apply to it), else empty.
    var shape = ""
  }
  var elements: [Element] = []
  var ids: [String: Int] = [:]
  var stack: [Int] = []
  /// The `<filter>` elements whose `primitiveUnits` are `objectBoundingBox`.
  var boundingBoxFilters: Set<Int> = []
  var roots: [Int] = []
  /// The pixels of each embedded image, by its `href` as written.
  var imagePixels: [String: Int] = [:]
  /// Stylesheet references (`<style>`), applied to every element / every vertex at the end.
  var sheetReferences: [(id: String, marker: Bool, offset: Int)] = []
  /// Stylesheet dash patterns, applied to the whole picture at the end.
  var sheetDashes: [Dash] = []
  /// The largest shape sizes a stylesheet gives (`width`, `height`, `r`, `rx`, `ry`).
  var sheetSizes: [String: (units: Double, ems: Double)] = [:]
  /// What those add to a rectangle, circle or ellipse (set before the count).
  var sheetShapes: [String: (units: Double, ems: Double)] = [:]
  /// The font sizes the picture names, and the largest its text can take (set before the count).
  var fontSizes = FontSizeBound()
  var largestFontSize = 12.0
  /// The least positive font size and viewport diagonal a length in em or % can resolve against
  /// (set before the count), and the viewports seen.
  var leastFontSize = 12.0
  var leastViewportDiagonal = 0.0
  var viewports = SmallestViewport()
  /// The largest viewport a percentage seen so far may refer to.
  var viewport = SVGDocumentCheck.viewportBound

  init(bytes: [UInt8], maximumPixels: Int) {
    self.bytes = bytes
    self.maximumPixels = maximumPixels
    tokens = XMLTokenizer(bytes: bytes)
  }

  func fail(_ message: String, at offset: Int? = nil) -> SVGDocumentCheck.Problem {
    let (line, column) = LottieJSON.location(of: offset ?? tokens.offset, in: bytes)
    return SVGDocumentCheck.Problem(line: line, column: column, message: message)
  }

  /// A syntax error of the tokenizer in `bytes` as this scanner's problem.
  static func invalid(_ error: XMLTokenizer.SyntaxError, in bytes: [UInt8]) -> SVGDocumentCheck.Problem {
    let (line, column) = LottieJSON.location(of: error.offset, in: bytes)
    return SVGDocumentCheck.Problem(
      line: line, column: column, message: "not a valid SVG file: \(escaped: error.message)")
  }

  func invalid(_ error: XMLTokenizer.SyntaxError) -> SVGDocumentCheck.Problem { Self.invalid(error, in: bytes) }

  static func localName(_ qualified: String) -> String { XMLTokenizer.localName(qualified) }

  /// How many `<style>` elements are open: while one is, its text (split by comments or CDATA
  /// sections as it may be) is gathered in ``styleText`` and checked whole when it closes.
  var openStyles = 0
  var inStyle: Bool { openStyles > 0 }
  /// How many `<text>` elements are open: while one is, character data counts as text drawn.
  var openTexts = 0
  /// The text characters seen so far (the file's own, before references are expanded).
  var characters = 0
  var styleText = ""
  var styleOffset = 0

  mutating func closed() throws(SVGDocumentCheck.Problem) {
    guard let last = stack.popLast() else { return }
    if Self.localName(elements[last].name) == "text" { openTexts -= 1 }
    if Self.localName(elements[last].name) == "style" {
      openStyles -= 1
      if openStyles == 0 {
        try styleSheet(styleText, at: styleOffset)
        styleText = ""
      }
    }
  }

  mutating func scan() throws(SVGDocumentCheck.Problem) {
    while let token = try tokens.next(failing: Self.invalid) {
      switch token {
      case .text(let range):
        try countText(range)
        guard inStyle else { continue }
        do throws(XMLTokenizer.SyntaxError) {
          styleText += try XMLTokenizer.decodeEntities(
            String(decoding: bytes[range], as: UTF8.self), at: range.lowerBound)
        } catch {
          throw invalid(error)
        }
      case .cdata(let range):
        try countText(range)
        if inStyle { styleText += String(decoding: bytes[range], as: UTF8.self) }
      case .processingInstruction(let text, let offset):
        if text.lowercased().hasPrefix("<?xml-stylesheet") {
          throw fail("an <?xml-stylesheet?> (another file) is not read", at: offset)
        }
      case .skipped:
        continue
      case .end(let name, let offset):
        guard let open = stack.last, elements[open].name == name else {
          let expected = stack.last.map { "<\(quoted: elements[$0].name)> is open" } ?? "nothing is open"
          throw fail("not a valid SVG file: </\(quoted: name)> where \(escaped: expected)", at: offset)
        }
        try closed()
      case .start(let name, let attributes, let selfClosing, let offset):
        try startTag(name, attributes, selfClosing: selfClosing, at: offset)
      }
    }
    if let open = stack.last {
      throw fail("not a valid SVG file: <\(quoted: elements[open].name)> is not closed")
    }
    guard !roots.isEmpty else { throw fail("not a valid SVG file: no element") }
  }

  mutating func startTag(
    _ qualified: String, _ attributes: [XMLTokenizer.Attribute], selfClosing: Bool, at start: Int
  ) throws(SVGDocumentCheck.Problem) {
    guard elements.count < SVGDocumentCheck.maximumElements else {
      throw fail("more than \(SVGDocumentCheck.maximumElements) elements", at: start)
    }
    let index = elements.count
    elements.append(Element(name: qualified, offset: start))
    if let parent = stack.last { elements[parent].children.append(index) } else { roots.append(index) }
    stack.append(index)
    guard stack.count <= SVGDocumentCheck.maximumDepth else {
      throw fail("elements are nested deeper than \(SVGDocumentCheck.maximumDepth) levels", at: start)
    }
    if attributes.count > SVGDocumentCheck.maximumAttributes {
      throw fail(
        "<\(quoted: LottieJSON.shown(qualified))> has more than \(SVGDocumentCheck.maximumAttributes) attributes",
        at: attributes[SVGDocumentCheck.maximumAttributes].offset)
    }
    if Self.localName(qualified) == "text" { openTexts += 1 }
    if Self.localName(qualified) == "style" {
      if openStyles == 0 { styleOffset = start }
      openStyles += 1
    }
    try element(index, attributes.map { ($0.name, $0.value, $0.offset) })
    if selfClosing { try closed() }
  }

  mutating func element(_ index: Int, _ attributes: [(name: String, value: String, offset: Int)])
    throws(SVGDocumentCheck.Problem)
  {
    let qualified = elements[index].name
    let name = Self.localName(qualified)
    let shownName = LottieJSON.shown(qualified)
    if name == "include", qualified.contains(":") {
      throw fail("<\(quoted: shownName)> (XInclude of another file) is not read", at: elements[index].offset)
    }
    if name == "filter",
      attributes.contains(where: {
        Self.localName($0.name) == "primitiveUnits" && $0.value.contains("objectBoundingBox")
      })
    {
      boundingBoxFilters.insert(index)
    }
    let parent = stack.count >= 2 ? stack[stack.count - 2] : nil
    try filterPrimitive(name, attributes, boundingBox: parent.map { boundingBoxFilters.contains($0) } ?? false)
    for a in attributes where a.name == "d" || a.name == "points" {
      // Refused here, before the rest of the file is read, when this element alone is over the cap.
      let limit = SVGDocumentCheck.maximumPathNumbers - elements[index].numbers
      let count = Self.countNumbers(a.value, upTo: limit)
      guard count <= limit else {
        throw fail(
          "<\(quoted: shownName) \(quoted: a.name)>: more than \(SVGDocumentCheck.maximumPathNumbers) numbers "
            + "(about \(quoted: SVGDocumentCheck.maximumPathNumbers / 2) points)", at: a.offset)
      }
      elements[index].numbers += count
    }
    let vertices = max(1, elements[index].numbers / 2)
    for a in attributes {
      let attribute = Self.localName(a.name)
      if attribute == "id" {
        if ids[a.value] == nil { ids[a.value] = index }
        continue
      }
      if attribute == "href" {
        let target = a.value.trimmingCharacters(in: .whitespacesAndNewlines)
        if name == "a" { continue }  // a link: never loaded
        if target.hasPrefix("#") {
          elements[index].references.append((String(target.dropFirst()), 1, a.offset))
        } else if name == "image", target.hasPrefix("data:") {
          do {
            let header = try ImageHeader.embedded(target, maximumPixels: maximumPixels).header
            imagePixels[a.value] = header.width * header.height
          } catch {
            throw fail("<\(quoted: shownName) \(quoted: a.name)>: \(escaped: error.reason)", at: a.offset)
          }
        } else {
          throw fail(
            "<\(quoted: shownName) \(quoted: a.name)=\"\(quoted: target)\">: an SVG picture may only refer to "
              + "its own elements (#id) and embed PNG or JPEG images as data: URIs; another file is not read",
            at: a.offset)
        }
        continue
      }
      let marker = attribute.hasPrefix("marker")
      for reference in try urls(a.value, sheet: false, style: attribute == "style", at: a.offset) {
        elements[index].references.append((reference.id, marker || reference.marker ? vertices : 1, a.offset))
      }
    }
    try noteStrokes(index, name, attributes)
  }

  /// Counts the characters (UTF-8 sequences, an entity as the bytes it is written with) of the
  /// character data in `range` when a `<text>` is open, for the innermost open element; the
  /// file's own text over the cap is refused where it passes it.
  mutating func countText(_ range: Range<Int>) throws(SVGDocumentCheck.Problem) {
    guard openTexts > 0, let open = stack.last else { return }
    var count = 0
    for byte in bytes[range] where byte & 0xC0 != 0x80 { count += 1 }
    elements[open].characters += count
    characters += count
    guard characters <= SVGDocumentCheck.maximumTextCharacters else {
      throw fail(
        "more than \(SVGDocumentCheck.maximumTextCharacters) characters of text", at: range.lowerBound)
    }
  }

  /// The numbers in path data or a point list, counted up to one past `limit` (then it stops).
  static func countNumbers(_ text: String, upTo limit: Int = .max) -> Int {
    var count = 0
    var inNumber = false
    for byte in text.utf8 {
      let digit = (0x30...0x39).contains(byte) || byte == 0x2E
      if digit && !inNumber {
        count += 1
        if count > limit { return count }
      }
      inNumber = digit || (inNumber && (byte == 0x65 || byte == 0x45))
    }
    return count
  }
}
