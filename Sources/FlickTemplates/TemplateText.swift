/// Template text made safe to print: every message that echoes something a template (or its
/// parameters) wrote goes through ``escaped(_:)``, so a hostile template cannot start a new line in
/// a terminal or CI log (a forged `::error` GitHub annotation), move the cursor or recolour the
/// output (ANSI escapes), or reorder what is shown (bidirectional overrides).
///
/// ``TemplateError/description`` escapes its file, path and message, so every template
/// diagnostic is covered in one place; other output that shows template text (such as `flick
/// info`) uses the same function.
package enum TemplateText {
  /// `text` with control and formatting characters written as escapes: `\n`, `\r`, `\t`, and
  /// `\u{…}` for the rest of C0, DEL, C1, the line and paragraph separators, bidirectional
  /// controls and other invisible format characters. Ordinary text (including non-Latin scripts
  /// and emoji) is unchanged, and escaping twice changes nothing more.
  package static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        out.append(scalar)
        continue
      }
      let escape: String
      switch scalar {
      case "\n": escape = "\\n"
      case "\r": escape = "\\r"
      case "\t": escape = "\\t"
      default: escape = "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      }
      out.append(contentsOf: escape.unicodeScalars)
    }
    return String(out)
  }

  /// Whether `scalar` must not reach a terminal as it is.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    if v < 0x20 || (0x7F...0x9F).contains(v) { return true }
    switch scalar.properties.generalCategory {
    case .format, .lineSeparator, .paragraphSeparator, .control, .surrogate, .privateUse, .unassigned:
      // Zero-width joiners keep emoji sequences intact.
      return v != 0x200D
    default:
      return false
    }
  }

  /// `names` joined with ", " for a message, at most `limit` of them (then "… and N more"), so a
  /// template with thousands of names cannot make a message of megabytes.
  package static func list(_ names: [String], limit: Int = 20) -> String {
    guard names.count > limit else { return names.joined(separator: ", ") }
    return names.prefix(limit).joined(separator: ", ") + ", … and \(names.count - limit) more"
  }
}
