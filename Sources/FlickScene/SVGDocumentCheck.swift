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
/// - it is larger than ``maximumFileSize``, has more than ``maximumElements`` elements or nests
///   them deeper than ``maximumDepth``;
/// - references multiply past the caps: every `<use>`, `url(#id)` and `href="#id"` draws its
///   target again (a marker once per vertex), so the document expanded with every reference is
///   counted and may have at most ``maximumInstances`` elements and ``maximumPathNumbers``
///   path coordinates (`d`, `points`); a reference cycle is refused.
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

  /// Why an SVG picture is refused, and where (1-based line and column).
  package struct Problem: Error, Sendable {
    package var line: Int
    package var column: Int
    package var message: String
  }

  /// Checks the SVG `data`; `maximumPixels` caps every embedded image.
  package static func check(_ data: Data, maximumPixels: Int) throws(Problem) {
    guard data.count <= maximumFileSize else {
      throw Problem(line: 1, column: 1, message: "the SVG is larger than \(maximumFileSize >> 20) MiB")
    }
    var scanner = SVGDocumentScanner(bytes: [UInt8](data), maximumPixels: maximumPixels)
    try scanner.scan()
    try scanner.expand()
  }
}

/// The scanner behind ``SVGDocumentCheck``: one pass over the XML building a flat element tree
/// (ids, references, path numbers), then the expansion count.
struct SVGDocumentScanner {
  let bytes: [UInt8]
  let maximumPixels: Int
  var i = 0

  struct Element {
    var name: String
    var offset: Int
    var children: [Int] = []
    /// Numbers in its own `d` / `points`.
    var numbers = 0
    /// `#id` targets it draws, each with how many times (a marker: once per vertex).
    var references: [(id: String, times: Int, offset: Int)] = []
  }
  var elements: [Element] = []
  var ids: [String: Int] = [:]
  var stack: [Int] = []
  var roots: [Int] = []
  /// Stylesheet references (`<style>`), applied to every element / every vertex at the end.
  var sheetReferences: [(id: String, marker: Bool, offset: Int)] = []

  init(bytes: [UInt8], maximumPixels: Int) {
    self.bytes = bytes
    self.maximumPixels = maximumPixels
  }

  func fail(_ message: String, at offset: Int? = nil) -> SVGDocumentCheck.Problem {
    let (line, column) = LottieJSON.location(of: offset ?? i, in: bytes)
    return SVGDocumentCheck.Problem(line: line, column: column, message: message)
  }

  func starts(with s: String) -> Bool {
    let u = Array(s.utf8)
    return i + u.count <= bytes.count && Array(bytes[i..<(i + u.count)]) == u
  }

  mutating func skip(past end: String, what: String) throws(SVGDocumentCheck.Problem) -> Range<Int> {
    let start = i
    let u = Array(end.utf8)
    while i + u.count <= bytes.count {
      if bytes[i] == u[0] && Array(bytes[i..<(i + u.count)]) == u {
        i += u.count
        return start..<(i - u.count)
      }
      i += 1
    }
    throw fail("not a valid SVG file: \(quoted: what) is not closed", at: start)
  }

  static func localName(_ qualified: String) -> String {
    guard let colon = qualified.lastIndex(of: ":") else { return qualified }
    return String(qualified[qualified.index(after: colon)...])
  }

  /// Whether a `<style>` element is open: its text (split by comments or CDATA sections as it
  /// may be) is gathered in ``styleText`` and checked whole when it closes.
  var inStyle: Bool { stack.contains { Self.localName(elements[$0].name) == "style" } }
  var styleText = ""
  var styleOffset = 0

  mutating func closed() throws(SVGDocumentCheck.Problem) {
    guard let last = stack.popLast() else { return }
    if Self.localName(elements[last].name) == "style", !inStyle {
      try styleSheet(styleText, at: styleOffset)
      styleText = ""
    }
  }

  mutating func scan() throws(SVGDocumentCheck.Problem) {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    while i < bytes.count {
      guard bytes[i] == 0x3C else {  // '<'
        let start = i
        while i < bytes.count, bytes[i] != 0x3C { i += 1 }
        if inStyle { styleText += try decodeEntities(String(decoding: bytes[start..<i], as: UTF8.self), at: start) }
        continue
      }
      if starts(with: "<!--") {
        _ = try skip(past: "-->", what: "a comment")
      } else if starts(with: "<![CDATA[") {
        let text = try skip(past: "]]>", what: "a CDATA section")
        if inStyle { styleText += String(decoding: bytes[(text.lowerBound + 9)..<text.upperBound], as: UTF8.self) }
      } else if starts(with: "<?") {
        let start = i
        let text = String(decoding: bytes[try skip(past: "?>", what: "a processing instruction")], as: UTF8.self)
        if text.lowercased().hasPrefix("<?xml-stylesheet") {
          throw fail("an <?xml-stylesheet?> (another file) is not read", at: start)
        }
      } else if starts(with: "<!") {
        let start = i
        while i < bytes.count, bytes[i] != 0x3E {
          if bytes[i] == 0x5B { throw fail("a DOCTYPE with declarations (entities) is not read", at: start) }
          i += 1
        }
        guard i < bytes.count else { throw fail("not a valid SVG file: a declaration is not closed", at: start) }
        i += 1
      } else if starts(with: "</") {
        let start = i
        i += 2
        let name = readName()
        skipSpace()
        guard i < bytes.count, bytes[i] == 0x3E else {
          throw fail("not a valid SVG file: expected '>' after </\(quoted: name)", at: start)
        }
        i += 1
        guard let open = stack.last, elements[open].name == name else {
          let expected = stack.last.map { "<\(quoted: elements[$0].name)> is open" } ?? "nothing is open"
          throw fail("not a valid SVG file: </\(quoted: name)> where \(quoted: expected)", at: start)
        }
        try closed()
      } else {
        try startTag()
      }
    }
    if let open = stack.last {
      throw fail("not a valid SVG file: <\(quoted: elements[open].name)> is not closed")
    }
    guard !roots.isEmpty else { throw fail("not a valid SVG file: no element") }
  }

  mutating func skipSpace() {
    while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
  }

  mutating func readName() -> String {
    let start = i
    while i < bytes.count, !([0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F, 0x3D, 0x3C].contains(bytes[i])) { i += 1 }
    return String(decoding: bytes[start..<i], as: UTF8.self)
  }

  mutating func startTag() throws(SVGDocumentCheck.Problem) {
    let start = i
    i += 1
    let qualified = readName()
    guard !qualified.isEmpty else { throw fail("not a valid SVG file: expected an element name after '<'", at: start) }
    var attributes: [(name: String, value: String, offset: Int)] = []
    var selfClosing = false
    while true {
      skipSpace()
      guard i < bytes.count else { throw fail("not a valid SVG file: a tag is not closed", at: start) }
      if bytes[i] == 0x3E {
        i += 1
        break
      }
      if bytes[i] == 0x2F {
        guard i + 1 < bytes.count, bytes[i + 1] == 0x3E else { throw fail("not a valid SVG file: expected '/>'") }
        i += 2
        selfClosing = true
        break
      }
      let at = i
      let name = readName()
      guard !name.isEmpty else { throw fail("not a valid SVG file: expected an attribute name") }
      guard !attributes.contains(where: { $0.name == name }) else {
        throw fail("not a valid SVG file: the attribute \(quoted: name) is given twice", at: at)
      }
      skipSpace()
      guard i < bytes.count, bytes[i] == 0x3D else {
        throw fail("not a valid SVG file: expected '=' after an attribute name")
      }
      i += 1
      skipSpace()
      guard i < bytes.count, bytes[i] == 0x22 || bytes[i] == 0x27 else {
        throw fail("not a valid SVG file: expected a quoted attribute value")
      }
      let quote = bytes[i]
      i += 1
      let valueStart = i
      while i < bytes.count, bytes[i] != quote {
        if bytes[i] == 0x3C { throw fail("not a valid SVG file: '<' in an attribute value") }
        i += 1
      }
      guard i < bytes.count else {
        throw fail("not a valid SVG file: an attribute value is not closed", at: valueStart)
      }
      let raw = String(decoding: bytes[valueStart..<i], as: UTF8.self)
      i += 1
      attributes.append((name, try decodeEntities(raw, at: valueStart), at))
    }
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
    if Self.localName(qualified) == "style",
      stack.count == 1 || !stack.dropLast().contains(where: { Self.localName(elements[$0].name) == "style" })
    {
      styleOffset = start
    }
    try element(index, attributes)
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
    for a in attributes where a.name == "d" || a.name == "points" {
      elements[index].numbers += Self.countNumbers(a.value)
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
            _ = try ImageHeader.embedded(target, maximumPixels: maximumPixels)
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
      guard a.value.lowercased().contains("url(") || attribute == "style" || a.value.contains("\\") else {
        continue
      }
      if attribute == "style" {
        for declaration in a.value.split(separator: ";") {
          let parts = declaration.split(separator: ":", maxSplits: 1)
          guard parts.count == 2 else { continue }
          let marker = parts[0].trimmingCharacters(in: .whitespaces).hasPrefix("marker")
          for id in try urls(String(parts[1]), at: a.offset) {
            elements[index].references.append((id, marker ? vertices : 1, a.offset))
          }
        }
      } else {
        for id in try urls(a.value, at: a.offset) {
          elements[index].references.append((id, attribute.hasPrefix("marker") ? vertices : 1, a.offset))
        }
      }
    }
  }

  /// The `#id` targets of every `url(…)` in CSS text; anything else is refused.
  func urls(_ css: String, at offset: Int) throws(SVGDocumentCheck.Problem) -> [String] {
    guard !css.contains("\\") else { throw fail("a CSS escape ('\\') is not read in an SVG picture", at: offset) }
    if css.lowercased().contains("@import") { throw fail("a CSS @import (another file) is not read", at: offset) }
    var out: [String] = []
    var rest = Substring(css)
    while let range = rest.range(of: "url(", options: .caseInsensitive) {
      guard let close = rest[range.upperBound...].firstIndex(of: ")") else {
        throw fail("a CSS url( is not closed", at: offset)
      }
      let target = rest[range.upperBound..<close].trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r\"'"))
      guard target.hasPrefix("#") else {
        throw fail(
          "url(\(quoted: target)): an SVG picture may only refer to its own elements (url(#id)); another file "
            + "is not read", at: offset)
      }
      out.append(String(target.dropFirst()))
      rest = rest[rest.index(after: close)...]
    }
    return out
  }

  /// A `<style>` sheet: its references apply to every element (markers: every vertex).
  mutating func styleSheet(_ css: String, at offset: Int) throws(SVGDocumentCheck.Problem) {
    for rule in css.split(separator: "}") {
      for declaration in rule.split(whereSeparator: { $0 == ";" || $0 == "{" }) {
        let parts = declaration.split(separator: ":", maxSplits: 1)
        let marker = parts.first?.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("marker") ?? false
        for id in try urls(String(declaration), at: offset) { sheetReferences.append((id, marker, offset)) }
      }
    }
  }

  static func countNumbers(_ text: String) -> Int {
    var count = 0
    var inNumber = false
    for byte in text.utf8 {
      let digit = (0x30...0x39).contains(byte) || byte == 0x2E
      if digit && !inNumber { count += 1 }
      inNumber = digit || (inNumber && (byte == 0x65 || byte == 0x45))
    }
    return count
  }

  func decodeEntities(_ s: String, at offset: Int) throws(SVGDocumentCheck.Problem) -> String {
    guard s.contains("&") else { return s }
    var out = ""
    var rest = Substring(s)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      guard let semi = rest[amp...].firstIndex(of: ";") else {
        throw fail("not a valid SVG file: '&' without ';'", at: offset)
      }
      let name = rest[rest.index(after: amp)..<semi]
      switch name {
      case "amp": out += "&"
      case "lt": out += "<"
      case "gt": out += ">"
      case "quot": out += "\""
      case "apos": out += "'"
      default:
        var scalar: UInt32?
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
          scalar = UInt32(name.dropFirst(2), radix: 16)
        } else if name.hasPrefix("#") {
          scalar = UInt32(name.dropFirst())
        }
        guard let scalar, scalar != 0, let u = Unicode.Scalar(scalar) else {
          throw fail(
            "the entity &\(quoted: String(name)); is not read (only XML's own and character references)",
            at: offset)
        }
        out.unicodeScalars.append(u)
      }
      rest = rest[rest.index(after: semi)...]
    }
    return out + rest
  }
}
