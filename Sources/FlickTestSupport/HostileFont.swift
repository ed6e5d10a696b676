/// Font files built byte by byte for tests of font loading: the smallest TrueType font fontconfig
/// reads, and the hostile shapes a template may bring (collections of many faces, huge table
/// directories and `name` tables, a `name` table alone).
package enum HostileFont {
  /// A `name` record: Windows, Unicode BMP, English (US), the UTF-16 big-endian `text`.
  package struct NameRecord {
    package var nameID: Int
    package var text: String

    package init(nameID: Int = 1, text: String) {
      self.nameID = nameID
      self.text = text
    }
  }

  /// A `name` table holding `records`, each string stored once.
  package static func nameTable(_ records: [NameRecord]) -> [UInt8] {
    var strings: [UInt8] = []
    var entries: [UInt8] = []
    for record in records {
      let text = record.text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
      entries += u16(3) + u16(1) + u16(0x409) + u16(record.nameID) + u16(text.count) + u16(strings.count)
      strings += text
    }
    return u16(0) + u16(records.count) + u16(6 + entries.count) + entries + strings
  }

  /// A `name` table naming the family `family`.
  package static func nameTable(family: String) -> [UInt8] { nameTable([NameRecord(text: family)]) }

  /// A TrueType font file (`sfnt` version 1.0) with `tables` (tag → bytes), laid out in tag order
  /// after the table directory, which lists `padding` more entries (tag `AAAA`, empty) first.
  package static func font(_ tables: [String: [UInt8]], padding: Int = 0) -> [UInt8] {
    let count = tables.count + padding
    var directory = u32(0x0001_0000) + u16(count) + u16(0) + u16(0) + u16(0)
    for _ in 0..<padding { directory += Array("AAAA".utf8) + u32(0) + u32(0) + u32(0) }
    var body: [UInt8] = []
    let start = 12 + 16 * count
    for (tag, bytes) in tables.sorted(by: { $0.key < $1.key }) {
      directory += Array(tag.utf8) + u32(0) + u32(start + body.count) + u32(bytes.count)
      body += bytes
      while body.count % 4 != 0 { body.append(0) }
    }
    return directory + body
  }

  /// The smallest TrueType font fontconfig registers (268 bytes): one empty glyph, family
  /// `family`.
  package static func tiny(family: String) -> [UInt8] {
    // head: version, revision, checksum adjustment, magic, flags, 1000 units per em, dates, an
    // empty box, style, smallest size 8, direction 2, short `loca`, glyph format 0.
    let head =
      u32(0x0001_0000) + u32(0x0001_0000) + u32(0) + u32(0x5F0F_3CF5) + u16(0) + u16(1000)
      + [UInt8](repeating: 0, count: 16) + u16(0) + u16(0) + u16(0) + u16(0) + u16(0) + u16(8) + u16(2) + u16(0)
      + u16(0)
    // hhea: ascender 800, descender -200, advance 1000, caret slope 1, one metric.
    let hhea =
      u32(0x0001_0000) + u16(800) + u16(0xFF38) + u16(0) + u16(1000) + u16(0) + u16(0) + u16(0) + u16(1) + u16(1)
      + [UInt8](repeating: 0, count: 12) + u16(1)
    let maxp = u32(0x0000_5000) + u16(1)  // version 0.5, one glyph
    return font([
      "head": head, "hhea": hhea, "maxp": maxp, "hmtx": u16(500) + u16(0), "loca": u16(0) + u16(0), "glyf": [],
      "name": nameTable(family: family),
    ])
  }

  /// A font collection of `faces` faces that all share the one table directory of `font`.
  package static func collection(faces: Int, sharing font: [UInt8]) -> [UInt8] {
    let start = 12 + 4 * faces
    var header = Array("ttcf".utf8) + u16(1) + u16(0) + u32(faces)
    for _ in 0..<faces { header += u32(start) }
    // The font's table offsets count from the file's start: shift them past the header.
    var shifted = font
    let tables = Int(shifted[4]) << 8 | Int(shifted[5])
    for i in 0..<tables {
      let at = 12 + 16 * i + 8
      let offset =
        Int(shifted[at]) << 24 | Int(shifted[at + 1]) << 16 | Int(shifted[at + 2]) << 8 | Int(shifted[at + 3])
      let moved = u32(offset == 0 ? 0 : offset + start)
      shifted.replaceSubrange(at..<(at + 4), with: moved)
    }
    return header + shifted
  }

  package static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
  package static func u32(_ v: Int) -> [UInt8] { u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) }
}
