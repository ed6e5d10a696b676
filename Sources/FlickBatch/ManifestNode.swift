import FlickMotion
import FlickTemplates

/// A cursor into a parsed batch manifest that knows its JSON path, so every accessor throws a
/// ``FlickTemplates/TemplateError`` naming the file, line, column and path, the way template
/// errors read (`batch.json5:7:14: renders[0].sizes[1]: expected …`).
///
/// It mirrors FlickTemplates' internal template cursor for the few shapes a manifest has.
struct ManifestNode {
  let value: JSON5Value
  let path: String
  let file: String

  func error(_ message: String) -> TemplateError {
    TemplateError(file: file, path: path, line: value.line, column: value.column, message: message)
  }

  func expected(_ what: String) -> TemplateError {
    error("expected \(what), found \(found)")
  }

  var found: String {
    switch value.kind {
    case .string(let s): return "a string \"\(s.count > 40 ? s.prefix(40) + "…" : s)\""
    case .number(let v): return "the number \(Self.format(v))"
    case .bool(let b): return b ? "true" : "false"
    default: return value.kindDescription
    }
  }

  func child(_ key: String, _ value: JSON5Value) -> ManifestNode {
    ManifestNode(value: value, path: path.isEmpty ? key : "\(path).\(key)", file: file)
  }

  /// The members of an object, after checking every key is one of `allowed`.
  func object(allowed: [String]) throws(TemplateError) -> [String: ManifestNode] {
    guard case .object(let members) = value.kind else { throw expected("an object") }
    var out: [String: ManifestNode] = [:]
    for member in members {
      let node = child(member.key, member.value)
      guard allowed.contains(member.key) else {
        var message = "unknown key '\(member.key)'"
        if let guess = Suggestion.closest(to: member.key, in: allowed) { message += "; did you mean '\(guess)'?" }
        message += " (allowed: \(allowed.joined(separator: ", ")))"
        throw TemplateError(file: file, path: node.path, line: member.line, column: member.column, message: message)
      }
      out[member.key] = node
    }
    return out
  }

  /// The members of an object in source order, any keys.
  func members() throws(TemplateError) -> [(key: String, node: ManifestNode)] {
    guard case .object(let members) = value.kind else { throw expected("an object") }
    return members.map { ($0.key, child($0.key, $0.value)) }
  }

  func array() throws(TemplateError) -> [ManifestNode] {
    guard case .array(let items) = value.kind else { throw expected("an array") }
    return items.enumerated().map { ManifestNode(value: $1, path: "\(path)[\($0)]", file: file) }
  }

  /// An array, or a single value standing for an array of one.
  func list() throws(TemplateError) -> [ManifestNode] {
    if case .array = value.kind { return try array() }
    return [self]
  }

  func double() throws(TemplateError) -> Double {
    guard case .number(let v) = value.kind, v.isFinite else { throw expected("a number") }
    return v
  }

  func int(in range: ClosedRange<Int>) throws(TemplateError) -> Int {
    let v = try double()
    guard v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
      throw error("expected a whole number in \(range.lowerBound)…\(range.upperBound), found \(Self.format(v))")
    }
    return Int(v)
  }

  func bool() throws(TemplateError) -> Bool {
    guard case .bool(let b) = value.kind else { throw expected("true or false") }
    return b
  }

  func string() throws(TemplateError) -> String {
    guard case .string(let s) = value.kind else { throw expected("a string") }
    return s
  }

  func string(oneOf options: [String]) throws(TemplateError) -> String {
    let s = try string()
    guard options.contains(s) else {
      var message = "unknown value '\(s)'"
      if let guess = Suggestion.closest(to: s, in: options) { message += "; did you mean '\(guess)'?" }
      throw error(message + " (expected one of: \(options.joined(separator: ", ")))")
    }
    return s
  }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}
