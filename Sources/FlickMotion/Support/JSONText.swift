/// JSON that Flick writes line by line rather than through an encoder: progress lines (`flick
/// render --progress json`, `flick run`'s events), a batch job's canonical identity, and the
/// samples of `flick trace` and `flick curve` (`--format json`, the studio's `/api/trace`).
/// Every hand-written JSON text uses these two writers, so it parses whatever a name or a
/// number holds.
package enum JSONText {
  /// `text` as a JSON string literal: `"` and `\` escaped, every control character below U+0020
  /// as `\u00xx`, everything else as it is. The output is one line whatever `text` holds, and a
  /// job's identity hash depends on these exact bytes (``FlickBatch``'s `JobIdentity`).
  package static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// `value` as a JSON number: `null` when it is not finite (JSON has no infinity or NaN: an
  /// overflow such as a spring from -1e308 to 1e308 has an infinite velocity), else Swift's
  /// shortest text that reads back as the same `Double`, or with `significantDigits` the C
  /// `%.Ng` text (`0` for zero), which is a JSON number too (`1e+308`, `1e-05`).
  package static func number(_ value: Double, significantDigits: Int? = nil) -> String {
    guard value.isFinite else { return "null" }
    guard let digits = significantDigits else { return "\(value)" }
    return value == 0 ? "0" : String(format: "%.\(digits)g", value)
  }

  /// `value` with `decimals` digits after the point (the C `%.Nf` text, `0.870`): `null` when it
  /// is not finite, as ``number(_:significantDigits:)``.
  package static func number(_ value: Double, decimals: Int) -> String {
    value.isFinite ? String(format: "%.\(decimals)f", value) : "null"
  }
}
