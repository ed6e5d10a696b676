import FlickMotion

/// What makes ``XMLTokenizer`` and libxml2 read the same document: the encoding (UTF-8 only),
/// the XML declaration and the DOCTYPE read by XML's grammar, processing instructions, and the
/// names and attribute values of start tags as XML gives them.
extension XMLTokenizer {
  /// The encodings an XML declaration may name: UTF-8, and ASCII, a part of it (XML's names for
  /// them are case-insensitive). Any other would make libxml2 decode the bytes as something
  /// else than this tokenizer reads (UTF-7 spells markup in letters and `+`).
  static let encodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii"]

  /// Refuses bytes that are not UTF-8 as libxml2 reads it: an invalid or overlong sequence, a
  /// surrogate, a control character but tab, line feed and carriage return (NUL included, so a
  /// UTF-16 or UTF-32 file too), U+FFFE or U+FFFF; a UTF-16 or UTF-32 byte order mark is one of
  /// these.
  mutating func checkEncoding() throws(SyntaxError) {
    var i = offset
    let n = bytes.count
    while i < n {
      let b = bytes[i]
      if b < 0x80 {
        guard b >= 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else {
          throw SyntaxError(message: "the control character \(b) (an SVG picture is UTF-8 text)", offset: i)
        }
        i += 1
        continue
      }
      let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0
      var scalar = UInt32(b) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
      var valid = length > 0 && b <= 0xF4 && i + length <= n
      if valid {
        for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 { valid = false }
        for k in 1..<length { scalar = scalar << 6 | UInt32(bytes[i + k] & 0x3F) }
      }
      let least: UInt32 = length == 4 ? 0x10000 : length == 3 ? 0x800 : 0x80
      guard valid, scalar >= least, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar),
        scalar != 0xFFFE, scalar != 0xFFFF
      else {
        throw SyntaxError(
          message: "bytes that are not UTF-8 (an SVG picture is UTF-8 text; re-save it as UTF-8)", offset: i)
      }
      i += length
    }
  }

  /// The XML declaration at the start (`<?xml version="1.0" encoding="UTF-8"?>`), read by XML's
  /// grammar, or nil when there is none. Its encoding, if it names one, must be UTF-8 or ASCII.
  mutating func xmlDeclaration() throws(SyntaxError) -> Token? {
    let start = offset
    guard starts(with: "<?xml"), offset + 5 < bytes.count, Self.isSpace(bytes[offset + 5]) else { return nil }
    offset += 5
    func fail(_ expected: String) -> SyntaxError {
      SyntaxError(message: "the XML declaration is not read: expected \(quoted: expected)", offset: offset)
    }
    let all = ["version", "encoding", "standalone"]
    var names = all[...]
    while true {
      let spaced = offset < bytes.count && Self.isSpace(bytes[offset])
      skipSpace()
      if starts(with: "?>") { break }
      guard spaced else { throw fail("white space or '?>'") }
      let at = offset
      let name = readName()
      guard let index = names.firstIndex(of: name), names.count < all.count || name == "version" else {
        throw fail("version, then encoding and standalone, each at most once")
      }
      names = names[(index + 1)...]
      skipSpace()
      guard offset < bytes.count, bytes[offset] == 0x3D else { throw fail("'=' after \(quoted: name)") }
      offset += 1
      skipSpace()
      let value = try literal(what: "the \(quoted: name) of the XML declaration")
      if name == "encoding", !Self.encodings.contains(value.lowercased()) {
        throw SyntaxError(
          message: "the encoding '\(quoted: value)' is not read: an SVG picture must be UTF-8 (re-save it as UTF-8)",
          offset: at)
      }
      if name == "version",
        !(value.hasPrefix("1.") && value.count > 2 && value.dropFirst(2).allSatisfy { $0.isASCII && $0.isNumber })
      {
        throw SyntaxError(message: "the XML version '\(quoted: value)' is not read", offset: at)
      }
      if name == "standalone", value != "yes", value != "no" { throw fail("standalone=\"yes\" or \"no\"") }
    }
    guard names.count < all.count else { throw fail("version=\"1.0\" first") }
    offset += 2
    return .processingInstruction(String(decoding: bytes[start..<offset], as: UTF8.self), offset: start)
  }

  /// A processing instruction (`<?target …?>`) anywhere but at the start: its target may not be
  /// `xml` in any case (an XML declaration only starts the file).
  mutating func processingInstruction() throws(SyntaxError) -> Token {
    let start = offset
    offset += 2
    let targetStart = offset
    while offset < bytes.count, !Self.isSpace(bytes[offset]), bytes[offset] != 0x3F { offset += 1 }  // '?'
    let target = String(decoding: bytes[targetStart..<offset], as: UTF8.self)
    guard Self.isName(target), target.lowercased() != "xml" else {
      throw SyntaxError(
        message: target.lowercased() == "xml"
          ? "an XML declaration is only read at the very start of the file"
          : "expected a processing instruction's name after '<?'",
        offset: start)
    }
    let text = try skip(past: "?>", what: "a processing instruction", from: start)
    return .processingInstruction(String(decoding: bytes[start..<(text.upperBound + 2)], as: UTF8.self), offset: start)
  }

  /// `<!DOCTYPE name>`, or with a `SYSTEM "…"` or `PUBLIC "…" "…"` identifier, read by XML's
  /// grammar (a `>` inside a quoted literal does not close it), once and before the root
  /// element. An internal subset (`[…]`, where entities would be declared) is refused, and so is
  /// every other `<!` declaration, which XML allows only in one.
  mutating func doctype() throws(SyntaxError) -> Token {
    let start = offset
    guard starts(with: "<!DOCTYPE"), offset + 9 < bytes.count, Self.isSpace(bytes[offset + 9]) else {
      throw SyntaxError(message: "a declaration other than <!DOCTYPE …> is not read", offset: start)
    }
    guard !rootSeen, !doctypeSeen else {
      throw SyntaxError(message: "a DOCTYPE is only read once, before the root element", offset: start)
    }
    doctypeSeen = true
    offset += 9
    skipSpace()
    let name = readName()
    if name.contains("[") {
      throw SyntaxError(message: "a DOCTYPE with declarations (entities) is not read", offset: start)
    }
    guard Self.isName(name) else { throw SyntaxError(message: "expected a name after <!DOCTYPE", offset: offset) }
    let spaced = offset < bytes.count && Self.isSpace(bytes[offset])
    skipSpace()
    if offset < bytes.count, bytes[offset] == 0x5B {
      throw SyntaxError(message: "a DOCTYPE with declarations (entities) is not read", offset: start)
    }
    let keyword = readName()
    if keyword == "SYSTEM" || keyword == "PUBLIC" {
      guard spaced, offset < bytes.count, Self.isSpace(bytes[offset]) else {
        throw SyntaxError(message: "expected white space and a quoted literal after \(quoted: keyword)", offset: offset)
      }
      skipSpace()
      try identifier()
      if keyword == "PUBLIC" {
        guard offset < bytes.count, Self.isSpace(bytes[offset]) else {
          throw SyntaxError(message: "expected white space and the system literal after the public one", offset: offset)
        }
        skipSpace()
        try identifier()
      }
      skipSpace()
    } else if !keyword.isEmpty {
      throw SyntaxError(message: "expected SYSTEM, PUBLIC or '>' in the DOCTYPE", offset: offset)
    }
    guard offset < bytes.count else { throw SyntaxError(message: "the DOCTYPE is not closed", offset: start) }
    if bytes[offset] == 0x5B {
      throw SyntaxError(message: "a DOCTYPE with declarations (entities) is not read", offset: start)
    }
    guard bytes[offset] == 0x3E else { throw SyntaxError(message: "expected '>' to close the DOCTYPE", offset: offset) }
    offset += 1
    return .skipped
  }

  /// A DOCTYPE's public or system identifier: a quoted literal without `<` or `>` (which no
  /// identifier has; markup there would be text to libxml2, and a trick).
  private mutating func identifier() throws(SyntaxError) {
    let start = offset
    let text = try literal(what: "a DOCTYPE identifier")
    if text.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E }) {
      throw SyntaxError(message: "a DOCTYPE identifier with '<' or '>' is not read", offset: start)
    }
  }

  /// A literal in `"…"` or `'…'` (any character but its quote), the reading moved past it.
  mutating func literal(what: String) throws(SyntaxError) -> String {
    guard offset < bytes.count, bytes[offset] == 0x22 || bytes[offset] == 0x27 else {
      throw SyntaxError(message: "expected \(quoted: what) in quotes", offset: offset)
    }
    let quote = bytes[offset]
    let start = offset
    offset += 1
    while offset < bytes.count, bytes[offset] != quote { offset += 1 }
    guard offset < bytes.count else { throw SyntaxError(message: "\(quoted: what) is not closed", offset: start) }
    offset += 1
    return String(decoding: bytes[(start + 1)..<(offset - 1)], as: UTF8.self)
  }

  /// Whether `name` is an XML name as libxml2 reads one: a letter, `_`, `:` or a non-ASCII
  /// character first, then those, digits, `-` and `.` (ASCII punctuation, which would end or
  /// split a name there, is refused; non-ASCII characters are left to libxml2).
  static func isName(_ name: String) -> Bool {
    guard let first = name.utf8.first else { return false }
    func start(_ b: UInt8) -> Bool { b >= 0x80 || b == 0x5F || b == 0x3A || (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    return start(first) && name.utf8.allSatisfy { start($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E }
  }

  /// An attribute value as XML normalises it before entities are decoded: a line break (CR LF,
  /// CR or LF) and a tab each become one space; a character reference (`&#10;`) stays itself.
  static func normalized(_ raw: String) -> String {
    func space(_ b: UInt8) -> Bool { b == 0x09 || b == 0x0A || b == 0x0D }
    guard raw.utf8.contains(where: space) else { return raw }
    var out: [UInt8] = []
    var last: UInt8 = 0
    for b in raw.utf8 {
      defer { last = b }
      if b == 0x0A, last == 0x0D { continue }
      out.append(space(b) ? 0x20 : b)
    }
    return String(decoding: out, as: UTF8.self)
  }
}
