import FlickMotion

/// The CSS values the dash count of ``SVGDocumentScanner`` reads (``noteStrokes(_:_:_:)``): the
/// declarations of the properties it needs, found in one pass over the bytes, and lengths.
extension SVGDocumentScanner {
  /// A CSS length: its number and its unit (lowercased, `%` included, empty for none), or nil.
  static func length(_ token: Substring) -> (Double, String)? {
    let utf8 = token.utf8
    var i = utf8.startIndex
    func isDigit(_ at: String.Index) -> Bool { at < utf8.endIndex && (0x30...0x39).contains(utf8[at]) }
    if i < utf8.endIndex, utf8[i] == 0x2B || utf8[i] == 0x2D { i = utf8.index(after: i) }
    var digits = 0
    while isDigit(i) {
      i = utf8.index(after: i)
      digits += 1
    }
    if i < utf8.endIndex, utf8[i] == 0x2E {
      i = utf8.index(after: i)
      while isDigit(i) {
        i = utf8.index(after: i)
        digits += 1
      }
    }
    guard digits > 0 else { return nil }
    if i < utf8.endIndex, utf8[i] | 0x20 == 0x65 {
      var j = utf8.index(after: i)
      if j < utf8.endIndex, utf8[j] == 0x2B || utf8[j] == 0x2D { j = utf8.index(after: j) }
      if isDigit(j) {
        i = j
        while isDigit(i) { i = utf8.index(after: i) }
      }
    }
    guard let number = Double(token[..<i]) else { return nil }
    return (number, i == token.endIndex ? "" : token[i...].lowercased())
  }

  /// The declarations of CSS text (a `style` attribute or a `<style>` sheet) whose property is
  /// `stroke-dasharray`, `font-size`, `font` or a shape's size (`width`, `height`, `r`, `rx`, `ry`;
  /// any case), each with its value, in one pass over
  /// the bytes that leaves comments out and builds a string only for those.
  static func declarations(_ css: String, sheet: Bool) -> [(property: String, value: Substring)] {
    var bytes = Array(css.utf8)
    if bytes.contains(0x2A) { bytes = withoutComments(bytes) }  // '*'
    var found: [(String, Substring)] = []
    var start = 0
    var colon: Int?
    for i in 0...bytes.count {
      let byte: UInt8 = i < bytes.count ? bytes[i] : 0x3B
      if byte == 0x3B || (sheet && (byte == 0x7B || byte == 0x7D)) {  // ';', '{', '}'
        if let colon, let property = property(bytes[start..<colon]) {
          found.append((property, Substring(String(decoding: bytes[(colon + 1)..<i], as: UTF8.self))))
        }
        start = i + 1
        colon = nil
      } else if byte == 0x3A, colon == nil {  // ':'
        colon = i
      }
    }
    return found
  }

  /// The properties ``declarations(_:sheet:)`` reads, as bytes.
  private static let readProperties = ["stroke-dasharray", "font-size", "font", "width", "height", "r", "rx", "ry"]
    .map { Array($0.utf8) }

  /// The property `name` (white space around it aside, letters in any case) is, when it is one of
  /// ``readProperties``; nil without building a string otherwise.
  private static func property(_ name: ArraySlice<UInt8>) -> String? {
    var from = name.startIndex
    var to = name.endIndex
    while from < to, XMLTokenizer.isSpace(name[from]) { from += 1 }
    while to > from, XMLTokenizer.isSpace(name[to - 1]) { to -= 1 }
    guard to - from <= 16 else { return nil }
    for candidate in readProperties where candidate.count == to - from {
      var same = true
      for k in 0..<candidate.count {
        let b = name[from + k]
        if ((0x41...0x5A).contains(b) ? b | 0x20 : b) != candidate[k] {
          same = false
          break
        }
      }
      if same { return String(decoding: candidate, as: UTF8.self) }
    }
    return nil
  }

  /// CSS bytes with each comment replaced by a space.
  private static func withoutComments(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      if bytes[i] == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A {  // "/*"
        i += 2
        while i < bytes.count, !(bytes[i] == 0x2A && i + 1 < bytes.count && bytes[i + 1] == 0x2F) { i += 1 }
        i += 2
        out.append(0x20)
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return out
  }
}
