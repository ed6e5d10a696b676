/// A parsed JSON5 value together with where it came from, so errors can point at it.
///
/// Kept small (40 bytes, a member 64), as a template of up to 16 MiB is millions of them: the
/// position as two 32-bit numbers (a template's lines and columns are far below 2³²), and the
/// rarely set ``origin`` and ``anchor`` in one shared box. An array of 8 million numbers took
/// 1.24 GB to parse with 72-byte values.
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
    private var position: SourcePosition

    /// 1-based line of the key.
    public var line: Int {
      get { position.line }
      set { position.line = newValue }
    }
    /// 1-based column of the key.
    public var column: Int {
      get { position.column }
      set { position.column = newValue }
    }

    public init(key: String, value: JSON5Value, line: Int, column: Int) {
      self.key = key
      self.value = value
      self.position = SourcePosition(line: line, column: column)
    }
  }

  /// The content.
  public var kind: Kind
  private var position: SourcePosition
  private var provenance: Provenance?

  /// 1-based line of the value's first character.
  public var line: Int {
    get { position.line }
    set { position.line = newValue }
  }
  /// 1-based column (in characters) of the value's first character.
  public var column: Int {
    get { position.column }
    set { position.column = newValue }
  }
  /// Where a value that was not written at its position came from, for messages: set on values
  /// substituted from a parameter (`parameter 'accent'`) or merged from a style (`style 'card'`).
  public var origin: String? {
    get { provenance?.origin }
    set { provenance = Provenance.make(origin: newValue, anchor: anchor) }
  }
  /// The JSON path a value reports in errors instead of the one derived from its parent's: set
  /// on what a component instance expands to, so an error names the instance and the place in the
  /// component's definition (`layers[2] (use "toggleRow") → components.toggleRow.layer.fontSize`).
  package var anchor: String? {
    get { provenance?.anchor }
    set { provenance = Provenance.make(origin: origin, anchor: newValue) }
  }

  public init(_ kind: Kind, line: Int = 0, column: Int = 0) {
    self.kind = kind
    self.position = SourcePosition(line: line, column: column)
  }

  public static func == (a: JSON5Value, b: JSON5Value) -> Bool {
    a.kind == b.kind && a.position == b.position && a.origin == b.origin && a.anchor == b.anchor
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

/// A line and a column, 1-based (0 when not from a file), in 32 bits each; a number outside
/// 0…2³²−1 is clamped (the parser reads at most 16 MiB).
private struct SourcePosition: Sendable, Equatable {
  private var storedLine: UInt32
  private var storedColumn: UInt32

  init(line: Int, column: Int) {
    storedLine = UInt32(clamping: line)
    storedColumn = UInt32(clamping: column)
  }

  var line: Int {
    get { Int(storedLine) }
    set { storedLine = UInt32(clamping: newValue) }
  }
  var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = UInt32(clamping: newValue) }
  }
}

/// A value's ``JSON5Value/origin`` and ``JSON5Value/anchor``, set on few values: one reference
/// (nil when both are) in place of two optional strings in every value. Immutable, so copies of
/// a value share it.
private final class Provenance: Sendable {
  let origin: String?
  let anchor: String?

  private init(origin: String?, anchor: String?) {
    self.origin = origin
    self.anchor = anchor
  }

  static func make(origin: String?, anchor: String?) -> Provenance? {
    origin == nil && anchor == nil ? nil : Provenance(origin: origin, anchor: anchor)
  }
}
