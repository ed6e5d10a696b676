/// A typed, documented knob a template exposes (its `parameters` section), referenced in the
/// template as `"$name"` (the whole value) or `"${name}"` (inside a string).
///
///     parameters: {
///       accent: { type: "color", default: "#F97316", description: "Card colour" },
///       count:  { type: "integer", default: 3, minimum: 1, maximum: 6 },
///     }
public struct TemplateParameter: Sendable, Equatable {
  /// The type of a parameter's value.
  public enum Kind: String, Sendable, CaseIterable {
    /// Any finite number (`minimum`/`maximum` optional).
    case number
    /// A whole number (`minimum`/`maximum` optional).
    case integer
    /// Any text.
    case string
    /// A colour: `"#RRGGBB"`, `"#RRGGBBAA"`, `"#RGB"`, `"transparent"` (`"colour"` is accepted too).
    case color
    /// A path to an image file, relative to the template's folder (an asset).
    case image
    /// A font family name (`"Inter"`); font files are not supported yet.
    case font
    /// `true` or `false`.
    case boolean
    /// One of `choices`.
    case `enum`
    /// An array of `items` values (`minItems`/`maxItems` optional).
    case list

    /// Parses a type name as written in templates.
    public init?(name: String) {
      if name == "colour" {
        self = .color
      } else {
        self.init(rawValue: name)
      }
    }

    /// The type names templates may write, for messages and the schema.
    public static let names = allCases.map(\.rawValue) + ["colour"]

    /// The types a `list`'s `items` may name: any but `list`.
    package static let itemKinds = allCases.filter { $0 != .list }

    /// How many items a `list`'s `minItems` and `maxItems` may ask for.
    package static let itemCountRange = 0...10_000
  }

  /// The name used in references (`$name`), `--set name=…` and `--params`.
  public var name: String
  /// The value type.
  public var kind: Kind
  /// What the parameter changes, for `flick info`.
  public var description: String
  /// The value used when none is given, already validated; nil makes the parameter required.
  public var defaultValue: JSON5Value?
  /// Inclusive lower bound for `number`/`integer` (and each `list` item of those types).
  public var minimum: Double?
  /// Inclusive upper bound for `number`/`integer` (and each `list` item of those types).
  public var maximum: Double?
  /// The allowed values of an `enum` (or of each `list` item whose `items` is `enum`).
  public var choices: [String]
  /// The type of each item of a `list`.
  public var itemKind: Kind?
  /// Fewest items of a `list`.
  public var minItems: Int?
  /// Most items of a `list`.
  public var maxItems: Int?

  public init(
    name: String, kind: Kind, description: String = "", defaultValue: JSON5Value? = nil,
    minimum: Double? = nil, maximum: Double? = nil, choices: [String] = [], itemKind: Kind? = nil,
    minItems: Int? = nil, maxItems: Int? = nil
  ) {
    self.name = name
    self.kind = kind
    self.description = description
    self.defaultValue = defaultValue
    self.minimum = minimum
    self.maximum = maximum
    self.choices = choices
    self.itemKind = itemKind
    self.minItems = minItems
    self.maxItems = maxItems
  }

  /// The type as `flick info` shows it: `integer 1…6`, `enum (left|right)`, `list of color`.
  public var typeDescription: String {
    switch kind {
    case .number, .integer:
      switch (minimum.map(TemplateNode.format), maximum.map(TemplateNode.format)) {
      case (let lo?, let hi?): return "\(kind.rawValue) \(lo)…\(hi)"
      case (let lo?, nil): return "\(kind.rawValue) ≥ \(lo)"
      case (nil, let hi?): return "\(kind.rawValue) ≤ \(hi)"
      case (nil, nil): return kind.rawValue
      }
    case .enum:
      return "enum (\(choices.joined(separator: "|")))"
    case .list:
      var item = itemKind?.rawValue ?? "string"
      if itemKind == .enum { item = "enum (\(choices.joined(separator: "|")))" }
      var text = "list of \(item)"
      if let minItems, let maxItems {
        text += ", \(minItems)…\(maxItems) items"
      } else if let minItems {
        text += ", at least \(minItems) items"
      } else if let maxItems {
        text += ", at most \(maxItems) items"
      }
      return text
    default:
      return kind.rawValue
    }
  }

  /// The text a value takes inside an interpolated string (`"Hello, ${name}"`).
  static func text(of value: JSON5Value) -> String {
    switch value.kind {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let v): return TemplateNode.format(v)
    case .string(let s): return s
    case .array(let items): return items.map(text(of:)).joined(separator: ", ")
    case .object: return "{…}"
    }
  }
}
