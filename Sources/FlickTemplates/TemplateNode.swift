import FlickMotion

/// A cursor into a parsed template that knows its JSON path, so every accessor can throw a
/// ``TemplateError`` naming the file, the path, the position and what was expected.
///
/// FlickBatch reads its manifests with it too (``init(document:file:)``), so a manifest's errors
/// read the way a template's do.
package struct TemplateNode {
  package let value: JSON5Value
  package let path: String
  package let file: String
  /// Where assets resolve and what the decoding policy is; shared by every node of a document.
  var context = TemplateContext()

  package func error(_ message: String) -> TemplateError {
    var message = message
    if let origin = value.origin { message += " (value from \(quoted: origin))" }
    return TemplateError(file: file, path: path, line: value.line, column: value.column, message: message)
  }

  package func expected(_ what: String) -> TemplateError {
    error("expected \(quoted: what), found \(escaped: found)")
  }

  /// The value for "found …" in messages: the kind, the text of short scalars, and how many items
  /// an array has or that an object is empty (so that "expected an object of properties to
  /// animate" or "an array of 2 numbers" says what is wrong with the one given).
  package var found: String {
    switch value.kind {
    case .string(let s): return "a string \"\(quoted: s, limit: 40)\""
    case .number(let v): return "the number \(Self.format(v))"
    case .bool(let b): return b ? "true" : "false"
    case .array(let items) where items.isEmpty: return "an empty array"
    case .array(let items) where items.count == 1: return "an array of 1 item"
    case .array(let items): return "an array of \(items.count) items"
    case .object(let members) where members.isEmpty: return "an empty object"
    default: return value.kindDescription
    }
  }

  /// This node (a member's value) located at its member's key, for errors about the key itself
  /// (an unknown property name): the path stays the member's.
  func atKey(_ member: JSON5Value.Member) -> TemplateNode {
    var keyed = value
    keyed.line = member.line
    keyed.column = member.column
    return TemplateNode(value: keyed, path: path, file: file, context: context)
  }

  package func child(_ key: String, _ value: JSON5Value) -> TemplateNode {
    TemplateNode(
      value: value, path: value.anchor ?? (path.isEmpty ? key : "\(path).\(key)"), file: file, context: context)
  }

  // MARK: - Objects

  /// The members of an object, after checking that every key is one of `allowed`.
  package func object(allowed: [String]) throws(TemplateError) -> [String: TemplateNode] {
    guard case .object(let members) = value.kind else { throw expected("an object") }
    var out: [String: TemplateNode] = [:]
    for member in members {
      let key = member.key
      let node = child(key, member.value)
      guard allowed.contains(key) else {
        // A key from a style is offered only what a style may set.
        let allowed =
          member.value.origin?.hasPrefix("style ") == true
          ? allowed.filter { !Template.styleForbiddenKeys.contains($0) } : allowed
        var message = "unknown key '\(quoted: key)'"
        if let guess = Self.closest(to: key, in: allowed) { message += "; did you mean '\(escaped: guess)'?" }
        message += " (allowed: \(allowed.joined(separator: ", ")))"
        if let origin = member.value.origin { message += " (key from \(quoted: origin))" }
        throw TemplateError(file: file, path: node.path, line: member.line, column: member.column, message: message)
      }
      out[key] = node
    }
    return out
  }

  /// The items of an array.
  package func array() throws(TemplateError) -> [TemplateNode] {
    guard case .array(let items) = value.kind else { throw expected("an array") }
    return items.enumerated().map {
      TemplateNode(value: $1, path: $1.anchor ?? "\(path)[\($0)]", file: file, context: context)
    }
  }

  // MARK: - Scalars

  package func double() throws(TemplateError) -> Double {
    guard case .number(let v) = value.kind else { throw expected("a number") }
    guard v.isFinite else { throw error("expected a finite number, found \(v)") }
    return v
  }

  package func double(in range: ClosedRange<Double>) throws(TemplateError) -> Double {
    let v = try double()
    guard range.contains(v) else {
      throw error(
        "expected a number in \(Self.format(range.lowerBound))…\(Self.format(range.upperBound)), found \(Self.format(v))"
      )
    }
    return v
  }

  package func int(in range: ClosedRange<Int>) throws(TemplateError) -> Int {
    let v = try double()
    // Int(exactly:) rather than a comparison with Double(range.upperBound): Double(Int.max)
    // rounds up to 2⁶³, which passes the comparison and then traps in Int(_:).
    guard let i = Int(exactly: v), range.contains(i) else {
      throw error("expected a whole number in \(range.lowerBound)…\(range.upperBound), found \(Self.format(v))")
    }
    return i
  }

  package func bool() throws(TemplateError) -> Bool {
    guard case .bool(let b) = value.kind else { throw expected("true or false") }
    return b
  }

  package func string() throws(TemplateError) -> String {
    guard case .string(let s) = value.kind else { throw expected("a string") }
    return s
  }

  package func string(oneOf options: [String]) throws(TemplateError) -> String {
    let s = try string()
    guard options.contains(s) else {
      var message = "unknown value '\(quoted: s)'"
      if let guess = Self.closest(to: s, in: options) { message += "; did you mean '\(escaped: guess)'?" }
      throw error(message + " (expected one of: \(options.joined(separator: ", ")))")
    }
    return s
  }

  /// A word from `options` in a field that also takes other forms (`otherForms`, in words, such as
  /// "a number of seconds in 0.001…3600"): an unknown word, or a value of another kind, is told
  /// every form the field takes, not only the words.
  package func word(oneOf options: [String], orElse otherForms: String) throws(TemplateError) -> String {
    let forms =
      otherForms + " or "
      + (options.count == 1 ? "\"" + options[0] + "\"" : "one of: " + options.joined(separator: ", "))
    guard case .string(let s) = value.kind else { throw expected(forms) }
    guard options.contains(s) else {
      var message = "unknown value '\(quoted: s)'"
      if let guess = Self.closest(to: s, in: options) { message += "; did you mean '\(escaped: guess)'?" }
      throw error(message + " (expected \(quoted: forms))")
    }
    return s
  }

  /// A colour: `"#RRGGBB"`, `"#RRGGBBAA"`, `"#RGB"` or `"transparent"`.
  func color() throws(TemplateError) -> Color {
    guard case .string(let s) = value.kind else { throw expected("a colour string like \"#FF5A5F\"") }
    if s == "transparent" || s == "clear" { return .clear }
    guard let c = Color(hex: s) else {
      let nonHex = s.hasPrefix("#") && Character.hasNonHexDigit(s)
      throw error(
        "expected a colour like \"#FF5A5F\" or \"#FF5A5F80\"\(nonHex ? " (hex digits 0-9 a-f)" : ""), "
          + "found \"\(quoted: s)\"")
    }
    return c
  }

  func numbers(count: Int) throws(TemplateError) -> [Double] {
    guard case .array(let items) = value.kind, items.count == count else {
      throw expected("an array of \(count) numbers")
    }
    var out: [Double] = []
    for node in try array() { out.append(try node.double()) }
    return out
  }

  /// A point: `[x, y]` or `{ x, y }`.
  func point() throws(TemplateError) -> Point {
    if case .object = value.kind {
      let o = try object(allowed: ["x", "y"])
      guard let x = o["x"], let y = o["y"] else { throw error("a point needs both 'x' and 'y'") }
      return Point(x: try x.double(), y: try y.double())
    }
    let v = try numbers(count: 2)
    return Point(x: v[0], y: v[1])
  }

  /// A size: `[width, height]` or `{ width, height }` (a change of size may be negative; the
  /// `size` property's range refuses a negative written size).
  func size() throws(TemplateError) -> Size {
    if case .object = value.kind {
      let o = try object(allowed: ["width", "height"])
      guard let w = o["width"], let h = o["height"] else { throw error("a size needs 'width' and 'height'") }
      return Size(width: try w.double(), height: try h.double())
    }
    let v = try numbers(count: 2)
    return Size(width: v[0], height: v[1])
  }

  // MARK: - Helpers

  package static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }

  /// The option closest to `word`, if it is close enough to be a likely typo.
  static func closest(to word: String, in options: [String]) -> String? {
    Suggestion.closest(to: word, in: options)
  }
}

extension TemplateNode {
  /// The root of a parsed JSON5 document that is not a template (a batch manifest, a data file):
  /// it has no asset folder of its own and keeps the default limits.
  package init(document value: JSON5Value, file: String) {
    self.init(value: value, path: "", file: file)
  }
}
