/// A parsed JSON5 value together with where it came from, so errors can point at it.
public struct JSON5Value: Sendable, Equatable {
  /// The value's kind and content.
  public enum Kind: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON5Value])
    /// Members in source order (duplicates are rejected by the parser).
    case object([Member])
  }

  /// One `key: value` member of an object, with the key's position.
  public struct Member: Sendable, Equatable {
    public var key: String
    public var value: JSON5Value
    /// 1-based line of the key.
    public var line: Int
    /// 1-based column of the key.
    public var column: Int

    public init(key: String, value: JSON5Value, line: Int, column: Int) {
      self.key = key
      self.value = value
      self.line = line
      self.column = column
    }
  }

  /// The content.
  public var kind: Kind
  /// 1-based line of the value's first character.
  public var line: Int
  /// 1-based column (in characters) of the value's first character.
  public var column: Int
  /// Where a value that was not written at its position came from, for messages: set on values
  /// substituted from a parameter (`parameter 'accent'`) or merged from a style (`style 'card'`).
  public var origin: String?
  /// The JSON path a value reports in errors instead of the one derived from its parent's: set
  /// on what a component instance expands to, so an error names the instance and the place in the
  /// component's definition (`layers[2] (use "toggleRow") → components.toggleRow.layer.fontSize`).
  package var anchor: String?

  public init(_ kind: Kind, line: Int = 0, column: Int = 0) {
    self.kind = kind
    self.line = line
    self.column = column
  }

  /// A short name of the kind for messages: "a number", "an object", …
  public var kindDescription: String {
    switch kind {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The member `key` of an object, or nil.
  public subscript(key: String) -> JSON5Value? {
    if case .object(let members) = kind {
      return members.first { $0.key == key }?.value
    }
    return nil
  }
}
