import FlickMotion
import Foundation

/// A strict JSON5 parser (https://spec.json5.org) that records the line and column of every value.
///
/// Supported: comments (`//`, `/* */`), unquoted identifier keys, single-quoted strings,
/// trailing commas, hexadecimal numbers, leading or trailing decimal points, `+`, `Infinity`,
/// `NaN`, escaped line breaks in strings. Duplicate keys are an error.
package struct JSON5Parser {
  /// The document's scalars, read through a pointer: the parser lives only inside
  /// ``parse(_:)``'s borrow of them. (An array's subscript is a generic call in an unoptimised
  /// build, where the tests and the debug `flick` spent most of their parsing time.)
  let scalars: UnsafePointer<Unicode.Scalar>
  /// How many scalars the document has.
  let count: Int
  var index = 0
  var line = 1
  var column = 1
  var depth = 0
  /// When not nil, ``parseString()`` records here where each scalar it decodes starts in the
  /// text (``stringLiteral(in:line:column:)``).
  var stringMarks: [(line: Int, column: Int)]?

  /// Parses `text` into a value.
  ///
  /// - Throws: ``JSON5SyntaxError`` with the position of the first problem.
  package static func parse(_ text: String) throws(JSON5SyntaxError) -> JSON5Value {
    // One scalar of padding after the text, so that the buffer is never empty (it is never read).
    var scalars = Array(text.unicodeScalars)
    let count = scalars.count
    scalars.append(" ")
    let parsed = scalars.withUnsafeBufferPointer { buffer -> Result<JSON5Value, JSON5SyntaxError> in
      // The padding makes the base address non-nil.
      var parser = JSON5Parser(scalars: buffer.baseAddress.unsafelyUnwrapped, count: count)
      return Result { () throws(JSON5SyntaxError) in try parser.parseDocument() }
    }
    do {
      return try parsed.get()
    } catch {
      throw error.withPathPrefix()
    }
  }

  /// The string literal whose opening quote is at `line`:`column` of `text`, decoded, with the
  /// line and column where each of its scalars is written (an escape's backslash, a character
  /// after a `\`-continued line); nil when no string opens there. For messages about a place
  /// inside a string's value: the value's offsets are not the text's when the string has escapes
  /// or continued lines.
  package static func stringLiteral(
    in text: String, line: Int, column: Int
  ) -> (scalars: [Unicode.Scalar], positions: [(line: Int, column: Int)])? {
    var scalars = Array(text.unicodeScalars)
    let count = scalars.count
    scalars.append(" ")
    return scalars.withUnsafeBufferPointer { buffer in
      var parser = JSON5Parser(scalars: buffer.baseAddress.unsafelyUnwrapped, count: count)
      parser.skipBOM()
      while parser.index < count, parser.line < line || (parser.line == line && parser.column < column) {
        parser.advance()
      }
      guard parser.line == line, parser.column == column, parser.current == "\"" || parser.current == "'" else {
        return nil
      }
      parser.stringMarks = []
      guard let decoded = try? parser.parseString(), var marks = parser.stringMarks else { return nil }
      let out = Array(decoded.unicodeScalars)
      while marks.count < out.count { marks.append((parser.line, parser.column)) }
      return (out, marks)
    }
  }

  /// The whole document: one value, with only trivia around it.
  private mutating func parseDocument() throws(JSON5SyntaxError) -> JSON5Value {
    skipBOM()
    try skipTrivia()
    let value = try parseValue()
    try skipTrivia()
    if index < count {
      throw error(
        "unexpected \(quoted: describeCurrent()) after the end of the document",
        plain: "unexpected \(quoted: describeCurrent(plain: true)) after the end of the document")
    }
    return value
  }

  private init(scalars: UnsafePointer<Unicode.Scalar>, count: Int) {
    self.scalars = scalars
    self.count = count
  }

  // MARK: - Scanning

  var current: Unicode.Scalar? { index < count ? scalars[index] : nil }

  func peek(_ offset: Int) -> Unicode.Scalar? {
    index + offset < count ? scalars[index + offset] : nil
  }

  mutating func advance() {
    guard index < count else { return }
    // Scalar values, not literals: each literal is an initialiser call in an unoptimised build.
    let c = scalars[index].value
    index += 1
    // A line ends at LF, CR (a CR LF pair counts once, at its LF), U+2028 or U+2029.
    if c == 0x0A || (c == 0x0D && (index == count || scalars[index].value != 0x0A)) || c == 0x2028 || c == 0x2029 {
      line += 1
      column = 1
    } else if c != 0x0D {
      column += 1
    }
  }

  mutating func skipBOM() {
    if current == "\u{FEFF}" { index += 1 }
  }

  func error(_ message: String, plain: String? = nil) -> JSON5SyntaxError {
    JSON5SyntaxError(message: message, line: line, column: column, plain: plain)
  }

  /// The current character for a message: quoted, or with `plain` only its class (a letter, a
  /// digit…), for files whose bytes must not be shown.
  func describeCurrent(plain: Bool = false) -> String {
    guard let c = current else { return "end of input" }
    if c == "\n" { return "line break" }
    guard plain else { return "'\(Character(c))'" }
    if c.properties.isAlphabetic { return "a letter" }
    if c.properties.numericType != nil { return "a digit" }
    if Self.isWhitespace(c) { return "a space" }
    if c.isASCII { return "a punctuation character" }
    return "a character"
  }

  static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
    switch c {
    case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{FEFF}", "\u{2028}", "\u{2029}": return true
    // The one ASCII space separator, U+0020, is listed above.
    default: return !c.isASCII && c.properties.generalCategory == .spaceSeparator
    }
  }

  mutating func skipTrivia() throws(JSON5SyntaxError) {
    while let c = current {
      if Self.isWhitespace(c) {
        advance()
      } else if c == "/" && peek(1) == "/" {
        while let d = current, d != "\n", d != "\r", d != "\u{2028}", d != "\u{2029}" { advance() }
      } else if c == "/" && peek(1) == "*" {
        let (l, col) = (line, column)
        advance()
        advance()
        while true {
          guard let d = current else {
            throw JSON5SyntaxError(message: "unterminated block comment", line: l, column: col)
          }
          if d == "*" && peek(1) == "/" {
            advance()
            advance()
            break
          }
          advance()
        }
      } else {
        return
      }
    }
  }

  // MARK: - Values

  mutating func parseValue() throws(JSON5SyntaxError) -> JSON5Value {
    let (l, col) = (line, column)
    guard let c = current else { throw error("expected a value, found end of input") }
    let kind: JSON5Value.Kind
    switch c {
    case "{": kind = try parseObject()
    case "[": kind = try parseArray()
    case "\"", "'": kind = .string(try parseString())
    case "-", "+", ".", "0"..."9": kind = .number(try parseNumber())
    default:
      guard Self.isIdentifierStart(c) else {
        throw error(
          "expected a value, found \(quoted: describeCurrent())",
          plain: "expected a value, found \(quoted: describeCurrent(plain: true))")
      }
      let word = try parseIdentifier()
      switch word {
      case "null": kind = .null
      case "true": kind = .bool(true)
      case "false": kind = .bool(false)
      case "Infinity": kind = .number(.infinity)
      case "NaN": kind = .number(.nan)
      default:
        throw JSON5SyntaxError(
          message: "unexpected word '\(quoted: word)' (strings need quotes)", line: l, column: col,
          plain: "unexpected word (strings need quotes)")
      }
    }
    return JSON5Value(kind, line: l, column: col)
  }

  mutating func enter() throws(JSON5SyntaxError) {
    depth += 1
    if depth > 512 { throw error("nesting deeper than 512 levels") }
  }

  mutating func parseObject() throws(JSON5SyntaxError) -> JSON5Value.Kind {
    try enter()
    defer { depth -= 1 }
    advance()  // {
    var members: [JSON5Value.Member] = []
    var seen = Set<String>()
    while true {
      try skipTrivia()
      if current == "}" {
        advance()
        return .object(members)
      }
      let (kl, kc) = (line, column)
      let key: String
      switch current {
      case "\"", "'": key = try parseString()
      case let c? where Self.isIdentifierStart(c) || c == "\\": key = try parseIdentifier()
      default:
        throw error(
          "expected a key or '}', found \(quoted: describeCurrent())",
          plain: "expected a key or '}', found \(quoted: describeCurrent(plain: true))")
      }
      if !seen.insert(key).inserted {
        var duplicate = JSON5SyntaxError(
          message: "duplicate key '\(quoted: key)'", line: kl, column: kc, plain: "duplicate key")
        duplicate.memberPath = [key]
        throw duplicate
      }
      try skipTrivia()
      guard current == ":" else {
        throw error(
          "expected ':' after key '\(quoted: key)', found \(quoted: describeCurrent())",
          plain: "expected ':' after a key, found \(quoted: describeCurrent(plain: true))")
      }
      advance()
      try skipTrivia()
      let value: JSON5Value
      do {
        value = try parseValue()
      } catch {
        throw error.inside(key)
      }
      members.append(JSON5Value.Member(key: key, value: value, line: kl, column: kc))
      try skipTrivia()
      if current == "," {
        advance()
      } else if current == "}" {
        advance()
        return .object(members)
      } else {
        throw error(
          "expected ',' or '}' in object, found \(quoted: describeCurrent())",
          plain: "expected ',' or '}' in object, found \(quoted: describeCurrent(plain: true))")
      }
    }
  }

  mutating func parseArray() throws(JSON5SyntaxError) -> JSON5Value.Kind {
    try enter()
    defer { depth -= 1 }
    advance()  // [
    var items: [JSON5Value] = []
    while true {
      try skipTrivia()
      if current == "]" {
        advance()
        return .array(items)
      }
      do {
        items.append(try parseValue())
      } catch {
        throw error.inside("[\(items.count)]")
      }
      try skipTrivia()
      if current == "," {
        advance()
      } else if current == "]" {
        advance()
        return .array(items)
      } else {
        throw error(
          "expected ',' or ']' in array, found \(quoted: describeCurrent())",
          plain: "expected ',' or ']' in array, found \(quoted: describeCurrent(plain: true))")
      }
    }
  }
}
