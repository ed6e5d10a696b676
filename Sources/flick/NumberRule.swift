import FlickMotion

/// What a number option takes. Every number on the command line is read by one grammar, the
/// template language's (``FlickMotion/DecimalText/optionValue(_:)``: `30`, `2.5`, `1e3`, `-0.5`,
/// `.5`; no leading `+`), then checked against the option's own range. What `Double(String)`
/// reads besides (`0x10`, `0x1p4`, `nan`, `inf`, `infinity`, an overflow such as `1e999`, a space
/// around the number) is refused with exit 2, naming the option, the value and what the option
/// expects. The numbers inside other values (`--at 1.5s`, `--size 640x360`, `--max-size 2MB`,
/// the caps) are read by the same grammar.
struct NumberRule: Sendable {
  /// The values the option takes.
  var range: ClosedRange<Double>
  /// Whether the lower bound itself is refused (`(0, 10000]`).
  var excludesLower = false
  /// Whether the value must be a whole number.
  var whole = false

  /// A whole number in `range`.
  static func whole(_ range: ClosedRange<Int>) -> NumberRule {
    NumberRule(range: Double(range.lowerBound)...Double(range.upperBound), whole: true)
  }

  /// Any finite number.
  static let any = NumberRule(range: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)

  /// A number in `range`, or above its lower bound (`excludesLower`) up to its upper bound.
  static func decimal(_ range: ClosedRange<Double>, excludesLower: Bool = false) -> NumberRule {
    NumberRule(range: range, excludesLower: excludesLower)
  }

  /// What the option expects, for messages: `a whole number in 1…240`, `a number in (0, 10000]`.
  var expectation: String {
    let kind = whole ? "a whole number" : "a number"
    let lo = DecimalText.format(range.lowerBound, decimals: 6)
    let hi = DecimalText.format(range.upperBound, decimals: 6)
    switch (range.lowerBound.magnitude >= 1e15, range.upperBound >= 1e15) {
    case (true, true): return kind
    case (false, true): return kind + (excludesLower ? " > " : " ≥ ") + lo
    default: return excludesLower ? "\(kind) in (\(lo), \(hi)]" : "\(kind) in \(lo)…\(hi)"
    }
  }

  /// How numbers are written, for messages and `flick --help`.
  static let grammar = "numbers are written in decimal, as in templates: 30, 2.5, 1e3, -0.5; not 0x10, +5, nan or inf"

  /// Whether `v` is in the range (and whole, if it must be).
  func accepts(_ v: Double) -> Bool {
    range.contains(v) && !(excludesLower && v == range.lowerBound) && (!whole || v == v.rounded())
  }

  /// The value of `text` for `option` (written with its dashes, or as an environment variable).
  ///
  /// - Throws: A usage error (exit 2) naming `option`, the text and what it expects.
  func read(_ text: String, option: String) throws(CommandError) -> Double {
    guard let v = DecimalText.optionValue(text) else {
      throw CommandError.usage(
        "\(escaped: option) expects \(escaped: expectation), found '\(quoted: text)' "
          + "(\(escaped: Self.grammar))")
    }
    guard accepts(v) else {
      throw CommandError.usage("\(escaped: option) expects \(escaped: expectation), found '\(quoted: text)'")
    }
    return v == 0 ? 0 : v  // not -0
  }

  /// ``read(_:option:)`` of a whole number (its range is within `Int`'s).
  func readWhole(_ text: String, option: String) throws(CommandError) -> Int {
    Int(try read(text, option: option))
  }

  /// The check ``Arguments`` runs on each value of an option taking this rule.
  func check(_ option: String) -> Arguments.Check {
    { text throws(CommandError) in _ = try read(text, option: "--" + option) }
  }
}

extension NumberRule {
  /// The checks of the options `rules` names (by option name), run as the arguments are parsed.
  static func checks(_ rules: [String: NumberRule]) -> [String: Arguments.Check] {
    var out: [String: Arguments.Check] = [:]
    for (name, rule) in rules { out[name] = rule.check(name) }
    return out
  }
}

extension Arguments {
  /// The number given for `name`, read by its rule in `rules` (nil when it is not given).
  func number(_ name: String, in rules: [String: NumberRule]) throws(CommandError) -> Double? {
    guard let text = value(name) else { return nil }
    guard let rule = rules[name] else { preconditionFailure("an option read as a number has no number rule") }
    return try rule.read(text, option: "--" + name)
  }

  /// ``number(_:in:)`` of a whole-number option.
  func whole(_ name: String, in rules: [String: NumberRule]) throws(CommandError) -> Int? {
    try number(name, in: rules).map { Int($0) }
  }
}
