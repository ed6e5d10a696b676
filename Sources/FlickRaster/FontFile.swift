import Foundation

/// Reads the family names of a TrueType / OpenType font file (or collection) from its `name`
/// table, so a template can use a font file's family before the rasteriser registers the file.
///
/// Only what is needed is read: the table directory and `name` records with ID 16
/// (typographic family) or 1 (family), on platform 3 (Windows, UTF-16BE) or platform 1
/// (Macintosh, Mac Roman). The rasteriser's fontconfig reads the same names.
package enum FontFile {
  /// Why a file is not a usable font.
  package struct Problem: Error, Equatable {
    package var reason: String
  }

  /// The file's family names, the preferred one first (typographic family, English when the
  /// file has several languages), for every face of a collection.
  package static func families(at path: String) throws(Problem) -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else { throw Problem(reason: "cannot read the file") }
    return try families(in: [UInt8](data))
  }

  package static func families(in bytes: [UInt8]) throws(Problem) -> [String] {
    let reader = Reader(bytes: bytes)
    guard let magic = reader.u32(0) else { throw Problem(reason: "the file is too short to be a font") }
    var faces: [Int] = []
    switch magic {
    case 0x7474_6366:  // 'ttcf'
      guard let count = reader.u32(8), count > 0, count < 10_000 else {
        throw Problem(reason: "damaged font collection header")
      }
      for i in 0..<Int(count) {
        guard let offset = reader.u32(12 + 4 * i) else { throw Problem(reason: "damaged font collection header") }
        faces.append(Int(offset))
      }
    case 0x0001_0000, 0x4F54_544F, 0x7472_7565:  // TrueType, 'OTTO', 'true'
      faces = [0]
    case 0x774F_4646, 0x774F_4632:  // 'wOFF', 'wOF2'
      throw Problem(reason: "WOFF web fonts are not supported; use the .ttf or .otf file")
    default:
      throw Problem(reason: "not a TrueType, OpenType or collection font file")
    }
    var names: [String] = []
    for face in faces {
      for name in try familyNames(reader, face: face) where !names.contains(name) { names.append(name) }
    }
    guard !names.isEmpty else { throw Problem(reason: "the font names no family") }
    return names
  }

  /// The preferred family names of the face whose table directory starts at `face`.
  private static func familyNames(_ r: Reader, face: Int) throws(Problem) -> [String] {
    guard let tableCount = r.u16(face + 4) else { throw Problem(reason: "damaged table directory") }
    var nameTable: Int?
    for i in 0..<tableCount {
      let record = face + 12 + 16 * i
      guard let tag = r.u32(record), let offset = r.u32(record + 8) else {
        throw Problem(reason: "damaged table directory")
      }
      if tag == 0x6E61_6D65 { nameTable = Int(offset) }  // 'name'
    }
    guard let table = nameTable else { throw Problem(reason: "the font has no 'name' table") }
    guard let count = r.u16(table + 2), let storage = r.u16(table + 4) else {
      throw Problem(reason: "damaged 'name' table")
    }
    // (nameID 16 before 1) × (English Windows, other Windows, Mac) — lower rank wins.
    var best: [Int: (rank: Int, name: String)] = [:]
    for i in 0..<count {
      let record = table + 6 + 12 * i
      guard let platform = r.u16(record), let encoding = r.u16(record + 2), let language = r.u16(record + 4),
        let nameID = r.u16(record + 6), let length = r.u16(record + 8), let offset = r.u16(record + 10)
      else { throw Problem(reason: "damaged 'name' table") }
      guard nameID == 1 || nameID == 16, let bytes = r.slice(table + storage + offset, length) else { continue }
      let text: String?
      let rank: Int
      switch (platform, encoding) {
      case (3, 0), (3, 1), (3, 10), (0, _):
        var units: [UInt16] = []
        for j in stride(from: 0, to: bytes.count - 1, by: 2) {
          units.append(UInt16(bytes[j]) << 8 | UInt16(bytes[j + 1]))
        }
        text = String(decoding: units, as: UTF16.self)
        rank = platform == 3 && language == 0x409 ? 0 : 1
      case (1, 0):
        text = String(bytes: bytes, encoding: .macOSRoman)
        rank = 2
      default:
        continue
      }
      guard let name = text?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
      if best[nameID].map({ rank < $0.rank }) ?? true { best[nameID] = (rank, name) }
    }
    return [best[16]?.name, best[1]?.name].compactMap { $0 }
  }

  /// Bounds-checked big-endian reads.
  private struct Reader {
    let bytes: [UInt8]
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= bytes.count else { return nil }
      return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }
    func u32(_ at: Int) -> UInt32? {
      guard let hi = u16(at), let lo = u16(at + 2) else { return nil }
      return UInt32(hi) << 16 | UInt32(lo)
    }
    func slice(_ at: Int, _ length: Int) -> [UInt8]? {
      guard at >= 0, length >= 0, at + length <= bytes.count else { return nil }
      return Array(bytes[at..<(at + length)])
    }
  }
}
