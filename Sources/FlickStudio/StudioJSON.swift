import FlickTemplates
import Foundation

/// `GET /api/templates`.
struct TemplatesBody: Encodable {
  struct Entry: Encodable, Equatable, Sendable {
    var name: String
    var title: String
  }
  var folder: String
  var templates: [Entry]
}

/// A template error as the page shows it: located, with the source line and the CLI's text.
struct Diagnostic: Encodable, Equatable {
  var file: String
  var line: Int
  var column: Int
  var path: String
  var message: String
  var sourceLine: String?
  var caret: Int
  /// The exact line `flick` prints for it (`flick: FILE:LINE:COL: path: message`).
  var text: String
}

/// `event: reload`.
struct ReloadEvent: Encodable {
  var template: String
  var revision: Int
}

/// `event: error`.
struct ErrorEvent: Encodable {
  var template: String
  var revision: Int
  var error: Diagnostic
}

/// A JSON5 value as JSON (parameters' defaults and values).
struct JSONValue: Encodable {
  let value: JSON5Value

  init(_ value: JSON5Value) { self.value = value }

  func encode(to encoder: Encoder) throws {
    switch value.kind {
    case .null:
      var c = encoder.singleValueContainer()
      try c.encodeNil()
    case .bool(let b):
      var c = encoder.singleValueContainer()
      try c.encode(b)
    case .number(let d):
      var c = encoder.singleValueContainer()
      if d.isFinite { try c.encode(d) } else { try c.encodeNil() }
    case .string(let s):
      var c = encoder.singleValueContainer()
      try c.encode(s)
    case .array(let items):
      var c = encoder.unkeyedContainer()
      for item in items { try c.encode(JSONValue(item)) }
    case .object(let members):
      var c = encoder.container(keyedBy: DynamicKey.self)
      for member in members { try c.encode(JSONValue(member.value), forKey: DynamicKey(member.key)) }
    }
  }
}

/// A coding key from a string (object members, parameter names).
struct DynamicKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// A JSON value received in a request body (parameter values), decoded without `Any`.
enum ReceivedValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([ReceivedValue])
  case object([String: ReceivedValue])

  init(from decoder: Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      self = .null
    } else if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let d = try? c.decode(Double.self) {
      self = .number(d)
    } else if let s = try? c.decode(String.self) {
      self = .string(s)
    } else if let a = try? c.decode([ReceivedValue].self) {
      self = .array(a)
    } else {
      self = .object(try c.decode([String: ReceivedValue].self))
    }
  }

  /// The value as `--set NAME=VALUE` writes it: strings as they are, everything else as JSON5.
  var assignmentText: String {
    switch self {
    case .string(let s): return s
    default: return literal
    }
  }

  /// The value as a JSON5 literal.
  var literal: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let d):
      return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    case .string(let s):
      let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
      return String(decoding: data, as: UTF8.self)
    case .array(let items): return "[" + items.map(\.literal).joined(separator: ", ") + "]"
    case .object(let members):
      return "{"
        + members.sorted { $0.key < $1.key }.map { ReceivedValue.string($0.key).literal + ": " + $0.value.literal }
        .joined(separator: ", ") + "}"
    }
  }
}
