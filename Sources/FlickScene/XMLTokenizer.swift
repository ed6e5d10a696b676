import FlickMotion

/// The XML reading both of Flick's SVG readers share (the picture check, ``SVGDocumentCheck``, and
/// a template's `svg` outline in FlickTemplates): one pass over the bytes, token by token, with
/// every token's byte offset so each reader can locate its own messages.
///
/// It reads the XML an SVG file uses and nothing more: elements with quoted attributes (each
/// name once), text, comments, CDATA sections, processing instructions and a DOCTYPE without
/// declarations. Entities are XML's five and character references; a DOCTYPE with an internal
/// subset (`[`, where entities would be declared) is refused, so no entity can expand.
///
/// What it accepts, libxml2 (librsvg's parser) reads as the same document: the file must be
/// UTF-8 (valid, with no control character but tab, line feed and carriage return, no byte order
/// mark but UTF-8's, an XML declaration naming no other encoding), each construct is read by
/// XML's grammar (quoted literals in a DOCTYPE, `--` only to end a comment, names that are XML
/// names, white space between attributes, attribute values normalised as XML does), and what
/// XML allows only in one place is refused elsewhere (one root element; a DOCTYPE and an XML
/// declaration before it; text and CDATA inside it). Anything else is an error here, and
/// libxml2 refuses it too or reads it some other way, so it never reaches librsvg
/// (XMLTokenizer+Prolog.swift).
package struct XMLTokenizer {
  /// One attribute of a start tag: its name as written, its value with entities decoded, and the
  /// offset of its name.
  package struct Attribute: Sendable, Equatable {
    package var name: String
    package var value: String
    package var offset: Int
  }

  /// What the next part of the document is.
  package enum Token: Sendable, Equatable {
    /// Character data between tags, as written (entities not decoded: ``decodeEntities(_:)``).
    case text(Range<Int>)
    /// `<name …>` or `<name …/>`, at `offset` (its `<`).
    case start(name: String, attributes: [Attribute], selfClosing: Bool, offset: Int)
    /// `</name>`, at `offset`.
    case end(name: String, offset: Int)
    /// A CDATA section's content (between `<![CDATA[` and `]]>`).
    case cdata(Range<Int>)
    /// A processing instruction, whole (`<?…?>`), at its offset.
    case processingInstruction(String, offset: Int)
    /// A comment or a declaration without an internal subset (`<!DOCTYPE svg>`); nothing to read.
    case skipped
  }

  /// What is wrong at `offset`, in words that fit after "not a valid SVG file: ".
  package struct SyntaxError: Error, Sendable, Equatable {
    package var message: String
    package var offset: Int
  }

  /// The document's bytes.
  package let bytes: [UInt8]
  /// The offset of the next byte to read.
  package internal(set) var offset = 0
  /// Whether the bytes have been checked as UTF-8 and the XML declaration read (on the first
  /// ``next()``).
  var begun = false
  /// How many elements are open, whether the root element has started, and whether a DOCTYPE
  /// has been read.
  var depth = 0
  var rootSeen = false
  var doctypeSeen = false

  /// A tokenizer at the start of `bytes` (after a UTF-8 byte order mark, if there is one).
  package init(bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
  }

  /// The next token, or nil at the end of the document.
  package mutating func next() throws(SyntaxError) -> Token? {
    if !begun {
      begun = true
      try checkEncoding()
      if let declaration = try xmlDeclaration() { return declaration }
    }
    guard offset < bytes.count else { return nil }
    guard bytes[offset] == 0x3C else {  // '<'
      let start = offset
      while offset < bytes.count, bytes[offset] != 0x3C { offset += 1 }
      if depth == 0, let place = bytes[start..<offset].firstIndex(where: { !Self.isSpace($0) }) {
        throw SyntaxError(
          message: rootSeen ? "text after the root element" : "text before the root element", offset: place)
      }
      return .text(start..<offset)
    }
    if starts(with: "<!--") {
      let start = offset
      offset += 4
      let text = try skip(past: "-->", what: "a comment", from: start)
      // The byte after the text is the `-` of `-->`: a comment may not end in `--->` either.
      if let hyphens = bytes[text].indices.first(where: { bytes[$0] == 0x2D && bytes[$0 + 1] == 0x2D }) {
        throw SyntaxError(message: "'--' inside a comment", offset: hyphens)
      }
      return .skipped
    }
    if starts(with: "<![CDATA[") {
      let start = offset
      guard depth > 0 else { throw SyntaxError(message: "a CDATA section outside the root element", offset: start) }
      offset += 9
      return .cdata(try skip(past: "]]>", what: "a CDATA section", from: start))
    }
    if starts(with: "<?") { return try processingInstruction() }
    if starts(with: "<!") { return try doctype() }
    if starts(with: "</") {
      let start = offset
      offset += 2
      let name = readName()
      skipSpace()
      guard offset < bytes.count, bytes[offset] == 0x3E else {
        throw SyntaxError(message: "expected '>' after </\(quoted: name)", offset: start)
      }
      guard depth > 0 else { throw SyntaxError(message: "</\(quoted: name)> where nothing is open", offset: start) }
      offset += 1
      depth -= 1
      return .end(name: name, offset: start)
    }
    if depth == 0, rootSeen { throw SyntaxError(message: "a second root element", offset: offset) }
    let tag = try startTag()
    rootSeen = true
    if case .start(_, _, false, _) = tag { depth += 1 }
    return tag
  }

  /// The next token, or nil at the end of the document; a syntax error becomes the reader's own
  /// error through `failure` (given the error and the document's bytes, to locate it).
  package mutating func next<Failure: Error>(
    failing failure: (SyntaxError, [UInt8]) -> Failure
  ) throws(Failure) -> Token? {
    do throws(SyntaxError) {
      return try next()
    } catch {
      throw failure(error, bytes)
    }
  }

  /// `text` with XML's five entities and character references decoded.
  ///
  /// - Throws: An error at `offset` for `&` without `;`, another entity, or a reference to NUL
  ///   or to no Unicode scalar.
  package static func decodeEntities(_ text: String, at offset: Int) throws(SyntaxError) -> String {
    guard text.utf8.contains(0x26) else { return text }  // '&'
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      guard let semi = rest[amp...].firstIndex(of: ";") else {
        throw SyntaxError(message: "'&' without ';'", offset: offset)
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
        // ASCII digits only: UInt32(_:radix:) alone would also read "&#x+41;".
        if name.hasPrefix("#x") || name.hasPrefix("#X"), name.dropFirst(2).allSatisfy(\.isASCIIHexDigit) {
          scalar = UInt32(name.dropFirst(2), radix: 16)
        } else if name.hasPrefix("#"), name.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
          scalar = UInt32(name.dropFirst())
        }
        guard let scalar, scalar != 0, let u = Unicode.Scalar(scalar) else {
          throw SyntaxError(
            message: "the entity &\(quoted: String(name)); is not read (only XML's own and character references)",
            offset: offset)
        }
        out.unicodeScalars.append(u)
      }
      rest = rest[rest.index(after: semi)...]
    }
    return out + rest
  }

  /// The local part of a qualified name (`svg:path` → `path`).
  package static func localName(_ qualified: String) -> String {
    guard let colon = qualified.lastIndex(of: ":") else { return qualified }
    return String(qualified[qualified.index(after: colon)...])
  }

  func starts(with s: StaticString) -> Bool {
    let count = s.utf8CodeUnitCount
    guard offset + count <= bytes.count else { return false }
    return s.withUTF8Buffer { bytes[offset..<(offset + count)].elementsEqual($0) }
  }

  /// Moves past the next `end`; the range is what lay between (from where the reading is); an
  /// error names `what` at `opening`.
  mutating func skip(past end: StaticString, what: String, from opening: Int) throws(SyntaxError) -> Range<Int> {
    let start = offset
    let count = end.utf8CodeUnitCount
    while offset + count <= bytes.count {
      if starts(with: end) {
        offset += count
        return start..<(offset - count)
      }
      offset += 1
    }
    throw SyntaxError(message: "\(quoted: what) is not closed", offset: opening)
  }

  /// Whether `byte` is XML white space (space, tab, line feed, carriage return).
  package static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  mutating func skipSpace() {
    while offset < bytes.count, Self.isSpace(bytes[offset]) { offset += 1 }
  }

  mutating func readName() -> String {
    let start = offset
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F, 0x3D, 0x3C: return String(decoding: bytes[start..<offset], as: UTF8.self)
      default: offset += 1
      }
    }
    return String(decoding: bytes[start..<offset], as: UTF8.self)
  }

  private mutating func startTag() throws(SyntaxError) -> Token {
    let start = offset
    offset += 1
    let qualified = readName()
    guard !qualified.isEmpty else { throw SyntaxError(message: "expected an element name after '<'", offset: start) }
    guard Self.isName(qualified) else {
      throw SyntaxError(message: "<\(quoted: qualified)> is not an XML name", offset: start)
    }
    func fail(_ message: String, at place: Int? = nil) -> SyntaxError {
      SyntaxError(message: message, offset: place ?? offset)
    }
    var attributes: [Attribute] = []
    // The names seen: a set, so a tag of many attributes is read in time linear in its length.
    var names: Set<String> = []
    while true {
      skipSpace()
      guard offset < bytes.count else { throw fail("<\(quoted: qualified)> is not closed", at: start) }
      if bytes[offset] == 0x3E {
        offset += 1
        return .start(name: qualified, attributes: attributes, selfClosing: false, offset: start)
      }
      if bytes[offset] == 0x2F {
        guard offset + 1 < bytes.count, bytes[offset + 1] == 0x3E else { throw fail("expected '/>'") }
        offset += 2
        return .start(name: qualified, attributes: attributes, selfClosing: true, offset: start)
      }
      guard Self.isSpace(bytes[offset - 1]) else {
        throw fail("expected white space before the next attribute in <\(quoted: qualified)>")
      }
      let at = offset
      let name = readName()
      guard !name.isEmpty else { throw fail("expected an attribute name in <\(quoted: qualified)>") }
      guard Self.isName(name) else { throw fail("the attribute \(quoted: name) is not an XML name", at: at) }
      guard names.insert(name).inserted else {
        throw fail("the attribute \(quoted: name) is given twice", at: at)
      }
      skipSpace()
      guard offset < bytes.count, bytes[offset] == 0x3D else {
        throw fail("expected '=' after the attribute \(quoted: name)")
      }
      offset += 1
      skipSpace()
      guard offset < bytes.count, bytes[offset] == 0x22 || bytes[offset] == 0x27 else {
        throw fail("expected a quoted value for the attribute \(quoted: name)")
      }
      let quote = bytes[offset]
      offset += 1
      let valueStart = offset
      while offset < bytes.count, bytes[offset] != quote {
        if bytes[offset] == 0x3C { throw fail("'<' in the value of the attribute \(quoted: name)") }
        offset += 1
      }
      guard offset < bytes.count else {
        throw fail("the value of the attribute \(quoted: name) is not closed", at: valueStart)
      }
      let raw = Self.normalized(String(decoding: bytes[valueStart..<offset], as: UTF8.self))
      offset += 1
      attributes.append(Attribute(name: name, value: try Self.decodeEntities(raw, at: valueStart), offset: at))
    }
  }
}
