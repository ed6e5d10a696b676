import FlickMotion
import FlickRaster
import Foundation

/// PNG files at the byte level: a structural check (every chunk's CRC), chunk access for APNG,
/// CRC-32, and encoding with Flick's renderer fingerprint. Pixel decoding is ``PNGImage``.
enum PNGFile {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// One chunk: its four-letter type and its data.
  struct Chunk {
    var type: String
    var data: ArraySlice<UInt8>
  }

  /// A PNG file read whole and checked chunk by chunk.
  struct Checked {
    var bytes: [UInt8]
    var size: (width: Int, height: Int)
    var chunks: [Chunk]
  }

  struct StructureError: Error { var message: String }

  /// Checks the chunk structure (signature, lengths, IHDR first, IEND last, some IDAT) and every
  /// chunk's CRC (zlib's `crc32`), before ``PNGImage`` hands the file to libpng.
  static func check(_ bytes: [UInt8]) throws(StructureError) -> Checked {
    guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
      throw StructureError(message: "not a PNG file (bad signature)")
    }
    var chunks: [Chunk] = []
    var at = 8
    while at < bytes.count {
      guard at + 12 <= bytes.count else {
        throw StructureError(message: "truncated chunk header at byte \(quoted: at)")
      }
      let length = Int(readUInt32(bytes, at))
      guard length <= bytes.count - at - 12 else {
        throw StructureError(message: "truncated file: chunk at byte \(quoted: at) claims \(quoted: length) bytes")
      }
      let typeBytes = bytes[(at + 4)..<(at + 8)]
      let type = String(decoding: typeBytes, as: UTF8.self)
      let stored = readUInt32(bytes, at + 8 + length)
      guard CRC32.checksum(bytes[(at + 4)..<(at + 8 + length)]) == stored else {
        throw StructureError(message: "chunk \(quoted: type) at byte \(quoted: at) fails its CRC (corrupt data)")
      }
      chunks.append(Chunk(type: type, data: bytes[(at + 8)..<(at + 8 + length)]))
      at += 12 + length
      if type == "IEND" { break }
    }
    guard let header = chunks.first, header.type == "IHDR", header.data.count == 13 else {
      throw StructureError(message: "missing IHDR header")
    }
    guard chunks.last?.type == "IEND" else { throw StructureError(message: "truncated file: no IEND chunk") }
    guard chunks.contains(where: { $0.type == "IDAT" }) else { throw StructureError(message: "no image data (IDAT)") }
    let base = header.data.startIndex
    let width = Int(readUInt32(bytes, base)), height = Int(readUInt32(bytes, base + 4))
    guard width > 0, height > 0 else { throw StructureError(message: "invalid size \(width)×\(height)") }
    return Checked(bytes: bytes, size: (width, height), chunks: chunks)
  }

  /// PNG bytes for `frame`, encoded in memory by the encoder `flick still` writes files with.
  static func encode(_ frame: Frame) throws(SnapshotError) -> [UInt8] {
    do {
      return [UInt8](try frame.pngData())
    } catch {
      throw .unwritableFile(path: "(encoded frame)", reason: error.description)
    }
  }

  /// PNG bytes for `frame` with the renderer fingerprint in a `tEXt` chunk right after `IHDR`
  /// (what goldens and report frames are written as).
  static func encode(_ frame: Frame, renderer: RendererFingerprint) throws(SnapshotError) -> [UInt8] {
    let bytes = try encode(frame)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let json = try? encoder.encode(renderer), bytes.count > 33, bytes[12..<16].elementsEqual("IHDR".utf8) else {
      return bytes
    }
    var out = Array(bytes[0..<33])  // signature + IHDR chunk (8 + 25 bytes)
    appendChunk("tEXt", Array(PNGImage.rendererKeyword.utf8) + [0] + [UInt8](json), to: &out)
    out += bytes[33...]
    return out
  }

  /// Writes `frame` to `path` atomically as ``encode(_:renderer:)`` encodes it.
  static func write(_ frame: Frame, to path: String, renderer: RendererFingerprint = .current) throws(SnapshotError) {
    try AtomicFile.write(Data(try encode(frame, renderer: renderer)), to: path)
  }

  static func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
  }

  static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
    out += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  static func appendUInt16(_ value: UInt16, to out: inout [UInt8]) {
    out += [UInt8(value >> 8), UInt8(value & 0xFF)]
  }

  /// Appends a chunk (length, type, data, CRC) to `out`.
  static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
    appendUInt32(UInt32(data.count), to: &out)
    let typeBytes = Array(type.utf8)
    out += typeBytes
    out += data
    appendUInt32(CRC32.checksum(typeBytes + data), to: &out)
  }
}
