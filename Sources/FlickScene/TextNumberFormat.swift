import FlickMotion
import Foundation

/// How a text layer shows its ``TextContent/number``: a printf-style format with exactly one
/// number conversion, and any literal text around it (`"%.0f"`, `"%.1f%%"`, `"+%d new"`,
/// `"%05.2f s"`), as `String(format:)` and Manim's `DecimalNumber` do.
///
/// The conversion is `%[flags][width][.precision]f|e|g|d|i` (flags `-`, `+`, space, `0`, `'`
/// is not accepted; width and precision 0…20); `%%` is a literal percent sign. `d` and `i`
/// round to the nearest integer (half away from zero). A value that rounds to zero shows
/// without a minus sign (a spring overshooting below 0 shows `0`, not `-0`). Formatting uses
/// the C locale (a `.` decimal point), so frames are the same on every machine.
public struct TextNumberFormat: Sendable, Hashable, CustomStringConvertible {
  /// The conversion character.
  public enum Conversion: Character, Sendable, Hashable {
    case fixed = "f", exponent = "e", general = "g", integer = "d"
  }

  /// The format as written.
  public let source: String
  /// Literal text before and after the conversion (`%%` already turned into `%`).
  let prefix: String, suffix: String
  /// The conversion's flags, width and precision, as written between `%` and the character.
  let flags: String
  let width: Int?
  let precision: Int?
  public let conversion: Conversion

  /// `%.0f`: the nearest integer.
  // swift-format-ignore: NeverUseForceTry
  // A literal that parses (TextNumberFormatTests); a failure here is a programming error.
  public static let integer = try! TextNumberFormat("%.0f")

  /// Parses `source`; throws a message saying what is wrong when it is not a format with
  /// exactly one number conversion.
  public init(_ source: String) throws(TextNumberFormat.Error) {
    self.source = source
    var prefix = "", suffix = ""
    var spec: (flags: String, width: Int?, precision: Int?, conversion: Conversion)?
    var chars = Array(source)[...]
    while let c = chars.popFirst() {
      guard c == "%" else {
        if spec == nil { prefix.append(c) } else { suffix.append(c) }
        continue
      }
      if chars.first == "%" {
        chars.removeFirst()
        if spec == nil { prefix.append("%") } else { suffix.append("%") }
        continue
      }
      guard spec == nil else {
        throw Error("'\(quoted: source)' has more than one number conversion; a text layer shows one number")
      }
      var flags = ""
      while let f = chars.first, "-+ 0#".contains(f) {
        flags.append(f)
        chars.removeFirst()
      }
      func digits() throws(TextNumberFormat.Error) -> Int? {
        var d = ""
        while let x = chars.first, x.isASCII, x.isNumber {
          d.append(x)
          chars.removeFirst()
        }
        guard !d.isEmpty else { return nil }
        guard let n = Int(d), n <= 20 else { throw Error("'\(quoted: source)': widths and precisions go up to 20") }
        return n
      }
      let width = try digits()
      var precision: Int?
      if chars.first == "." {
        chars.removeFirst()
        precision = try digits() ?? 0
      }
      guard let letter = chars.popFirst() else {
        throw Error("'\(quoted: source)' ends inside a conversion; expected f, e, g or d after '%'")
      }
      let conversion: Conversion
      switch letter {
      case "f", "F": conversion = .fixed
      case "e", "E": conversion = .exponent
      case "g", "G": conversion = .general
      case "d", "i": conversion = .integer
      default:
        throw Error(
          "'\(quoted: source)': '%\(quoted: flags)\(quoted: letter)' is not a number conversion; use "
            + "%f, %e, %g or %d (like \"%.0f\")")
      }
      spec = (flags, width, precision, conversion)
    }
    guard let spec else {
      throw Error("'\(quoted: source)' has no number conversion; write one like \"%.0f\" or \"%.1f%%\"")
    }
    self.prefix = prefix
    self.suffix = suffix
    self.flags = spec.flags
    self.width = spec.width
    self.precision = spec.precision
    self.conversion = spec.conversion
  }

  /// What a format error says.
  public struct Error: Swift.Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ message: String) { description = message }
  }

  public var description: String { source }

  /// `value` as the text shows it (a non-finite value shows as `nan` or `inf`).
  public func string(for value: Double) -> String {
    guard value.isFinite else { return prefix + (value.isNaN ? "nan" : value < 0 ? "-inf" : "inf") + suffix }
    let spec = "%" + flags + (width.map(String.init) ?? "")
    let body: String
    switch conversion {
    case .integer:
      let rounded = value.rounded(.toNearestOrAwayFromZero)
      let n = Int(max(-9.0e18, min(9.0e18, rounded)))
      body = String(format: spec + "lld", n)
    case .fixed:
      let p = precision ?? 6
      let scale = pow(10, Double(p))
      let v = (value * scale).rounded() == 0 ? 0 : value
      body = String(format: spec + ".\(p)f", v)
    case .exponent:
      body = String(format: spec + (precision.map { ".\($0)" } ?? "") + "e", value)
    case .general:
      body = String(format: spec + (precision.map { ".\($0)" } ?? "") + "g", value)
    }
    return prefix + body + suffix
  }
}
