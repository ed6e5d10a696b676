/// A decimal number written inside a template's text (the number of an angle such as `"90deg"`,
/// a `--set` value, a length in an SVG file), read by one grammar: JSON5's decimal literal,
/// `[+-]?(digits[.[digits]] | .digits)([eE][+-]?digits)?`, with nothing around it. What
/// `Double(String)` reads besides (hexadecimal `0x10` and `0x1p4`, `nan`, `inf`, `infinity`)
/// is not a number here, and a value too large for a Double (`1e999`) is refused.
extension DecimalText {
  /// The grammar as a regular expression without anchors (the schema's patterns use it).
  package static let pattern = "[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?"

  /// The value of `text` when it is exactly one number in the grammar and finite, else nil.
  package static func value(_ text: some StringProtocol) -> Double? { value(utf8: Array(text.utf8)) }

  /// ``value(_:)`` of UTF-8 bytes.
  package static func value(utf8 b: [UInt8]) -> Double? {
    var i = 0
    func digits() -> String {
      let start = i
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
      return String(decoding: b[start..<i], as: UTF8.self)
    }
    var sign = ""
    if i < b.count, b[i] == 0x2B || b[i] == 0x2D {
      sign = b[i] == 0x2D ? "-" : ""
      i += 1
    }
    let whole = digits()
    var fraction = ""
    if i < b.count, b[i] == 0x2E {
      i += 1
      fraction = digits()
    }
    guard !whole.isEmpty || !fraction.isEmpty else { return nil }
    var exponent = ""
    if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
      i += 1
      if i < b.count, b[i] == 0x2B || b[i] == 0x2D {
        exponent = b[i] == 0x2D ? "-" : ""
        i += 1
      }
      let e = digits()
      guard !e.isEmpty else { return nil }
      exponent = "e" + exponent + e
    }
    guard i == b.count else { return nil }
    // Spelled out in full (`.5` as `0.5`, `5.` as `5.0`): Double reads every such text.
    let text = sign + (whole.isEmpty ? "0" : whole) + "." + (fraction.isEmpty ? "0" : fraction) + exponent
    guard let v = Double(text), v.isFinite else { return nil }
    return v
  }
}

extension DecimalText {
  /// A number written as a command-line option's value (or in one, as `--at 1.5s` or
  /// `--max-size 2MB`), or nil: ``value(_:)``, except that a leading `+` is refused, as the
  /// options are documented without one (`--fps +30` is a slip, not a positive 30).
  package static func optionValue(_ text: some StringProtocol) -> Double? {
    text.hasPrefix("+") ? nil : value(text)
  }
}
