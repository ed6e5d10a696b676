import FlickMotion
import Foundation

/// The literals of JSON5: identifiers (unquoted keys, `true`, `Infinity`…), strings with their
/// escapes, and numbers.
extension JSON5Parser {
  static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    // ASCII first (a template's keys): its only alphabetic scalars are the letters, and the
    // Unicode property lookups cost far more than comparisons of the value (a range's `contains`
    // is a generic call in an unoptimised build).
    if c.isASCII {
      let v = c.value
      return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || v == 0x24 || v == 0x5F  // a-z, A-Z, $, _
    }
    return c.properties.isAlphabetic
  }

  static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
    // In ASCII only the digits have a numeric type, and no scalar is a mark; `_` is the one
    // connector punctuation.
    if c.isASCII { return isIdentifierStart(c) || (c.value >= 0x30 && c.value <= 0x39) }  // 0-9
    return isIdentifierStart(c) || c.properties.numericType != nil || c == "\u{200C}" || c == "\u{200D}"
      || c.properties.generalCategory == .nonspacingMark
      || c.properties.generalCategory == .spacingMark
      || c.properties.generalCategory == .connectorPunctuation
  }

  mutating func parseIdentifier() throws(JSON5SyntaxError) -> String {
    var s = String.UnicodeScalarView()
    while let c = current {
      if c == "\\" {
        let start = (line: line, column: column)
        advance()
        guard current == "u" else { throw error("only \\u escapes are allowed in identifiers") }
        advance()
        let scalar = try parseUnicodeEscape(at: start)
        // As in ECMAScript's IdentifierName: the escape writes a character the identifier could
        // hold written as itself, not a space or `-` that would need quotes.
        let first = s.isEmpty
        guard first ? Self.isIdentifierStart(scalar) : Self.isIdentifierPart(scalar) else {
          throw Self.escapeOutsideIdentifier(scalar, first: first, at: start)
        }
        s.append(scalar)
      } else if s.isEmpty ? Self.isIdentifierStart(c) : Self.isIdentifierPart(c) {
        s.append(c)
        advance()
      } else {
        break
      }
    }
    return String(s)
  }

  /// The error for a `\u` escape at `start` in an identifier that writes `scalar`, which cannot
  /// start one (`first`) or be part of one.
  static func escapeOutsideIdentifier(_ scalar: Unicode.Scalar, first: Bool, at start: (line: Int, column: Int))
    -> JSON5SyntaxError
  {
    var hex = String(scalar.value, radix: 16, uppercase: true)
    while hex.count < 4 { hex = "0" + hex }
    let code = "U+" + hex
    let problem =
      first
      ? "cannot start an identifier: expected a letter, '$' or '_'"
      : "cannot be part of an identifier: expected a letter, digit, mark, '$', '_', ZWNJ or ZWJ"
    let message = "the escape writes \(escaped: code), which \(escaped: problem) (a quoted key takes any character)"
    return JSON5SyntaxError(message: message, line: start.line, column: start.column)
  }

  /// The code unit that `digits` hex digits write (a `\x` or `\u` escape's, after its letter).
  private mutating func parseHexUnit(digits: Int) throws(JSON5SyntaxError) -> UInt16 {
    var v: UInt16 = 0
    for _ in 0..<digits {
      guard let c = current, c.isASCII, let d = Character(c).hexDigitValue else {
        throw error("expected \(digits) hex digits (0-9, a-f) in escape")
      }
      v = v * 16 + UInt16(d)
      advance()
    }
    return v
  }

  /// The character a `\u` escape writes (the parser is after its `u`; `start` is where its
  /// backslash is): a high surrogate takes the low surrogate escape after it, as ES5 reads the
  /// pair (`\uD83D\uDE00`, how Python's `json.dumps` writes 😀, is one character). Half of a
  /// pair on its own is refused at its backslash (``UTF16Escape``, shared with the Lottie reader).
  private mutating func parseUnicodeEscape(at start: (line: Int, column: Int)) throws(JSON5SyntaxError)
    -> Unicode.Scalar
  {
    let unit = try parseHexUnit(digits: 4)
    let decoded = try UTF16Escape.scalar(unit) { () throws(JSON5SyntaxError) -> UInt16? in
      guard current == "\\", peek(1) == "u" else { return nil }
      advance()
      advance()
      return try parseHexUnit(digits: 4)
    }
    switch decoded {
    case .success(let scalar): return scalar
    case .failure(let problem): throw JSON5SyntaxError(message: problem.message, line: start.line, column: start.column)
    }
  }

  mutating func parseString() throws(JSON5SyntaxError) -> String {
    let quote = current
    let (l, col) = (line, column)
    advance()
    var s = String.UnicodeScalarView()
    // Where the scalar the next turn appends starts (only when recording ``stringMarks``).
    var mark = (line: line, column: column)
    var end = s.endIndex
    while true {
      if stringMarks != nil {
        // A turn appends at most one scalar: the one an escape or a character gives.
        if s.endIndex != end { stringMarks?.append(mark) }
        end = s.endIndex
        mark = (line, column)
      }
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
      let start = (line: line, column: column)
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
        // Two digits write U+0000…U+00FF, every one a character.
        s.append(Unicode.Scalar(UInt8(truncatingIfNeeded: try parseHexUnit(digits: 2))))
      case "u":
        advance()
        s.append(try parseUnicodeEscape(at: start))
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

  mutating func parseNumber() throws(JSON5SyntaxError) -> Double {
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
      var digits: [UInt8] = []
      while let c = current, c.isASCII, let d = Character(c).hexDigitValue {
        digits.append(UInt8(d))
        advance()
      }
      guard !digits.isEmpty else { throw error("expected hex digits (0-9, a-f) after '0x'") }
      return sign * Self.hexValue(digits)
    }
    var text = ""
    var sawDigit = false
    while let c = current, ("0"..."9").contains(c) {
      text.unicodeScalars.append(c)
      sawDigit = true
      advance()
    }
    if text.unicodeScalars.count > 1 && text.hasPrefix("0") {
      throw error("leading zeros are not allowed in numbers")
    }
    var endsWithPoint = false
    if current == "." {
      text += "."
      endsWithPoint = true
      advance()
      while let c = current, ("0"..."9").contains(c) {
        text.unicodeScalars.append(c)
        sawDigit = true
        endsWithPoint = false
        advance()
      }
    }
    guard sawDigit else { throw error("expected digits in number") }
    if current == "e" || current == "E" {
      // `1.e5`: a point with no digits after it gets a 0 (Double does not read `1.e5`).
      text += endsWithPoint ? "0e" : "e"
      endsWithPoint = false
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
    if endsWithPoint { text += "0" }
    guard let v = Double(text) else { throw error("invalid number '\(quoted: text)'", plain: "invalid number") }
    return sign * v
  }

  /// The value of hex `digits` (each 0…15, most significant first) as JavaScript reads a hex
  /// literal: any number of digits, correctly rounded to the nearest `Double` (ties to even),
  /// infinity beyond its range.
  static func hexValue(_ digits: [UInt8]) -> Double {
    guard let first = digits.firstIndex(where: { $0 != 0 }) else { return 0 }
    // The first 16 significant digits hold 61 to 64 bits, of which a Double keeps 53: the rest
    // round. Digits after them only matter as to whether any is non-zero (then the value is
    // above a tie), which the lowest bit, one the rounding drops, records.
    let end = min(digits.count, first + 16)
    var top: UInt64 = 0
    for d in digits[first..<end] { top = top << 4 | UInt64(d) }
    if digits[end...].contains(where: { $0 != 0 }) { top |= 1 }
    let shift = 4 * (digits.count - end)
    // A power of two scales exactly, up to overflow (to infinity).
    return shift > 1_100 ? .infinity : Double(top) * Double(sign: .plus, exponent: shift, significand: 1)
  }
}
