import FlickMotion
import Foundation

/// Joins the parts of a GIF encoded by several ffmpeg processes at once (two halves on two
/// cores, one part a core on more) into the file one process makes (``GIFSink``'s split
/// encoding pass).
///
/// Cut in two at `k`, the first half encodes frames `0…k` and the second frames `k − 1…` (its
/// timestamps shifted by `k − 1` frames), with the same palette; a middle part of more has both
/// an extra frame before and one after (``frames(ofPart:starts:frames:)``). With an ordered dither (Bayer) or none, `paletteuse`
/// maps each pixel by its colour and position alone, so a frame's indices do not depend on the
/// frames before it; the GIF encoder's only memory is the frame before (for the changed
/// rectangle and transparency), which each half has; and the muxer's delay for a frame is the
/// next frame's timestamp minus its own. So the first half's images `0…k − 1` (with frame k
/// there only to give `k − 1` its delay) followed by the second half's images from frame `k`
/// (frame `k − 1` there only as the frame before) and its trailer are byte for byte the
/// single process's file. The parts' headers (screen, global palette, loop) must be equal;
/// any other structure is refused (``Mismatch``) and the caller encodes in one process.
enum GIFStitcher {
  /// The parts are not what a split encoding makes.
  struct Mismatch: Error, CustomStringConvertible {
    var description: String
  }

  /// Where each image's blocks begin in a GIF: the offset of its Graphic Control Extension (or
  /// of its image descriptor when it has none), and where the header ends.
  struct Layout: Equatable {
    var headerEnd: Int
    var imageStarts: [Int]
  }

  /// The block layout of the GIF at `path`.
  ///
  /// - Throws: ``Mismatch`` for a file that is not a GIF ffmpeg could have written; I/O errors.
  static func layout(of path: String) throws -> Layout {
    let r = try BufferedReader(path: path)
    let signature = try r.bytes(6)
    guard signature == Array("GIF89a".utf8) || signature == Array("GIF87a".utf8) else {
      throw Mismatch(description: "\(quoted: path) is not a GIF")
    }
    let screen = try r.bytes(7)
    if screen[4] & 0x80 != 0 { try r.stream(3 << ((Int(screen[4]) & 7) + 1), nil) }
    var headerEnd: Int?
    var imageStarts: [Int] = []
    var pendingGCE: Int?
    while true {
      let start = r.offset
      switch try r.byte() {
      case 0x21:
        let label = try r.byte()
        if label == 0xF9 {
          guard pendingGCE == nil else { throw Mismatch(description: "two Graphic Control Extensions in a row") }
          pendingGCE = start
        } else if headerEnd != nil || pendingGCE != nil {
          throw Mismatch(description: "an extension 0x\(quoted: String(label, radix: 16)) between images")
        }
        try r.skipGIFSubBlocks()
      case 0x2C:
        let imageStart = pendingGCE ?? start
        if headerEnd == nil { headerEnd = imageStart }
        imageStarts.append(imageStart)
        pendingGCE = nil
        let descriptor = try r.bytes(9)
        let colourTable = descriptor[8] & 0x80 != 0 ? 3 << ((Int(descriptor[8]) & 7) + 1) : 0
        try r.stream(colourTable + 1, nil)  // the local colour table and the LZW code size
        try r.skipGIFSubBlocks()
      case 0x3B:
        guard pendingGCE == nil, let headerEnd else { throw Mismatch(description: "a GIF without images") }
        return Layout(headerEnd: headerEnd, imageStarts: imageStarts)
      case let other:
        throw Mismatch(description: "an unknown block 0x\(quoted: String(other, radix: 16))")
      }
    }
  }

  /// The frames part `i` of a split encoding encodes when the frames `0..<frames` are cut at
  /// `starts` (increasing, `starts[0] == 0`): its own frames, with the frame before (only as the
  /// encoder's previous frame) unless it is the first part, and the frame after (only to give
  /// its last frame a delay) unless it is the last.
  static func frames(ofPart i: Int, starts: [Int], frames: Int) -> Range<Int> {
    let begin = i == 0 ? 0 : starts[i] - 1
    let end = i + 1 < starts.count ? starts[i + 1] + 1 : frames
    return begin..<end
  }

  /// Writes to `output` the first part's header and own images, then each later part's own
  /// images (without the frame before and, but for the last part, the frame after), and the
  /// last part's trailer: the file one process makes from all the frames.
  ///
  /// - Parameters:
  ///   - parts: The GIFs of the parts, each of the frames ``frames(ofPart:starts:frames:)`` gives.
  ///   - starts: The first own frame of each part (`starts[0] == 0`, increasing).
  /// - Throws: ``Mismatch`` when a part does not have those images or the first part's header;
  ///   I/O errors.
  static func stitch(parts: [String], starts: [Int], frames: Int, into output: String) throws {
    precondition(parts.count == starts.count && parts.count >= 2 && starts.first == 0)
    let layouts = try parts.map(layout(of:))
    let header = try bytes(of: parts[0], 0..<layouts[0].headerEnd)
    for (i, (part, layout)) in zip(parts, layouts).enumerated() {
      let expected = Self.frames(ofPart: i, starts: starts, frames: frames).count
      guard layout.imageStarts.count == expected else {
        throw Mismatch(
          description: "part \(i) has \(layout.imageStarts.count) images where it encodes "
            + "\(quoted: expected) frames")
      }
      if i > 0 {
        guard layout.headerEnd == header.count, try bytes(of: part, 0..<layout.headerEnd) == header else {
          throw Mismatch(description: "the parts' headers differ")
        }
      }
    }
    let w = try BufferedWriter(path: output)
    for (i, (part, layout)) in zip(parts, layouts).enumerated() {
      let last = i == parts.count - 1
      let begin = i == 0 ? 0 : layout.imageStarts[1]
      let end = last ? try fileSize(part) : layout.imageStarts[layout.imageStarts.count - 1]
      try copy(part, begin..<end, to: w)
    }
    try w.close()
  }

  private static func fileSize(_ path: String) throws -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw Mismatch(description: "\(quoted: path): \(quoted: String(cString: strerror(errno)))")
    }
    return Int(info.st_size)
  }

  private static func bytes(of path: String, _ range: Range<Int>) throws -> [UInt8] {
    let r = try BufferedReader(path: path)
    try r.stream(range.lowerBound, nil)
    return try r.bytes(range.count)
  }

  /// Copies `range` of the file at `path` to `w`.
  private static func copy(_ path: String, _ range: Range<Int>, to w: BufferedWriter) throws {
    let r = try BufferedReader(path: path)
    try r.stream(range.lowerBound, nil)
    try r.stream(range.count) { try w.write($0) }
  }
}

extension BufferedReader {
  /// Reads past a GIF's data sub-blocks (a length byte and that many bytes, until a length 0).
  func skipGIFSubBlocks() throws {
    while true {
      let n = try byte()
      if n == 0 { return }
      try stream(Int(n), nil)
    }
  }
}
