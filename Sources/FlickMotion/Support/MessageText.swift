/// Input made safe to print: every message that echoes something from outside Flick (a
/// template, its parameters, a manifest, a file name, a command-line argument) passes it through
/// ``quoted(_:limit:)`` (or, for text that is already short, ``escaped(_:)``), so hostile input
/// cannot start a new line in a terminal or CI log (a forged `::error` GitHub annotation), move
/// the cursor or recolour the output (ANSI escapes), reorder what is shown (bidirectional
/// overrides), or make a message of megabytes.
///
/// It lives in the lowest module so that every module's errors (templates, raster, video,
/// snapshots, batches, the command line) use the same rules; FlickTemplates calls it
/// `TemplateText`. `MessageTextSitesTests` reads every message site in `Sources/` and fails
/// when one interpolates input without going through it.
package enum MessageText {
  /// How many Unicode scalars of one echoed input a message shows by default (then `…` and the
  /// total length).
  package static let echoLimit = 200

  /// `text` with control and formatting characters written as escapes: `\n`, `\r`, `\t`, and
  /// `\u{…}` for the rest of C0, DEL, C1, the line and paragraph separators, bidirectional
  /// controls and other invisible format characters. Ordinary text (including non-Latin scripts
  /// and emoji) is unchanged, and escaping twice changes nothing more.
  ///
  /// Linear in the length of `text`: one pass that appends UTF-8 bytes to one buffer.
  package static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        UTF8.encode(scalar) { out.append($0) }
        continue
      }
      switch scalar {
      case "\n": out.append(contentsOf: #"\n"#.utf8)
      case "\r": out.append(contentsOf: #"\r"#.utf8)
      case "\t": out.append(contentsOf: #"\t"#.utf8)
      default:
        out.append(contentsOf: #"\u{"#.utf8)
        out.append(contentsOf: String(scalar.value, radix: 16, uppercase: true).utf8)
        out.append(UInt8(ascii: "}"))
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `value`'s `description` through ``escaped(_:)``: for a message (an error) quoted inside
  /// another, whose own sites capped what they echo.
  package static func escaped<Value>(_ value: Value) -> String {
    escaped(String(describing: value))
  }

  /// `text` as a message echoes it: at most `limit` Unicode scalars of it (then `…` and its
  /// total length in scalars), escaped (``escaped(_:)``). Quote marks, if the message wants them,
  /// are the message's own.
  ///
  /// Reads `text` once to count it and escapes at most `limit` scalars, so a 1.5 MB template
  /// value costs one pass and gives a line of a few hundred characters.
  /// - Parameter limit: scalars shown, 1 or more; ``echoLimit`` (200) by default.
  package static func quoted(_ text: String, limit: Int = echoLimit) -> String {
    let scalars = text.unicodeScalars
    guard let cut = scalars.index(scalars.startIndex, offsetBy: max(1, limit), limitedBy: scalars.endIndex),
      cut != scalars.endIndex
    else { return escaped(text) }
    return escaped(String(scalars[..<cut])) + "… (\(scalars.count) characters)"
  }

  /// `value` as a message echoes it: its `description` through ``quoted(_:limit:)``, for values
  /// that are not strings (a decoder's error, a number read from a file, a character).
  package static func quoted<Value>(_ value: Value, limit: Int = echoLimit) -> String {
    quoted(String(describing: value), limit: limit)
  }

  /// Whether `scalar` must not reach a terminal as it is.
  package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    // Printable ASCII first, without a look at the scalar's properties: nearly every scalar of a
    // message, and the C0 and C1 controls around it.
    if v < 0x20 { return true }
    if v < 0x7F { return false }
    if v <= 0x9F { return true }
    switch scalar.properties.generalCategory {
    case .format, .lineSeparator, .paragraphSeparator, .control, .surrogate, .privateUse, .unassigned:
      // Zero-width joiners keep emoji sequences intact.
      return v != 0x200D
    default:
      return false
    }
  }

  /// `names` joined with ", " for a message, at most `limit` of them (then "… and N more"), each
  /// through ``quoted(_:limit:)``, so a template with thousands of names, or one huge name, cannot
  /// make a message of megabytes.
  package static func list(_ names: [String], limit: Int = 20) -> String {
    let shown = names.prefix(limit).map { quoted($0) }.joined(separator: ", ")
    return names.count > limit ? shown + ", … and \(names.count - limit) more" : shown
  }

  /// A message made safe to print as one entry of a log: each line escaped (``escaped(_:)``),
  /// every line after the first indented by two spaces, so no line of it can start at column 0
  /// (where a CI runner reads `::error` commands). The command line's printers use it for every
  /// error and warning, behind the escaping each message site does.
  package static func logEntry(_ message: String) -> String {
    // Split on the scalar, not the Character: "\r\n" is one Character, and its CR is escaped.
    var lines = message.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
      .map { escaped(String($0)) }
    for i in lines.indices.dropFirst() where !lines[i].hasPrefix(" ") { lines[i] = "  " + lines[i] }
    return lines.joined(separator: "\n")
  }
}

extension DefaultStringInterpolation {
  /// `"… '\(quoted: name)' …"`: `name` through ``MessageText/quoted(_:limit:)`` (escaped, at most
  /// `limit` scalars), the way message sites echo input.
  package mutating func appendInterpolation<Value>(quoted value: Value, limit: Int = MessageText.echoLimit) {
    appendLiteral(MessageText.quoted(value, limit: limit))
  }

  /// `"…: \(escaped: reason)"`: `reason` through ``MessageText/escaped(_:)``, for a message quoted
  /// inside another whose own sites capped what they echo.
  package mutating func appendInterpolation<Value>(escaped value: Value) {
    appendLiteral(MessageText.escaped(value))
  }
}
