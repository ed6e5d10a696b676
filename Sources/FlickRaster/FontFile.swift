import Foundation

/// Reads the family names of a TrueType / OpenType font file (or collection) from its `name`
/// table, so a template can use a font file's family before the rasteriser registers the file,
/// and checks that the file is within the caps below before fontconfig reads it
/// (``FontRegistry`` calls it first too).
///
/// Only what is needed is read, with `pread`, never the whole file: the collection header, each
/// face's table directory and its `name` table's records with ID 16 (typographic family) or 1
/// (family), on platform 3 (Windows, UTF-16BE) or platform 1 (Macintosh, Mac Roman). The
/// rasteriser's fontconfig reads the same names. Faces that share a table directory or a `name`
/// table are read once, and a record's string is decoded only when it would win.
///
/// The caps are several times what real fonts use (a few dozen faces in the largest collections,
/// about 30 tables, a few hundred name records): fontconfig reads every face, and compares each
/// family and style name of a face with the ones before it, so an unbounded file could make it
/// work for hours (a 1.8 MB collection of 9,999 faces of 65,535 name records each). A file over a
/// cap is refused, not read partly.
package enum FontFile {
  /// Why a file is not a usable font.
  package struct Problem: Error, Equatable {
    package var reason: String
  }

  /// The largest font file, in bytes (256 MiB; the Noto CJK collections are 20–100 MiB), checked
  /// with `fstat` before anything is read.
  package static let maximumBytes = 256 << 20
  /// The most faces a collection may have.
  package static let maximumFaces = 256
  /// The most entries of one face's table directory.
  package static let maximumTables = 256
  /// The most records of one face's `name` table.
  package static let maximumNameRecords = 1_024
  /// The most `name` records of all faces together, each face counted (fontconfig reads each
  /// face's, also when faces share one table).
  package static let maximumNameRecordsInFile = 16_384
  /// The longest family name record (ID 1 or 16), in bytes.
  package static let maximumFamilyNameBytes = 512

  /// The file's family names, the preferred one first (typographic family, English when the
  /// file has several languages), for every face of a collection.
  package static func families(at path: String) throws(Problem) -> [String] {
    // Non-blocking, so that a FIFO put in the file's place cannot hold the open.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw Problem(reason: "cannot read the file") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw Problem(reason: "not a regular file")
    }
    guard Int(info.st_size) <= maximumBytes else {
      throw Problem(
        reason: "the file is \(info.st_size) bytes, more than the \(maximumBytes >> 20) MiB a font file may be")
    }
    return try families(Reader(fd: fd, size: Int(info.st_size)))
  }

  /// ``families(at:)`` for a file's bytes.
  package static func families(in bytes: [UInt8]) throws(Problem) -> [String] {
    try families(Reader(bytes: bytes))
  }

  private static func families(_ file: Reader) throws(Problem) -> [String] {
    guard let magic = file.region(0, 4)?.u32(0) else { throw Problem(reason: "the file is too short to be a font") }
    var faces: [Int] = []
    switch magic {
    case 0x7474_6366:  // 'ttcf'
      guard let count = file.region(8, 4)?.u32(0).map(Int.init), count > 0 else {
        throw Problem(reason: "damaged font collection header")
      }
      guard count <= maximumFaces else {
        throw Problem(reason: "the collection has \(count) faces, more than the \(maximumFaces) a font file may have")
      }
      guard let offsets = file.region(12, 4 * count) else { throw Problem(reason: "damaged font collection header") }
      faces = (0..<count).compactMap { offsets.u32(4 * $0).map(Int.init) }
    case 0x0001_0000, 0x4F54_544F, 0x7472_7565:  // TrueType, 'OTTO', 'true'
      faces = [0]
    case 0x774F_4646, 0x774F_4632:  // 'wOFF', 'wOF2'
      throw Problem(reason: "WOFF web fonts are not supported; use the .ttf or .otf file")
    default:
      throw Problem(reason: "not a TrueType, OpenType or collection font file")
    }
    var names: [String] = []
    var records = 0
    var nameTables: [Int: NameTable] = [:]  // by face offset
    var familiesByTable: [Int: [String]] = [:]  // by `name` table offset
    for face in faces {
      let table: NameTable
      if let known = nameTables[face] {
        table = known
      } else {
        table = try nameTable(file, face: face)
        nameTables[face] = table
      }
      records += table.count
      guard records <= maximumNameRecordsInFile else {
        throw Problem(
          reason: "its faces have more than \(maximumNameRecordsInFile) 'name' records together, "
            + "the most a font file may have")
      }
      let found: [String]
      if let known = familiesByTable[table.offset] {
        found = known
      } else {
        found = try familyNames(file, table)
        familiesByTable[table.offset] = found
      }
      for name in found where !names.contains(name) { names.append(name) }
    }
    guard !names.isEmpty else { throw Problem(reason: "the font names no family") }
    return names
  }

  /// Where a face's `name` table is, and how many records it has.
  private struct NameTable {
    var offset: Int
    var count: Int
  }

  /// The `name` table of the face whose table directory starts at `face`.
  private static func nameTable(_ file: Reader, face: Int) throws(Problem) -> NameTable {
    let offset = try nameTableOffset(file, face: face)
    guard let count = file.region(offset + 2, 2)?.u16(0) else { throw Problem(reason: "damaged 'name' table") }
    guard count <= maximumNameRecords else {
      throw Problem(
        reason: "a 'name' table has \(count) records, more than the \(maximumNameRecords) a font may have")
    }
    return NameTable(offset: offset, count: count)
  }

  /// Where the table directory starting at `face` puts the `name` table (its last entry of that
  /// tag).
  private static func nameTableOffset(_ file: Reader, face: Int) throws(Problem) -> Int {
    guard let count = file.region(face + 4, 2)?.u16(0) else { throw Problem(reason: "damaged table directory") }
    guard count <= maximumTables else {
      throw Problem(
        reason: "a face's table directory lists \(count) tables, more than the \(maximumTables) a font may have")
    }
    guard let directory = file.region(face + 12, 16 * count) else { throw Problem(reason: "damaged table directory") }
    var offset: Int?
    for i in 0..<count where directory.u32(16 * i) == 0x6E61_6D65 {  // 'name'
      offset = directory.u32(16 * i + 8).map(Int.init)
    }
    guard let offset else { throw Problem(reason: "the font has no 'name' table") }
    return offset
  }

  /// The preferred family names in `table`.
  private static func familyNames(_ file: Reader, _ table: NameTable) throws(Problem) -> [String] {
    guard let header = file.region(table.offset, 6), let storage = header.u16(4),
      let records = file.region(table.offset + 6, 12 * table.count)
    else { throw Problem(reason: "damaged 'name' table") }
    // (nameID 16 before 1) × (English Windows, other Windows, Mac) — lower rank wins.
    var best: [Int: (rank: Int, name: String)] = [:]
    for i in 0..<table.count {
      let record = 12 * i
      guard let platform = records.u16(record), let encoding = records.u16(record + 2),
        let language = records.u16(record + 4), let nameID = records.u16(record + 6),
        let size = records.u16(record + 8), let offset = records.u16(record + 10)
      else { throw Problem(reason: "damaged 'name' table") }
      guard nameID == 1 || nameID == 16 else { continue }
      let rank: Int
      switch (platform, encoding) {
      case (3, 0), (3, 1), (3, 10), (0, _): rank = platform == 3 && language == 0x409 ? 0 : 1
      case (1, 0): rank = 2
      default: continue
      }
      guard size <= maximumFamilyNameBytes else {
        throw Problem(
          reason: "a family name is \(size) bytes long, more than the \(maximumFamilyNameBytes) a font may use")
      }
      // Only a record that would win is decoded.
      if let current = best[nameID], current.rank <= rank { continue }
      guard let bytes = file.region(table.offset + storage + offset, size)?.bytes else { continue }
      let text: String?
      if rank == 2 {
        text = String(bytes: bytes, encoding: .macOSRoman)
      } else {
        let units = stride(from: 0, to: bytes.count - 1, by: 2).map { (i: Int) -> UInt16 in
          let high = UInt16(bytes[i])
          return high << 8 | UInt16(bytes[i + 1])
        }
        text = String(decoding: units, as: UTF16.self)
      }
      guard let name = text?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
      best[nameID] = (rank, name)
    }
    return [best[16]?.name, best[1]?.name].compactMap { $0 }
  }

  /// Reads parts of a file (or of bytes in memory), bounds-checked.
  private struct Reader {
    private let fd: Int32
    private let memory: [UInt8]
    private let size: Int

    init(fd: Int32, size: Int) {
      self.fd = fd
      memory = []
      self.size = size
    }

    init(bytes: [UInt8]) {
      fd = -1
      memory = bytes
      size = bytes.count
    }

    /// The `count` bytes at `offset`, or nil when they are not all in the file.
    func region(_ offset: Int, _ count: Int) -> Region? {
      guard offset >= 0, count >= 0, count <= size, offset <= size - count else { return nil }
      if fd < 0 { return Region(bytes: Array(memory[offset..<(offset + count)])) }
      var bytes = [UInt8](repeating: 0, count: count)
      var done = 0
      while done < count {
        let n = bytes.withUnsafeMutableBytes { buffer in
          buffer.baseAddress.map { pread(fd, $0 + done, count - done, off_t(offset + done)) } ?? -1
        }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return nil }  // an error, or the file shrank since it was measured
        done += n
      }
      return Region(bytes: bytes)
    }
  }

  /// Bytes read from a file, with big-endian reads relative to their start.
  private struct Region {
    let bytes: [UInt8]
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= bytes.count else { return nil }
      return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }
    func u32(_ at: Int) -> UInt32? {
      guard let hi = u16(at), let lo = u16(at + 2) else { return nil }
      return UInt32(hi) << 16 | UInt32(lo)
    }
  }
}
