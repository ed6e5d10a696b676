import FlickTemplates
import Foundation

/// A small JSON Schema (draft 2020-12) validator for the subset `Templates/schema.json` uses,
/// working on parsed ``JSON5Value``s so JSON5 templates can be checked as editors would.
///
/// Supported keywords: `type`, `properties`, `required`, `additionalProperties`,
/// `propertyNames`, `enum`, `const`, `minimum`, `maximum`, `minLength`, `items`, `prefixItems`, `minItems`,
/// `maxItems`, `minProperties`, `pattern`, `anyOf`, `oneOf`, `allOf`, `not`, `if`/`then`, `$ref` (local `#/$defs/…`), and
/// boolean schemas. Annotations (`title`, `description`, `default`, `$schema`, `$id`,
/// `$comment`, `examples`) are ignored. Any other keyword is reported by
/// ``unsupportedKeywords()``, so the schema cannot silently rely on something unchecked.
struct JSONSchemaValidator {
  let root: JSON5Value

  static let keywords: Set<String> = [
    "type", "properties", "required", "additionalProperties", "propertyNames", "enum", "const", "minimum",
    "maximum", "minLength", "items", "prefixItems", "minItems", "maxItems", "minProperties", "pattern", "anyOf",
    "oneOf", "allOf",
    "not", "$ref", "$defs", "if", "then",
  ]
  static let annotations: Set<String> = ["title", "description", "default", "$schema", "$id", "$comment", "examples"]

  /// Every keyword in the schema outside the supported subset, with its location.
  func unsupportedKeywords() -> [String] {
    var found: [String] = []
    func walk(_ schema: JSON5Value, _ path: String) {
      guard case .object(let members) = schema.kind else { return }
      for m in members {
        let here = "\(path)/\(m.key)"
        if !Self.keywords.contains(m.key) && !Self.annotations.contains(m.key) { found.append(here) }
        switch m.key {
        case "properties", "$defs":
          if case .object(let subs) = m.value.kind { for s in subs { walk(s.value, "\(here)/\(s.key)") } }
        case "anyOf", "oneOf", "allOf", "prefixItems":
          if case .array(let subs) = m.value.kind { for (i, s) in subs.enumerated() { walk(s, "\(here)/\(i)") } }
        case "items", "additionalProperties", "not", "propertyNames", "if", "then":
          walk(m.value, here)
        default: break
        }
      }
    }
    walk(root, "#")
    return found
  }

  /// The problems of `instance`, each as `path: message`; empty when it is valid.
  func validate(_ instance: JSON5Value) -> [String] {
    errors(instance, root, "$")
  }

  private func resolve(_ ref: String) -> JSON5Value? {
    guard ref.hasPrefix("#/") else { return nil }
    var node: JSON5Value? = root
    for part in ref.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
    return node
  }

  private func errors(_ v: JSON5Value, _ schema: JSON5Value, _ path: String) -> [String] {
    switch schema.kind {
    case .bool(let b): return b ? [] : ["\(path): not allowed"]
    case .object: break
    default: return ["\(path): invalid schema"]
    }
    var out: [String] = []
    if case .string(let ref)? = schema["$ref"]?.kind {
      guard let target = resolve(ref) else { return ["\(path): unresolvable $ref \(ref)"] }
      out += errors(v, target, path)
    }
    if let type = schema["type"] {
      let names: [String]
      switch type.kind {
      case .string(let s): names = [s]
      case .array(let items): names = items.compactMap { if case .string(let s) = $0.kind { s } else { nil } }
      default: names = []
      }
      if !names.contains(where: { Self.matches(v, type: $0) }) {
        return out + ["\(path): expected \(names.joined(separator: " or ")), found \(v.kindDescription)"]
      }
    }
    if case .array(let options)? = schema["enum"]?.kind, !options.contains(where: { Self.equal($0, v) }) {
      out.append("\(path): not one of the allowed values")
    }
    if let c = schema["const"], !Self.equal(c, v) { out.append("\(path): not the constant value") }
    if case .number(let x) = v.kind {
      if case .number(let lo)? = schema["minimum"]?.kind, x < lo { out.append("\(path): below minimum \(lo)") }
      if case .number(let hi)? = schema["maximum"]?.kind, x > hi { out.append("\(path): above maximum \(hi)") }
    }
    if case .string(let s) = v.kind {
      if case .number(let n)? = schema["minLength"]?.kind, Double(s.count) < n { out.append("\(path): too short") }
      if case .string(let pattern)? = schema["pattern"]?.kind {
        let regex = try? NSRegularExpression(pattern: pattern)
        let range = NSRange(s.startIndex..., in: s)
        if regex?.firstMatch(in: s, range: range) == nil { out.append("\(path): does not match \(pattern)") }
      }
    }
    if case .array(let items) = v.kind {
      if case .number(let n)? = schema["minItems"]?.kind, Double(items.count) < n {
        out.append("\(path): too few items")
      }
      if case .number(let n)? = schema["maxItems"]?.kind, Double(items.count) > n {
        out.append("\(path): too many items")
      }
      var prefix: [JSON5Value] = []
      if case .array(let schemas)? = schema["prefixItems"]?.kind { prefix = schemas }
      for (i, item) in items.enumerated() where i < prefix.count { out += errors(item, prefix[i], "\(path)[\(i)]") }
      if let itemSchema = schema["items"] {
        for (i, item) in items.enumerated() where i >= prefix.count { out += errors(item, itemSchema, "\(path)[\(i)]") }
      }
    }
    if case .object(let members) = v.kind {
      if case .number(let n)? = schema["minProperties"]?.kind, Double(members.count) < n {
        out.append("\(path): too few properties")
      }
      let properties = schema["properties"]
      if case .array(let required)? = schema["required"]?.kind {
        for r in required {
          if case .string(let key) = r.kind, !members.contains(where: { $0.key == key }) {
            out.append("\(path): missing required '\(key)'")
          }
        }
      }
      for m in members {
        let memberPath = "\(path).\(m.key)"
        if let names = schema["propertyNames"] { out += errors(JSON5Value(.string(m.key)), names, memberPath) }
        if let sub = properties?[m.key] {
          out += errors(m.value, sub, memberPath)
        } else if let additional = schema["additionalProperties"] {
          if case .bool(false) = additional.kind {
            out.append("\(memberPath): unknown property")
          } else {
            out += errors(m.value, additional, memberPath)
          }
        }
      }
    }
    if case .array(let subs)? = schema["allOf"]?.kind {
      for s in subs { out += errors(v, s, path) }
    }
    if case .array(let subs)? = schema["anyOf"]?.kind, !subs.contains(where: { errors(v, $0, path).isEmpty }) {
      out.append("\(path): matches none of the alternatives")
    }
    if case .array(let subs)? = schema["oneOf"]?.kind {
      let count = subs.filter { errors(v, $0, path).isEmpty }.count
      if count != 1 { out.append("\(path): matches \(count) alternatives, expected exactly one") }
    }
    if let not = schema["not"], errors(v, not, path).isEmpty { out.append("\(path): matches a forbidden schema") }
    if let condition = schema["if"], let then = schema["then"], errors(v, condition, path).isEmpty {
      out += errors(v, then, path)
    }
    return out
  }

  private static func matches(_ v: JSON5Value, type: String) -> Bool {
    switch (type, v.kind) {
    case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
      ("object", .object):
      return true
    case ("integer", .number(let x)): return x.isFinite && x == x.rounded()
    default: return false
    }
  }

  /// Structural equality, ignoring positions and key order.
  static func equal(_ a: JSON5Value, _ b: JSON5Value) -> Bool {
    switch (a.kind, b.kind) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
    case (.object(let x), .object(let y)):
      return x.count == y.count
        && x.allSatisfy { m in y.contains { $0.key == m.key && equal($0.value, m.value) } }
    default: return false
    }
  }
}
