/// JSON that Flick writes line by line rather than through an encoder: progress lines (`flick
/// render --progress json`, `flick run`'s events) and a batch job's canonical identity.
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
}
