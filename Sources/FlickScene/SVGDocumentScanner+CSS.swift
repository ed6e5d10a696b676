import FlickMotion

/// The CSS an SVG picture holds (a `style` attribute, a `<style>` sheet, a presentation attribute
/// such as `fill="url(#g)"`), read for what it refers to in one pass over its UTF-8 bytes: no
/// string is built but the `#id` of each `url(…)`, so a 4 MiB value costs one walk over it.
extension SVGDocumentScanner {
  /// What one pass over CSS text found.
  struct CSSReferences {
    /// The `#id` of each `url(#id)`, and whether its declaration's property starts with `marker`
    /// (drawn once per vertex).
    var ids: [(id: String, marker: Bool)] = []
    /// Whether a `url(` is there at all.
    var hasURL = false
    /// Whether `@import` is there (any case).
    var hasImport = false
    /// Whether a backslash (a CSS escape, which could spell `url` or `@import`) is there.
    var hasEscape = false
    /// The first `url(…)` whose target is not `#id`, trimmed; or `nil`.
    var foreign: String?
    /// Whether a `url(` has no `)` after it.
    var unclosed = false
  }

  /// Reads `css` once: every `url(…)` (any case) with its target, and whether `@import` or an
  /// escape is there. A declaration ends at `;` (and, in a `sheet`, at `{` or `}`); its property
  /// is what comes before its first `:`.
  static func cssReferences(_ css: String, sheet: Bool) -> CSSReferences {
    var found = CSSReferences()
    var utf8 = css
    utf8.withUTF8 { bytes in
      var i = 0
      var declaration = 0
      var colon: Int?
      while i < bytes.count {
        switch bytes[i] {
        case 0x5C:  // '\'
          found.hasEscape = true
        case 0x3B:  // ';'
          declaration = i + 1
          colon = nil
        case 0x7B where sheet, 0x7D where sheet:  // '{', '}'
          declaration = i + 1
          colon = nil
        case 0x3A where colon == nil:  // ':'
          colon = i
        case 0x40 where matches(bytes, at: i, "@import"):
          found.hasImport = true
        // `where` binds to one pattern only: each case letter needs its own.
        case 0x55 where matches(bytes, at: i, "url("), 0x75 where matches(bytes, at: i, "url("):
          found.hasURL = true
          var close = i + 4
          while close < bytes.count, bytes[close] != 0x29 { close += 1 }  // ')'
          guard close < bytes.count else {
            found.unclosed = true
            return
          }
          var from = i + 4
          var to = close
          func trimmed(_ b: UInt8) -> Bool { XMLTokenizer.isSpace(b) || b == 0x22 || b == 0x27 }
          while from < to, trimmed(bytes[from]) { from += 1 }
          while to > from, trimmed(bytes[to - 1]) { to -= 1 }
          if from < to, bytes[from] == 0x23 {  // '#'
            var name = declaration
            while name < (colon ?? i), XMLTokenizer.isSpace(bytes[name]) { name += 1 }
            let marker = matches(bytes, at: name, "marker", upTo: colon ?? i)
            found.ids.append((String(decoding: bytes[(from + 1)..<to], as: UTF8.self), marker))
          } else if found.foreign == nil {
            found.foreign = String(decoding: bytes[from..<to], as: UTF8.self)
          }
          i = close
        default:
          break
        }
        i += 1
      }
    }
    return found
  }

  /// Whether `bytes` hold the ASCII `word` at `offset` (letters in any case), before `end`.
  private static func matches(
    _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ word: StaticString, upTo end: Int? = nil
  ) -> Bool {
    let count = word.utf8CodeUnitCount
    guard offset + count <= min(end ?? bytes.count, bytes.count) else { return false }
    return word.withUTF8Buffer { w in
      (0..<count).allSatisfy { k in
        let b = bytes[offset + k]
        return (0x41...0x5A).contains(b) ? b | 0x20 == w[k] : b == w[k]
      }
    }
  }

  /// The `#id` targets of the `url(…)`s in CSS text, each with whether it is a marker's; anything
  /// else (another file, `@import`, an escape, an unclosed `url(`) is refused at `offset`. Plain
  /// presentation attributes (`style: false`, `sheet: false`) are read only when they hold
  /// `url(` or a backslash, as before: `@import` in, say, a title is nothing CSS reads.
  func urls(_ css: String, sheet: Bool, style: Bool, at offset: Int) throws(SVGDocumentCheck.Problem) -> [(
    id: String, marker: Bool
  )] {
    let found = Self.cssReferences(css, sheet: sheet)
    guard sheet || style || found.hasURL || found.hasEscape else { return [] }
    if found.hasEscape { throw fail("a CSS escape ('\\') is not read in an SVG picture", at: offset) }
    if found.hasImport { throw fail("a CSS @import (another file) is not read", at: offset) }
    if let target = found.foreign {
      throw fail(
        "url(\(quoted: target)): an SVG picture may only refer to its own elements (url(#id)); another file "
          + "is not read", at: offset)
    }
    if found.unclosed { throw fail("a CSS url( is not closed", at: offset) }
    return found.ids
  }

  /// A `<style>` sheet: its references apply to every element (markers: every vertex).
  mutating func styleSheet(_ css: String, at offset: Int) throws(SVGDocumentCheck.Problem) {
    for reference in try urls(css, sheet: true, style: false, at: offset) {
      sheetReferences.append((reference.id, reference.marker, offset))
    }
    try sheetStrokes(css, at: offset)
  }
}
