import Foundation

/// Arithmetic on number parameters, so one value can follow another: `"$(cardWidth / 2 + 8)"`
/// as a whole value is a number, and `"${count * 2}"` inside a string is its text.
///
/// Grammar, with the usual precedence (unary minus, then `* / %`, then `+ -`, left to right):
///
///     expression := term (("+" | "-") term)*
///     term       := unary (("*" | "/" | "%") unary)*
///     unary      := ("-" | "+") unary | primary
///     primary    := number | name | "$" name | name "(" expression ("," expression)* ")"
///                 | "(" expression ")"
///
/// Names are number parameters (with or without `$`) and `pi`; functions are `min`, `max`,
/// `abs`, `round`, `floor`, `ceil`, `sqrt` and `clamp(x, low, high)`. Division by zero and
/// results that are not finite are errors, as are names that are not number parameters. The
/// evaluation is in double precision and deterministic.
///
/// Parentheses, unary signs and function calls nest at most ``maximumDepth`` levels (the parser
/// recurses once per level), and an expression is at most ``maximumLength`` characters.
struct TemplateExpression {
  /// How deeply parentheses, unary signs and calls may nest.
  static let maximumDepth = 64
  /// The longest expression text, in characters.
  static let maximumLength = 4096

  /// Why an expression could not be evaluated, and where (a character offset in the text).
  struct Failure: Error {
    var offset: Int
    var message: String
  }

  private let characters: [Character]
  private let values: [String: JSON5Value]
  private var position = 0
  private var depth = 0

  private init(_ text: String, values: [String: JSON5Value]) {
    self.characters = Array(text)
    self.values = values
  }

  /// The value of `text` with the parameters `values`.
  static func evaluate(_ text: String, values: [String: JSON5Value]) throws(Failure) -> Double {
    guard text.count <= maximumLength else {
      throw Failure(offset: 0, message: "the expression is longer than \(maximumLength) characters")
    }
    var parser = TemplateExpression(text, values: values)
    let value = try parser.expression()
    parser.skipSpaces()
    guard parser.position == parser.characters.count else {
      throw Failure(offset: parser.position, message: "unexpected '\(quoted: parser.characters[parser.position])'")
    }
    guard value.isFinite else { throw Failure(offset: 0, message: "the result is not a finite number") }
    return value
  }

  // MARK: - Grammar

  private mutating func expression() throws(Failure) -> Double {
    var value = try term()
    while let op = peekOperator(["+", "-"]) {
      position += 1
      let rhs = try term()
      value = op == "+" ? value + rhs : value - rhs
    }
    return value
  }

  private mutating func term() throws(Failure) -> Double {
    var value = try unary()
    while let op = peekOperator(["*", "/", "%"]) {
      let at = position
      position += 1
      let rhs = try unary()
      switch op {
      case "*": value *= rhs
      default:
        guard rhs != 0 else { throw Failure(offset: at, message: "division by zero") }
        value = op == "/" ? value / rhs : value.truncatingRemainder(dividingBy: rhs)
      }
    }
    return value
  }

  /// Counts one level of nesting for the duration of `body`.
  private mutating func nested(_ body: (inout Self) throws(Failure) -> Double) throws(Failure) -> Double {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else {
      throw Failure(offset: position, message: "the expression nests deeper than \(Self.maximumDepth) levels")
    }
    return try body(&self)
  }

  private mutating func unary() throws(Failure) -> Double {
    try nested { (p) throws(Failure) in try p.unaryLevel() }
  }

  private mutating func unaryLevel() throws(Failure) -> Double {
    if let op = peekOperator(["-", "+"]) {
      position += 1
      let value = try unary()
      return op == "-" ? -value : value
    }
    return try primary()
  }

  private mutating func primary() throws(Failure) -> Double {
    skipSpaces()
    guard position < characters.count else { throw Failure(offset: position, message: "the expression ends too early") }
    let c = characters[position]
    if c == "(" {
      position += 1
      let value = try expression()
      try expect(")")
      return value
    }
    if (c.isASCII && c.isNumber) || c == "." { return try number() }
    let start = position
    if c == "$" { position += 1 }
    let name = identifier()
    guard !name.isEmpty else { throw Failure(offset: start, message: "expected a number, a parameter or '('") }
    skipSpaces()
    if position < characters.count, characters[position] == "(", c != "$" {
      position += 1
      var arguments = [try expression()]
      while peekOperator([","]) != nil {
        position += 1
        arguments.append(try expression())
      }
      try expect(")")
      return try call(name, arguments, at: start)
    }
    return try variable(name, at: start)
  }

  // MARK: - Names

  private static let functions = ["min", "max", "abs", "round", "floor", "ceil", "sqrt", "clamp"]

  private func call(_ name: String, _ a: [Double], at offset: Int) throws(Failure) -> Double {
    func arity(_ n: Int) throws(Failure) {
      guard a.count == n else {
        throw Failure(
          offset: offset, message: "\(quoted: name) takes \(n) argument\(n == 1 ? "" : "s"), found \(a.count)")
      }
    }
    switch name {
    case "min": return a.min() ?? 0
    case "max": return a.max() ?? 0
    case "abs": try arity(1); return abs(a[0])
    case "round": try arity(1); return a[0].rounded()
    case "floor": try arity(1); return a[0].rounded(.down)
    case "ceil": try arity(1); return a[0].rounded(.up)
    case "sqrt":
      try arity(1)
      guard a[0] >= 0 else { throw Failure(offset: offset, message: "sqrt of a negative number") }
      return a[0].squareRoot()
    case "clamp": try arity(3); return min(max(a[0], a[1]), a[2])
    default:
      var message = "unknown function '\(quoted: name)'"
      if let guess = TemplateNode.closest(to: name, in: Self.functions) {
        message += "; did you mean '\(escaped: guess)'?"
      }
      throw Failure(offset: offset, message: message + " (functions: \(Self.functions.joined(separator: ", ")))")
    }
  }

  private func variable(_ name: String, at offset: Int) throws(Failure) -> Double {
    if name == "pi" && values[name] == nil { return .pi }
    guard let value = values[name] else {
      var message = "unknown parameter '\(quoted: name)'"
      let names = values.keys.sorted()
      if let guess = TemplateNode.closest(to: name, in: names) { message += "; did you mean '\(escaped: guess)'?" }
      if !names.isEmpty { message += " (parameters: \(TemplateText.list(names)))" }
      throw Failure(offset: offset, message: message)
    }
    let kind: String
    switch value.kind {
    case .number(let v): return v
    case .string: kind = "a string"
    case .bool: kind = "a boolean"
    case .array: kind = "a list"
    case .object: kind = "an object"
    case .null: kind = "null"
    }
    throw Failure(
      offset: offset,
      message: "parameter '\(quoted: name)' is \(quoted: kind); arithmetic needs "
        + "number parameters")
  }

  // MARK: - Tokens

  private mutating func skipSpaces() {
    while position < characters.count, characters[position].isWhitespace { position += 1 }
  }

  private mutating func peekOperator(_ ops: [Character]) -> Character? {
    skipSpaces()
    guard position < characters.count, ops.contains(characters[position]) else { return nil }
    return characters[position]
  }

  private mutating func expect(_ c: Character) throws(Failure) {
    skipSpaces()
    guard position < characters.count, characters[position] == c else {
      throw Failure(offset: position, message: "expected '\(quoted: c)'")
    }
    position += 1
  }

  private mutating func identifier() -> String {
    var name = ""
    while position < characters.count {
      let c = characters[position]
      guard c.isLetter || c == "_" || (!name.isEmpty && c.isNumber), c.isASCII else { break }
      name.append(c)
      position += 1
    }
    return name
  }

  private mutating func number() throws(Failure) -> Double {
    let start = position
    var text = ""
    while position < characters.count {
      let c = characters[position]
      let exponentSign = (c == "-" || c == "+") && (text.last == "e" || text.last == "E")
      guard c.isNumber || c == "." || c == "e" || c == "E" || exponentSign, c.isASCII else { break }
      text.append(c)
      position += 1
    }
    guard let value = Double(text) else { throw Failure(offset: start, message: "'\(quoted: text)' is not a number") }
    return value
  }
}
