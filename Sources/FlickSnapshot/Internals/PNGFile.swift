import FlickMotion
import FlickRaster
import FlickScene
import Foundation

/// PNG files at the byte level: a structural check (every chunk's CRC), chunk access for APNG,
/// CRC-32, and encoding with Flick's renderer fingerprint. Pixel decoding is ``PNGImage``.
enum PNGFile {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The most ancillary chunks (every chunk but `IHDR`, `PLTE`, `IDAT` and `IEND`) a PNG may
  /// hold. A real PNG has a handful; one padded with millions of empty chunks cost seconds and
  /// hundreds of megabytes to walk and is refused instead.
  static let maximumAncillaryChunks = 4096
  /// Image data may come in up to this many `IDAT` chunks whatever their size; beyond it, the
  /// chunks must hold ``minimumAverageImageDataChunk`` bytes on average (libpng writes 8 KiB).
  static let maximumSmallImageDataChunks = 4096
  static let minimumAverageImageDataChunk = 1024

  /// A PNG file read whole and checked chunk by chunk. Only what decoding needs is kept, never a
  /// record per chunk.
  struct Checked {
    var bytes: [UInt8]
    var size: (width: Int, height: Int)
    /// The `IHDR` chunk's data.
    var header: ArraySlice<UInt8>
    /// The bytes of all `IDAT` chunks together.
    var imageDataBytes: Int
    /// The data of the first `tEXt` chunk whose keyword is ``PNGImage/rendererKeyword``, after
    /// the keyword and its NUL: the one fingerprint every reader of the file takes.
    var rendererText: ArraySlice<UInt8>?
  }

  struct StructureError: Error { var message: String }

  /// A chunk type as its four bytes read big-endian.
  static func typeCode(_ name: StaticString) -> UInt32 {
    name.withUTF8Buffer { b in UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]) }
  }
  static let ihdr = typeCode("IHDR"), plte = typeCode("PLTE"), idat = typeCode("IDAT"), iend = typeCode("IEND")
  static let text = typeCode("tEXt")

  /// Calls `body` with each chunk's type code and data range, in file order, through `IEND`,
  /// after checking the chunk's length and CRC (zlib's `crc32`).
  static func walk(
    _ bytes: [UInt8], _ body: (UInt32, Range<Int>) throws(StructureError) -> Void
  ) throws(StructureError) {
    guard bytes.count >= 8, bytes[0..<8].elementsEqual(signature) else {
      throw StructureError(message: "not a PNG file (bad signature)")
    }
    var at = 8
    while at < bytes.count {
      guard at + 12 <= bytes.count else {
        throw StructureError(message: "truncated chunk header at byte \(quoted: at)")
      }
      let length = Int(readUInt32(bytes, at))
      guard length <= bytes.count - at - 12 else {
        throw StructureError(message: "truncated file: chunk at byte \(quoted: at) claims \(quoted: length) bytes")
      }
      let type = readUInt32(bytes, at + 4)
      let stored = readUInt32(bytes, at + 8 + length)
      guard CRC32.checksum(bytes[(at + 4)..<(at + 8 + length)]) == stored else {
        let name = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
        throw StructureError(message: "chunk \(quoted: name) at byte \(quoted: at) fails its CRC (corrupt data)")
      }
      try body(type, (at + 8)..<(at + 8 + length))
      at += 12 + length
      if type == iend { return }
    }
  }

  /// Checks the chunk structure (signature, lengths, IHDR first, IEND last, some IDAT, at most
  /// ``maximumAncillaryChunks`` ancillary chunks and no swarm of tiny IDAT chunks) and every
  /// chunk's CRC, and that the image data fits the header (``FlickScene/PNGImageData``; with
  /// `inflating`, counted inflated too), before ``PNGImage`` hands the file to libpng.
  static func check(_ bytes: [UInt8], inflating: Bool = false) throws(StructureError) -> Checked {
    var header: ArraySlice<UInt8>?
    var count = 0, ancillary = 0, imageChunks = 0, imageBytes = 0
    var last: UInt32 = 0
    var rendererText: ArraySlice<UInt8>?
    let keyword = Array(PNGImage.rendererKeyword.utf8) + [0]
    try walk(bytes) { type, range throws(StructureError) in
      if count == 0, type == ihdr { header = bytes[range] }
      count += 1
      last = type
      switch type {
      case idat:
        imageChunks += 1
        imageBytes += range.count
        // Refused as soon as the rest of the file cannot bring the average up: 2M empty IDAT
        // chunks are not walked to the end first.
        if imageChunks > maximumSmallImageDataChunks,
          (imageBytes + bytes.count - range.upperBound) / imageChunks < minimumAverageImageDataChunk
        {
          throw smallImageData(imageChunks, imageBytes)
        }
      case ihdr, plte, iend: break
      default:
        ancillary += 1
        guard ancillary <= maximumAncillaryChunks else {
          throw StructureError(
            message: "more than \(maximumAncillaryChunks) ancillary chunks (a PNG has a few; refused before "
              + "decoding)")
        }
        if type == text, rendererText == nil, bytes[range].starts(with: keyword) {
          rendererText = bytes[range].dropFirst(keyword.count)
        }
      }
    }
    guard let header, header.count == 13 else { throw StructureError(message: "missing IHDR header") }
    guard last == iend else { throw StructureError(message: "truncated file: no IEND chunk") }
    guard imageChunks > 0 else { throw StructureError(message: "no image data (IDAT)") }
    guard imageChunks <= maximumSmallImageDataChunks || imageBytes / imageChunks >= minimumAverageImageDataChunk
    else { throw smallImageData(imageChunks, imageBytes) }
    let base = header.startIndex
    let width = Int(readUInt32(bytes, base)), height = Int(readUInt32(bytes, base + 4))
    guard width > 0, height > 0 else { throw StructureError(message: "invalid size \(width)×\(height)") }
    // libpng inflates all the image data, rows or not (png_read_end): it must fit the header.
    do {
      try PNGImageData.check(bytes, inflating: inflating)
    } catch {
      throw StructureError(message: error.reason)
    }
    return Checked(
      bytes: bytes, size: (width, height), header: header, imageDataBytes: imageBytes, rendererText: rendererText)
  }

  /// Why image data in `chunks` chunks of `bytes` bytes in all is refused.
  static func smallImageData(_ chunks: Int, _ bytes: Int) -> StructureError {
    StructureError(
      message: "\(quoted: chunks) IDAT chunks holding \(quoted: bytes) bytes or fewer: more than "
        + "\(maximumSmallImageDataChunks) chunks must hold \(minimumAverageImageDataChunk) bytes each on average "
        + "(refused before decoding)")
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
