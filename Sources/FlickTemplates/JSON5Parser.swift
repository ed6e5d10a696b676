import FlickMotion
import Foundation

/// A strict JSON5 parser (https://spec.json5.org) that records the line and column of every value.
///
/// Supported: comments (`//`, `/* */`), unquoted identifier keys, single-quoted strings,
/// trailing commas, hexadecimal numbers, leading or trailing decimal points, `+`, `Infinity`,
/// `NaN`, escaped line breaks in strings. Duplicate keys are an error.
package struct JSON5Parser {
  private let scalars: [Unicode.Scalar]
  private var index = 0
  private var line = 1
  private var column = 1
  private var depth = 0

  /// Parses `text` into a value.
  ///
  /// - Throws: ``JSON5SyntaxError`` with the position of the first problem.
  package static func parse(_ text: String) throws(JSON5SyntaxError) -> JSON5Value {
    var parser = JSON5Parser(scalars: Array(text.unicodeScalars))
    parser.skipBOM()
    try parser.skipTrivia()
    let value = try parser.parseValue()
    try parser.skipTrivia()
    if parser.index < parser.scalars.count {
      throw parser.error(
        "unexpected \(quoted: parser.describeCurrent()) after the end of the document",
        plain: "unexpected \(quoted: parser.describeCurrent(plain: true)) after the end of the document")
    }
    return value
  }

  private init(scalars: [Unicode.Scalar]) {
    self.scalars = scalars
  }

  // MARK: - Scanning

  private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  private func peek(_ offset: Int) -> Unicode.Scalar? {
    index + offset < scalars.count ? scalars[index + offset] : nil
  }

  private mutating func advance() {
    guard let c = current else { return }
    index += 1
    if c == "\n" || (c == "\r" && current != "\n") || c == "\u{2028}" || c == "\u{2029}" {
      line += 1
      column = 1
    } else if c != "\r" {
      column += 1
    }
  }

  private mutating func skipBOM() {
    if current == "\u{FEFF}" { index += 1 }
  }

  private func error(_ message: String, plain: String? = nil) -> JSON5SyntaxError {
    JSON5SyntaxError(message: message, line: line, column: column, plain: plain)
  }

  /// The current character for a message: quoted, or with `plain` only its class (a letter, a
  /// digit…), for files whose bytes must not be shown.
  private func describeCurrent(plain: Bool = false) -> String {
    guard let c = current else { return "end of input" }
    if c == "\n" { return "line break" }
    guard plain else { return "'\(Character(c))'" }
    if c.properties.isAlphabetic { return "a letter" }
    if c.properties.numericType != nil { return "a digit" }
    if Self.isWhitespace(c) { return "a space" }
    if c.isASCII { return "a punctuation character" }
    return "a character"
  }

  private static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
    switch c {
    case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{FEFF}", "\u{2028}", "\u{2029}": return true
    default: return c.properties.generalCategory == .spaceSeparator
    }
  }

  private mutating func skipTrivia() throws(JSON5SyntaxError) {
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

  private mutating func parseValue() throws(JSON5SyntaxError) -> JSON5Value {
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

  private mutating func enter() throws(JSON5SyntaxError) {
    depth += 1
    if depth > 512 { throw error("nesting deeper than 512 levels") }
  }

  private mutating func parseObject() throws(JSON5SyntaxError) -> JSON5Value.Kind {
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
        throw JSON5SyntaxError(message: "duplicate key '\(quoted: key)'", line: kl, column: kc, plain: "duplicate key")
      }
      try skipTrivia()
      guard current == ":" else {
        throw error(
          "expected ':' after key '\(quoted: key)', found \(quoted: describeCurrent())",
          plain: "expected ':' after a key, found \(quoted: describeCurrent(plain: true))")
      }
      advance()
      try skipTrivia()
      members.append(JSON5Value.Member(key: key, value: try parseValue(), line: kl, column: kc))
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

  private mutating func parseArray() throws(JSON5SyntaxError) -> JSON5Value.Kind {
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
      items.append(try parseValue())
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

  private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    c == "$" || c == "_" || c.properties.isAlphabetic
  }

  private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
    isIdentifierStart(c) || c.properties.numericType != nil || c == "\u{200C}" || c == "\u{200D}"
      || c.properties.generalCategory == .nonspacingMark
      || c.properties.generalCategory == .spacingMark
      || c.properties.generalCategory == .connectorPunctuation
  }

  private mutating func parseIdentifier() throws(JSON5SyntaxError) -> String {
    var s = String.UnicodeScalarView()
    while let c = current {
      if c == "\\" {
        advance()
        guard current == "u" else { throw error("only \\u escapes are allowed in identifiers") }
        advance()
        s.append(try parseHexScalar(digits: 4))
      } else if s.isEmpty ? Self.isIdentifierStart(c) : Self.isIdentifierPart(c) {
        s.append(c)
        advance()
      } else {
        break
      }
    }
    return String(s)
  }

  private mutating func parseHexScalar(digits: Int) throws(JSON5SyntaxError) -> Unicode.Scalar {
    var v: UInt32 = 0
    for _ in 0..<digits {
      guard let c = current, let d = Character(c).hexDigitValue else {
        throw error("expected \(digits) hexadecimal digits in escape")
      }
      v = v * 16 + UInt32(d)
      advance()
    }
    // A UTF-16 surrogate pair written as two \u escapes.
    if (0xD800...0xDBFF).contains(v), current == "\\", peek(1) == "u" {
      let save = (index, line, column)
      advance()
      advance()
      let low = try parseHexScalar(digits: 4).value
      if (0xDC00...0xDFFF).contains(low) {
        return Unicode.Scalar(0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
      }
      (index, line, column) = save
    }
    return Unicode.Scalar(v) ?? "\u{FFFD}"
  }

  private mutating func parseString() throws(JSON5SyntaxError) -> String {
    let quote = current
    let (l, col) = (line, column)
    advance()
    var s = String.UnicodeScalarView()
    while true {
      guard let c = current else {
        throw JSON5SyntaxError(message: "unterminated string", line: l, column: col)
      }
      if c == quote {
        advance()
        return String(s)
      }
      if c == "\n" || c == "\r" {
        throw error("line break inside a string (escape it with '\\')")
      }
      if c != "\\" {
        s.append(c)
        advance()
        continue
      }
      advance()
      guard let e = current else { continue }
      switch e {
      case "n": s.append("\n"); advance()
      case "t": s.append("\t"); advance()
      case "r": s.append("\r"); advance()
      case "b": s.append("\u{08}"); advance()
      case "f": s.append("\u{0C}"); advance()
      case "v": s.append("\u{0B}"); advance()
      case "0":
        advance()
        if let d = current, ("0"..."9").contains(d) { throw error("octal escapes are not allowed") }
        s.append("\0")
      case "x":
        advance()
        s.append(try parseHexScalar(digits: 2))
      case "u":
        advance()
        s.append(try parseHexScalar(digits: 4))
      case "\n", "\u{2028}", "\u{2029}": advance()
      case "\r":
        advance()
        if current == "\n" { advance() }
      case "1"..."9": throw error("octal escapes are not allowed")
      default:
        s.append(e)
        advance()
      }
    }
  }

  private mutating func parseNumber() throws(JSON5SyntaxError) -> Double {
    var sign = 1.0
    if current == "-" || current == "+" {
      if current == "-" { sign = -1 }
      advance()
    }
    if current == "I" {
      let word = try parseIdentifier()
      guard word == "Infinity" else {
        throw error("expected a number, found '\(quoted: word)'", plain: "expected a number")
      }
      return sign * .infinity
    }
    if current == "N" {
      let word = try parseIdentifier()
      guard word == "NaN" else { throw error("expected a number, found '\(quoted: word)'", plain: "expected a number") }
      return .nan
    }
    if current == "0", let x = peek(1), x == "x" || x == "X" {
      advance()
      advance()
      var digits = ""
      while let c = current, Character(c).isHexDigit {
        digits.unicodeScalars.append(c)
        advance()
      }
      guard !digits.isEmpty, let v = UInt64(digits, radix: 16) else { throw error("invalid hexadecimal number") }
      return sign * Double(v)
    }
    var text = ""
    var sawDigit = false
    while let c = current, ("0"..."9").contains(c) {
      text.unicodeScalars.append(c)
      sawDigit = true
      advance()
    }
    if text.count > 1 && text.hasPrefix("0") { throw error("leading zeros are not allowed in numbers") }
    if current == "." {
      text += "."
      advance()
      while let c = current, ("0"..."9").contains(c) {
        text.unicodeScalars.append(c)
        sawDigit = true
        advance()
      }
    }
    guard sawDigit else { throw error("expected digits in number") }
    if current == "e" || current == "E" {
      text += "e"
      advance()
      if current == "+" || current == "-", let c = current {
        text.unicodeScalars.append(c)
        advance()
      }
      var expDigits = false
      while let c = current, ("0"..."9").contains(c) {
        text.unicodeScalars.append(c)
        expDigits = true
        advance()
      }
      guard expDigits else { throw error("expected digits in exponent") }
    }
    if let c = current, Self.isIdentifierStart(c) {
      throw error(
        "unexpected \(quoted: describeCurrent()) after number",
        plain: "unexpected \(quoted: describeCurrent(plain: true)) after number")
    }
    if text.hasPrefix(".") { text = "0" + text }
    if text.hasSuffix(".") { text += "0" }
    text = text.replacingOccurrences(of: ".e", with: ".0e")
    guard let v = Double(text) else { throw error("invalid number '\(quoted: text)'", plain: "invalid number") }
    return sign * v
  }
}

/// A JSON5 syntax error at a 1-based line and column.
package struct JSON5SyntaxError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package var line: Int
  package var column: Int
  /// The message without any text of the input (no quoted word, key or character), for files
  /// whose content must never be shown: data, variants and params files a manifest names.
  package var plainMessage: String

  package init(message: String, line: Int, column: Int, plain: String? = nil) {
    self.message = message
    self.line = line
    self.column = column
    self.plainMessage = plain ?? message
  }

  package var description: String { "\(line):\(column): \(escaped: message)" }

  /// Errors are equal when they say the same at the same place (``plainMessage`` is derived).
  package static func == (a: JSON5SyntaxError, b: JSON5SyntaxError) -> Bool {
    a.message == b.message && a.line == b.line && a.column == b.column
  }
}
