import FlickMotion
import Foundation

/// Checks that a file ffmpeg (or gifsicle) reported as written is complete, from its container's
/// structure alone: only headers are read, a few bytes each (a GIF, whose blocks carry no
/// lengths, is read through once, sequentially).
///
/// ffmpeg 5.1 exits with status 0 when writing the trailer or closing the file fails ("Error
/// writing trailer of …: No space left on device"): an MP4 on a full disk then ends in its `mdat`
/// without the `moov` box that indexes it, a WebM without its cues and with a segment size that
/// runs past the file. What each format must show:
///
/// - MP4, MOV: top-level boxes that tile the file exactly, none open-ended (size 0, which ffmpeg
///   writes for the `mdat` until the trailer patches it), with a `moov` and an `mdat`;
/// - WebM: the EBML header, then one `Segment` whose size is known and ends at the end of the
///   file, its children tiling it exactly, with a `Cluster` and the `Cues` the trailer writes;
/// - GIF: the `GIF8` signature, then blocks that end with the trailer byte (`;`), the last;
/// - APNG and PNG: the signature, chunks tiling the file exactly, `IEND` last;
/// - WebP: `RIFF` … `WEBP` whose size is the file's, its chunks tiling it exactly.
package enum ContainerCheck {
  /// What ffmpeg prints when writing its output fails: ffmpeg 5.1 exits with status 0 when the
  /// trailer cannot be written or the file cannot be closed (a full disk, a file-size limit), so
  /// a file without its index would pass for finished.
  static let writeErrors = [
    "Error writing trailer", "Error closing file", "av_interleaved_write_frame()",
    "Error submitting a packet to the muxer", "Error muxing a packet",
  ]

  /// Whether ffmpeg's stderr `text` reports that writing its output failed.
  package static func reportsWriteError(_ text: String) -> Bool {
    writeErrors.contains { text.contains($0) }
  }

  /// Why the file at `path` is not a complete `format` file, or nil when it is (formats Flick
  /// writes itself, the PNG sequence and raw frames, are not checked here).
  package static func problem(_ format: OutputFormat, at path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "it cannot be opened: \(quoted: String(cString: strerror(errno)))" }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return "it cannot be read: \(quoted: String(cString: strerror(errno)))" }
    let file = Reader(fd: fd, size: Int(info.st_size))
    guard file.size > 0 else { return "it is empty" }
    switch format {
    case .mp4, .mov: return isoBoxes(file)
    case .webm: return matroska(file)
    case .gif: return gif(path)
    case .apng, .png: return png(file)
    case .webp: return webp(file)
    case .bgra: return nil
    }
  }

  /// Reads bytes at given offsets of an open file of known size.
  struct Reader {
    let fd: Int32
    let size: Int

    /// `count` bytes at `offset`, or nil when they are not all in the file.
    func bytes(at offset: Int, count: Int) -> [UInt8]? {
      guard offset >= 0, count >= 0, offset + count <= size else { return nil }
      var buffer = [UInt8](repeating: 0, count: count)
      var done = 0
      while done < count {
        let got = buffer.withUnsafeMutableBytes { raw in
          let rest = UnsafeMutableRawBufferPointer(rebasing: raw[done...])
          return pread(fd, rest.baseAddress, rest.count, off_t(offset + done))
        }
        if got < 0 && errno == EINTR { continue }
        guard got > 0 else { return nil }
        done += got
      }
      return buffer
    }

    /// A big-endian unsigned integer of `count` bytes at `offset`.
    func bigEndian(at offset: Int, count: Int) -> Int? {
      bytes(at: offset, count: count).map { $0.reduce(0) { $0 << 8 | Int($1) } }
    }
  }

  /// MP4 and MOV (ISO base media): the top-level boxes.
  private static func isoBoxes(_ file: Reader) -> String? {
    var at = 0
    var seen: Set<String> = []
    while at < file.size {
      guard let header = file.bytes(at: at, count: 8) else { return "a box header at byte \(at) is cut off" }
      let type = String(decoding: header[4..<8], as: UTF8.self)
      var size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
      if size == 1 {
        guard let large = file.bigEndian(at: at + 8, count: 8) else {
          return "the '\(quoted: type)' box's size is cut off"
        }
        size = large
      }
      if size == 0 { return "the '\(quoted: type)' box at byte \(at) was never closed (its size is still 0)" }
      guard size >= 8, size <= file.size - at else {
        return
          "the '\(quoted: type)' box at byte \(at) is \(size) bytes, but the file ends \(file.size - at) bytes after it starts"
      }
      seen.insert(type)
      at += size
    }
    for box in ["moov", "mdat"] where !seen.contains(box) { return "it has no '\(quoted: box)' box" }
    return nil
  }

  /// An EBML element's id and data size at `offset` (nil size: unknown), and where its data
  /// starts.
  private static func element(_ file: Reader, at offset: Int) -> (id: Int, size: Int?, data: Int)? {
    guard let first = file.bytes(at: offset, count: 1)?[0], first != 0 else { return nil }
    let idLength = first.leadingZeroBitCount + 1
    guard idLength <= 4, let id = file.bigEndian(at: offset, count: idLength),
      let sizeFirst = file.bytes(at: offset + idLength, count: 1)?[0], sizeFirst != 0
    else { return nil }
    let sizeLength = sizeFirst.leadingZeroBitCount + 1
    guard let raw = file.bigEndian(at: offset + idLength, count: sizeLength) else { return nil }
    let value = raw & ((1 << (7 * sizeLength)) - 1)
    let unknown = value == (1 << (7 * sizeLength)) - 1
    return (id, unknown ? nil : value, offset + idLength + sizeLength)
  }

  /// WebM (Matroska): the EBML header and the segment.
  private static func matroska(_ file: Reader) -> String? {
    guard let header = element(file, at: 0), header.id == 0x1A45_DFA3, let headerSize = header.size else {
      return "it does not start with an EBML header"
    }
    guard let segment = element(file, at: header.data + headerSize), segment.id == 0x1853_8067 else {
      return "it has no segment after its EBML header"
    }
    guard let size = segment.size else { return "its segment's size was never written" }
    let end = segment.data + size
    guard end == file.size else {
      return "its segment ends at byte \(end), but the file is \(file.size) bytes"
    }
    var at = segment.data
    var clusters = 0
    var cues = false
    while at < end {
      guard let child = element(file, at: at), let childSize = child.size, child.data + childSize <= end else {
        return "the segment's element at byte \(at) is cut off or was never closed"
      }
      if child.id == 0x1F43_B675 { clusters += 1 }
      if child.id == 0x1C53_BB6B { cues = true }
      at = child.data + childSize
    }
    if clusters == 0 { return "it has no cluster" }
    if !cues { return "it has no cues (the index the trailer writes)" }
    return nil
  }

  /// GIF: the header, then blocks up to the trailer byte (`;`), the last byte of the file. The
  /// blocks are walked, sub-block by sub-block, through one buffered sequential read: a GIF cut
  /// short can end in any byte, the trailer's included.
  private static func gif(_ path: String) -> String? {
    do {
      let r = try BufferedReader(path: path)
      let header = try r.bytes(13)
      guard header[0..<4].elementsEqual("GIF8".utf8) else { return "it does not start with a GIF signature" }
      func colourTable(_ flags: UInt8) throws {
        if flags & 0x80 != 0 { try r.stream(3 << (Int(flags & 7) + 1), nil) }
      }
      func subBlocks() throws {
        while true {
          let length = Int(try r.byte())
          if length == 0 { return }
          try r.stream(length, nil)
        }
      }
      try colourTable(header[10])
      while true {
        switch try r.byte() {
        case 0x21:
          _ = try r.byte()
          try subBlocks()
        case 0x2C:
          let descriptor = try r.bytes(9)
          try colourTable(descriptor[8])
          _ = try r.byte()  // LZW minimum code size
          try subBlocks()
        case 0x3B:
          return try r.atEnd ? nil : "it has bytes after its trailer"
        case let other:
          return "it has an unknown block (0x\(String(other, radix: 16))) at byte \(r.offset - 1)"
        }
      }
    } catch BufferedFile.Failure.truncated {
      return "it ends inside a block, before the GIF trailer"
    } catch {
      return "it cannot be read: \(escaped: error)"
    }
  }

  /// PNG and APNG: the signature and chunks up to `IEND`, the last bytes of the file.
  private static func png(_ file: Reader) -> String? {
    guard file.bytes(at: 0, count: 8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
      return "it does not start with a PNG signature"
    }
    var at = 8
    while at < file.size {
      guard let header = file.bytes(at: at, count: 8) else { return "a chunk header at byte \(at) is cut off" }
      let length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
      let end = at + 12 + length
      guard end <= file.size else { return "the chunk at byte \(at) runs past the end of the file" }
      if header[4..<8].elementsEqual("IEND".utf8) {
        return end == file.size ? nil : "it has bytes after its IEND chunk"
      }
      at = end
    }
    return "it has no IEND chunk"
  }

  /// WebP: the RIFF size and the chunks.
  private static func webp(_ file: Reader) -> String? {
    guard let head = file.bytes(at: 0, count: 12), head[0..<4].elementsEqual("RIFF".utf8),
      head[8..<12].elementsEqual("WEBP".utf8)
    else { return "it does not start with a RIFF WebP header" }
    let riffSize = head[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
    guard riffSize + 8 == file.size else {
      return "its RIFF size says \(riffSize + 8) bytes, but the file is \(file.size) bytes"
    }
    var at = 12
    while at < file.size {
      guard let header = file.bytes(at: at, count: 8) else { return "a chunk header at byte \(at) is cut off" }
      let size = header[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
      let end = at + 8 + size + (size & 1)
      guard end <= file.size else { return "the chunk at byte \(at) runs past the end of the file" }
      at = end
    }
    return nil
  }
}
