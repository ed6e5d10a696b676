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
///
/// Durations: `%m:ss` shows a number of seconds as minutes and seconds (`125` → `2:05`), and
/// `%h:mm:ss` as hours, minutes and seconds (`3725` → `1:02:05`); a precision shows fractions
/// of a second (`%.1m:ss`: `2:05.3`). They round to the last digit shown (half away from zero),
/// the leading field is not capped (`%m:ss` of 3725 is `62:05`), a negative duration shows a
/// minus sign, and the `+` flag, a width and the `-` flag apply to the whole duration. The
/// formats `"m:ss"` and `"h:mm:ss"` alone mean `"%m:ss"` and `"%h:mm:ss"`.
public struct TextNumberFormat: Sendable, Hashable, CustomStringConvertible {
  /// The conversion character.
  public enum Conversion: Character, Sendable, Hashable {
    case fixed = "f", exponent = "e", general = "g", integer = "d"
    /// `%m:ss`: minutes and seconds.
    case minutes = "m"
    /// `%h:mm:ss`: hours, minutes and seconds.
    case hours = "h"
  }

  /// The formats that are a duration alone, and what they mean.
  static let durationShorthands = ["m:ss": "%m:ss", "h:mm:ss": "%h:mm:ss"]

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
    let written = Self.durationShorthands[source] ?? source
    var prefix = "", suffix = ""
    var spec: (flags: String, width: Int?, precision: Int?, conversion: Conversion)?
    var chars = Array(written)[...]
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
      case "m" where chars.starts(with: ":ss"):
        chars.removeFirst(3)
        conversion = .minutes
      case "h" where chars.starts(with: ":mm:ss"):
        chars.removeFirst(6)
        conversion = .hours
      default:
        throw Error(
          "'\(quoted: source)': '%\(quoted: flags)\(quoted: letter)' is not a number conversion; use "
            + "%f, %e, %g, %d, or %m:ss or %h:mm:ss for a duration (like \"%.0f\")")
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
    case .minutes, .hours:
      body = duration(value)
    }
    return prefix + body + suffix
  }

  /// `seconds` as `m:ss` or `h:mm:ss` (``Conversion/minutes``, ``Conversion/hours``), with
  /// ``precision`` decimals of a second, the `+` flag and the width.
  private func duration(_ seconds: Double) -> String {
    let places = min(precision ?? 0, 9)
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    // Whole units of the last digit shown, capped where a Double still counts them exactly.
    let units = Int(min((abs(seconds) * Double(scale)).rounded(.toNearestOrAwayFromZero), 9.0e15))
    let whole = units / scale
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    var text =
      conversion == .hours
      ? "\(whole / 3600):\(two(whole / 60 % 60)):\(two(whole % 60))" : "\(whole / 60):\(two(whole % 60))"
    if places > 0 {
      let fraction = String(units % scale)
      text += "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
    if seconds < 0 && units > 0 {
      text = "-" + text
    } else if flags.contains("+") {
      text = "+" + text
    } else if flags.contains(" ") {
      text = " " + text
    }
    guard let width, text.count < width else { return text }
    let padding = String(repeating: " ", count: width - text.count)
    return flags.contains("-") ? text + padding : padding + text
  }
}
