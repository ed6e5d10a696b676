/// The syntax tree of an animation spec such as `spring(bounciness: 8, speed: 12)`.
///
/// Grammar (whitespace is free):
///
///     expr  := NAME [ '(' [ arg (',' arg)* ] ')' ] | NUMBER | '[' [ expr (',' expr)* ] ']' | STRING
///     arg   := [ NAME ':' ] expr
///
/// Names are letters, digits and `_`/`-`; numbers are decimal with optional sign and exponent;
/// strings are in single or double quotes. Calls and lists nest at most
/// ``maximumDepth`` deep: deeper input is a ``MotionError`` at the column where the limit is
/// passed, never a stack overflow.
///
/// Built in code (a template's object form, `spring: { bounciness: 8 }`), an expression needs no
/// text: give column 0 ("no position in a text"), and errors name the ``MotionError/argument``
/// instead.
package indirect enum SpecExpression: Sendable, Hashable, CustomStringConvertible {
  /// A name with optional arguments: `easeIn`, `spring(stiffness: 200)`.
  case call(name: String, arguments: [SpecArgument]?, column: Int = 0)
  /// A number.
  case number(Double, column: Int = 0)
  /// A quoted string.
  case string(String, column: Int = 0)
  /// A list: `[0, 0.5, 1]`.
  case list([SpecExpression], column: Int = 0)

  /// How deeply calls and lists may nest (`a(b(c(…)))`, `[[…]]`): 32. No spec needs more than 3.
  package static let maximumDepth = 32

  /// The 1-based column where the expression starts.
  package var column: Int {
    switch self {
    case .call(_, _, let c), .number(_, let c), .string(_, let c), .list(_, let c): return c
    }
  }

  package var description: String {
    switch self {
    case .call(let name, let args, _):
      guard let args else { return name }
      return name + "(" + args.map(\.description).joined(separator: ", ") + ")"
    case .number(let v, _): return SpecExpression.format(v)
    case .string(let s, _): return "'\(escaped: s)'"
    case .list(let items, _): return "[" + items.map(\.description).joined(separator: ", ") + "]"
    }
  }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }

  /// Parses a whole spec.
  package static func parse(_ text: String) throws(MotionError) -> SpecExpression {
    var parser = SpecParser(Array(text.unicodeScalars))
    let e = try parser.expression()
    parser.skipSpace()
    if parser.index < parser.chars.count {
      throw parser.error("unexpected '\(quoted: parser.chars[parser.index])' after the spec")
    }
    return e
  }
}

/// One argument of a call: an optional label and a value.
package struct SpecArgument: Sendable, Hashable, CustomStringConvertible {
  /// The label (`speed` in `speed: 12`), or `nil` for a positional argument.
  package let label: String?
  /// The value.
  package let value: SpecExpression

  package init(label: String?, value: SpecExpression) {
    self.label = label
    self.value = value
  }

  package var description: String { label.map { "\(escaped: $0): \(escaped: value)" } ?? value.description }
}

private struct SpecParser {
  let chars: [Unicode.Scalar]
  var index = 0
  /// Nesting of calls and lists at the current position.
  var depth = 0

  init(_ chars: [Unicode.Scalar]) { self.chars = chars }

  func error(_ message: String) -> MotionError { MotionError("\(escaped: message)", column: index + 1) }

  mutating func skipSpace() {
    while index < chars.count, chars[index].properties.isWhitespace { index += 1 }
  }

  func isNameChar(_ c: Unicode.Scalar) -> Bool {
    c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-"
  }

  mutating func expression() throws(MotionError) -> SpecExpression {
    depth += 1
    defer { depth -= 1 }
    skipSpace()
    guard depth <= SpecExpression.maximumDepth else {
      throw error("the spec nests calls or lists more than \(SpecExpression.maximumDepth) deep")
    }
    guard index < chars.count else { throw error("expected a value, found the end of the spec") }
    let start = index
    let c = chars[index]
    if c == "[" {
      index += 1
      var items: [SpecExpression] = []
      skipSpace()
      if index < chars.count, chars[index] == "]" {
        index += 1
        return .list(items, column: start + 1)
      }
      while true {
        items.append(try expression())
        skipSpace()
        guard index < chars.count else { throw error("expected ']' to close the list at column \(quoted: start + 1)") }
        if chars[index] == "]" {
          index += 1
          return .list(items, column: start + 1)
        }
        guard chars[index] == "," else {
          throw error("expected ',' or ']' in the list, found '\(quoted: chars[index])'")
        }
        index += 1
      }
    }
    if c == "'" || c == "\"" {
      index += 1
      var s = String.UnicodeScalarView()
      while index < chars.count, chars[index] != c {
        s.append(chars[index])
        index += 1
      }
      guard index < chars.count else { throw error("unterminated string starting at column \(quoted: start + 1)") }
      index += 1
      return .string(String(s), column: start + 1)
    }
    if c == "-" || c == "+" || c == "." || ("0"..."9").contains(c) {
      var s = ""
      while index < chars.count {
        let d = chars[index]
        let prev = s.last
        if ("0"..."9").contains(d) || d == "." || ((d == "-" || d == "+") && (s.isEmpty || prev == "e" || prev == "E"))
          || ((d == "e" || d == "E") && !s.isEmpty)
        {
          s.unicodeScalars.append(d)
          index += 1
        } else {
          break
        }
      }
      guard let v = Double(s), v.isFinite else {
        throw MotionError("'\(quoted: s)' is not a number", column: start + 1)
      }
      return .number(v, column: start + 1)
    }
    guard c.properties.isAlphabetic || c == "_" else {
      throw error("expected a name, a number or a list, found '\(quoted: c)'")
    }
    var name = ""
    while index < chars.count, isNameChar(chars[index]) {
      name.unicodeScalars.append(chars[index])
      index += 1
    }
    skipSpace()
    guard index < chars.count, chars[index] == "(" else { return .call(name: name, arguments: nil, column: start + 1) }
    index += 1
    var args: [SpecArgument] = []
    skipSpace()
    if index < chars.count, chars[index] == ")" {
      index += 1
      return .call(name: name, arguments: args, column: start + 1)
    }
    while true {
      skipSpace()
      // A label is a name followed by ':'.
      var label: String?
      let save = index
      if index < chars.count, chars[index].properties.isAlphabetic {
        var l = ""
        while index < chars.count, isNameChar(chars[index]) {
          l.unicodeScalars.append(chars[index])
          index += 1
        }
        skipSpace()
        if index < chars.count, chars[index] == ":" {
          index += 1
          label = l
        } else {
          index = save
        }
      }
      args.append(SpecArgument(label: label, value: try expression()))
      skipSpace()
      guard index < chars.count else {
        throw error("expected ')' to close '\(quoted: name)(' at column \(quoted: start + 1)")
      }
      if chars[index] == ")" {
        index += 1
        return .call(name: name, arguments: args, column: start + 1)
      }
      guard chars[index] == "," else {
        throw error("expected ',' or ')' in '\(quoted: name)(…)', found '\(quoted: chars[index])'")
      }
      index += 1
    }
  }
}
