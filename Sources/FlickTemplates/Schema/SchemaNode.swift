/// One value of a JSON Schema document as Swift builds it: objects keep their members in the
/// order written (so the generated `Templates/schema.json` is stable and reviewable), and
/// ``json`` prints it the way the file is committed (two-space indent, UTF-8, no escaping of
/// non-ASCII text).
///
/// Literals build it directly: `["type": "number", "minimum": 0]`.
package indirect enum SchemaNode: Sendable, Equatable {
  case object([Member])
  case array([SchemaNode])
  case string(String)
  case integer(Int)
  case number(Double)
  case bool(Bool)

  /// One member of an object.
  package struct Member: Sendable, Equatable {
    package var key: String
    package var value: SchemaNode
    package init(_ key: String, _ value: SchemaNode) {
      self.key = key
      self.value = value
    }
  }

  /// `{ "$ref": "#/$defs/name" }`.
  package static func ref(_ name: String) -> SchemaNode { ["$ref": .string("#/$defs/" + name)] }

  /// An object from members built in code (keys in order; a later duplicate replaces the
  /// earlier value in its place).
  package static func fields(_ pairs: [(String, SchemaNode)]) -> SchemaNode {
    SchemaNode.object([]).merging(.object(pairs.map { Member($0.0, $0.1) }))
  }

  /// An array of strings (an `enum` or `required` list).
  package static func strings(_ items: [String]) -> SchemaNode { .array(items.map(SchemaNode.string)) }

  /// The members of an object (empty for anything else).
  package var members: [Member] {
    if case .object(let m) = self { return m }
    return []
  }

  /// The value of `key` in an object, or nil.
  package subscript(key: String) -> SchemaNode? {
    members.first { $0.key == key }?.value
  }

  /// This object with the members of `other` added: a key already present keeps its place and
  /// takes the new value, new keys go at the end.
  package func merging(_ other: SchemaNode) -> SchemaNode {
    var out = members
    for m in other.members {
      if let i = out.firstIndex(where: { $0.key == m.key }) {
        out[i].value = m.value
      } else {
        out.append(m)
      }
    }
    return .object(out)
  }

  /// This object with `key` set to `value` (in place if present, else at the end).
  package func setting(_ key: String, _ value: SchemaNode) -> SchemaNode {
    merging(.object([Member(key, value)]))
  }

  /// The document as JSON text: two-space indent, one member or item per line, a final newline.
  package var json: String {
    var out = ""
    write(to: &out, indent: 0)
    return out + "\n"
  }

  private func write(to out: inout String, indent: Int) {
    let pad = String(repeating: " ", count: indent + 2)
    let close = String(repeating: " ", count: indent)
    switch self {
    case .object(let members):
      guard !members.isEmpty else { return out += "{}" }
      out += "{\n"
      for (i, m) in members.enumerated() {
        out += pad
        Self.writeString(m.key, to: &out)
        out += ": "
        m.value.write(to: &out, indent: indent + 2)
        out += i == members.count - 1 ? "\n" : ",\n"
      }
      out += close + "}"
    case .array(let items):
      guard !items.isEmpty else { return out += "[]" }
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += pad
        item.write(to: &out, indent: indent + 2)
        out += i == items.count - 1 ? "\n" : ",\n"
      }
      out += close + "]"
    case .string(let s): Self.writeString(s, to: &out)
    case .integer(let n): out += String(n)
    case .number(let d):
      // Whole numbers print as integers only when written as integers (`.integer`).
      out += d.isFinite ? "\(d)" : "null"
    case .bool(let b): out += b ? "true" : "false"
    }
  }

  private static func writeString(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

extension SchemaNode: ExpressibleByDictionaryLiteral {
  package init(dictionaryLiteral elements: (String, SchemaNode)...) {
    self = .object(elements.map { Member($0.0, $0.1) })
  }
}

extension SchemaNode: ExpressibleByArrayLiteral {
  package init(arrayLiteral elements: SchemaNode...) { self = .array(elements) }
}

extension SchemaNode: ExpressibleByStringLiteral {
  package init(stringLiteral value: String) { self = .string(value) }
}

extension SchemaNode: ExpressibleByIntegerLiteral {
  package init(integerLiteral value: Int) { self = .integer(value) }
}

extension SchemaNode: ExpressibleByFloatLiteral {
  package init(floatLiteral value: Double) { self = .number(value) }
}

extension SchemaNode: ExpressibleByBooleanLiteral {
  package init(booleanLiteral value: Bool) { self = .bool(value) }
}
