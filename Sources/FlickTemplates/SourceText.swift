/// The lines of a template's text as ``JSON5Parser`` numbers them: what shows a diagnostic's
/// line under it (the studio's error overlay), so the line is the one the parser counted and a
/// caret at ``TemplateError/column`` lands where it counted.
package enum SourceText {
  /// Line `number` (1-based) of `text`, without its line end, or nil when the text has fewer
  /// lines.
  ///
  /// A line ends where the parser ends one: at LF, at CR LF (one line end), at a lone CR, at
  /// U+2028 or at U+2029; a byte-order mark opening the text is not part of line 1 (the parser
  /// skips it). A ``TemplateError/column`` counts the Unicode scalars of this line from 1: a tab
  /// is one, and so is each scalar of a character made of several (an emoji sequence).
  package static func line(_ number: Int, of text: String) -> String? {
    guard number >= 1 else { return nil }
    let scalars = text.unicodeScalars
    var start = scalars.startIndex
    if start < scalars.endIndex, scalars[start] == "\u{FEFF}" { start = scalars.index(after: start) }
    var line = 1
    var index = start
    while index < scalars.endIndex {
      let c = scalars[index].value
      guard c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029 else {
        index = scalars.index(after: index)
        continue
      }
      if line == number { return String(Substring(scalars[start..<index])) }
      index = scalars.index(after: index)
      if c == 0x0D, index < scalars.endIndex, scalars[index].value == 0x0A { index = scalars.index(after: index) }
      line += 1
      start = index
    }
    return line == number ? String(Substring(scalars[start...])) : nil
  }

  /// Where the first byte that is not UTF-8 is in `bytes`, counted as ``JSON5Parser`` counts
  /// (lines end at LF, CR LF, CR, U+2028 and U+2029; a column is a scalar), or nil when all of
  /// `bytes` is UTF-8 text. For "not UTF-8" errors that say where.
  package static func firstInvalidUTF8(in bytes: some Sequence<UInt8>) -> (line: Int, column: Int)? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var (line, column) = (1, 1)
    var previous: UInt32 = 0
    var first = true
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        let c = scalar.value
        defer { (previous, first) = (c, false) }
        if first && c == 0xFEFF { continue }
        if c == 0x0A && previous == 0x0D { continue }  // CR LF: the line ended at the CR
        if c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029 {
          (line, column) = (line + 1, 1)
        } else {
          column += 1
        }
      case .emptyInput: return nil
      case .error: return (line, column)
      }
    }
  }
}
