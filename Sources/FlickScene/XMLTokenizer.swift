import FlickMotion

/// The XML reading both of Flick's SVG readers share (the picture check, ``SVGDocumentCheck``, and
/// a template's `svg` outline in FlickTemplates): one pass over the bytes, token by token, with
/// every token's byte offset so each reader can locate its own messages.
///
/// It reads the XML an SVG file uses and nothing more: elements with quoted attributes (each
/// name once), text, comments, CDATA sections, processing instructions and a DOCTYPE without
/// declarations. Entities are XML's five and character references; a DOCTYPE with an internal
/// subset (`[`, where entities would be declared) is refused, so no entity can expand.
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
  package private(set) var offset = 0

  /// A tokenizer at the start of `bytes` (after a UTF-8 byte order mark, if there is one).
  package init(bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
  }

  /// The next token, or nil at the end of the document.
  package mutating func next() throws(SyntaxError) -> Token? {
    guard offset < bytes.count else { return nil }
    guard bytes[offset] == 0x3C else {  // '<'
      let start = offset
      while offset < bytes.count, bytes[offset] != 0x3C { offset += 1 }
      return .text(start..<offset)
    }
    if starts(with: "<!--") {
      _ = try skip(past: "-->", what: "a comment")
      return .skipped
    }
    if starts(with: "<![CDATA[") {
      let text = try skip(past: "]]>", what: "a CDATA section")
      return .cdata((text.lowerBound + 9)..<text.upperBound)
    }
    if starts(with: "<?") {
      let start = offset
      let text = try skip(past: "?>", what: "a processing instruction")
      return .processingInstruction(String(decoding: bytes[text], as: UTF8.self), offset: start)
    }
    if starts(with: "<!") {
      let start = offset
      while offset < bytes.count, bytes[offset] != 0x3E {
        if bytes[offset] == 0x5B {
          throw SyntaxError(message: "a DOCTYPE with declarations (entities) is not read", offset: start)
        }
        offset += 1
      }
      guard offset < bytes.count else { throw SyntaxError(message: "a declaration is not closed", offset: start) }
      offset += 1
      return .skipped
    }
    if starts(with: "</") {
      let start = offset
      offset += 2
      let name = readName()
      skipSpace()
      guard offset < bytes.count, bytes[offset] == 0x3E else {
        throw SyntaxError(message: "expected '>' after </\(quoted: name)", offset: start)
      }
      offset += 1
      return .end(name: name, offset: start)
    }
    return try startTag()
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

  private func starts(with s: StaticString) -> Bool {
    let count = s.utf8CodeUnitCount
    guard offset + count <= bytes.count else { return false }
    return s.withUTF8Buffer { bytes[offset..<(offset + count)].elementsEqual($0) }
  }

  /// Moves past the next `end`; the range is what lay between.
  private mutating func skip(past end: StaticString, what: String) throws(SyntaxError) -> Range<Int> {
    let start = offset
    let count = end.utf8CodeUnitCount
    while offset + count <= bytes.count {
      if starts(with: end) {
        offset += count
        return start..<(offset - count)
      }
      offset += 1
    }
    throw SyntaxError(message: "\(quoted: what) is not closed", offset: start)
  }

  /// Whether `byte` is XML white space (space, tab, line feed, carriage return).
  package static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private mutating func skipSpace() {
    while offset < bytes.count, Self.isSpace(bytes[offset]) { offset += 1 }
  }

  private mutating func readName() -> String {
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
      let at = offset
      let name = readName()
      guard !name.isEmpty else { throw fail("expected an attribute name in <\(quoted: qualified)>") }
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
      let raw = String(decoding: bytes[valueStart..<offset], as: UTF8.self)
      offset += 1
      attributes.append(Attribute(name: name, value: try Self.decodeEntities(raw, at: valueStart), offset: at))
    }
  }
}
