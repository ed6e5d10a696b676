import Foundation

extension WebPFrameEnd {
  /// The longest a WebP frame lasts: its `ANMF` duration has 24 bits of milliseconds.
  static let longestFrame = 0xFF_FFFF

  /// The still WebP `bytes` (a `VP8 ` or `VP8L` image, with a `VP8X` header and `ALPH` chunk or
  /// without) as an animated WebP that shows the image for `milliseconds` and plays `loops`
  /// times (0: forever): `VP8X` (the animation flag, alpha when the image has it, the image's
  /// size as the canvas), `ANIM` (the background libwebp_anim writes, white, and the loop
  /// count) and one `ANMF` frame at 0,0 holding the image's chunks unchanged (several frames of
  /// the same image when the length is over ``longestFrame``). `libwebp_anim` writes a still
  /// when every frame of an opaque clip is identical, and a still has no length and no loop
  /// count. The same input gives the same bytes.
  ///
  /// - Returns: The animated file, or nil when `bytes` holds no image chunk or already has
  ///   `ANIM`/`ANMF` chunks.
  static func animated(_ bytes: [UInt8], milliseconds: Int, loops: Int) -> [UInt8]? {
    guard bytes.count >= 12, milliseconds > 0 else { return nil }
    func le(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    var image: [UInt8] = []
    var alpha = false
    var canvas: (width: Int, height: Int)?
    var at = 12
    while at + 8 <= bytes.count {
      let tag = String(decoding: bytes[at..<at + 4], as: UTF8.self)
      let size = le(at + 4, 4)
      let data = at + 8
      guard data + size <= bytes.count else { return nil }
      var piece = Array(bytes[at..<data + size])
      if size & 1 == 1 { piece.append(0) }
      switch tag {
      case "ANIM", "ANMF": return nil
      case "VP8X" where size >= 10:
        canvas = (width: le(data + 4, 3) + 1, height: le(data + 7, 3) + 1)
      case "ALPH":
        alpha = true
        image += piece
      case "VP8 " where size >= 10:
        // The frame tag (3 bytes), the start code (3), then 14-bit width and height.
        if canvas == nil { canvas = (width: le(data + 6, 2) & 0x3FFF, height: le(data + 8, 2) & 0x3FFF) }
        image += piece
      case "VP8L" where size >= 5:
        // The signature byte, then 14 bits of width - 1, 14 of height - 1, the alpha bit.
        let bits = le(data + 1, 4)
        if canvas == nil { canvas = (width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1) }
        alpha = alpha || bits >> 28 & 1 == 1
        image += piece
      default: break  // ICCP, EXIF, XMP: not carried over
      }
      at = data + size + (size & 1)
    }
    guard let canvas, !image.isEmpty, canvas.width > 0, canvas.height > 0 else { return nil }
    func le24(_ n: Int) -> [UInt8] { [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF)] }
    func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
      var out: [UInt8] = Array(tag.utf8)
      out += le24(payload.count)
      out.append(UInt8(payload.count >> 24 & 0xFF))
      out += payload
      if payload.count & 1 == 1 { out.append(0) }
      return out
    }
    var body = Array("WEBP".utf8)
    let dimensions: [UInt8] = le24(canvas.width - 1) + le24(canvas.height - 1)
    let flags: UInt8 = alpha ? 0x12 : 0x02
    body += chunk("VP8X", [flags, 0, 0, 0] + dimensions)
    body += chunk("ANIM", [0xFF, 0xFF, 0xFF, 0xFF, UInt8(loops & 0xFF), UInt8(loops >> 8 & 0xFF)])
    var left = milliseconds
    while left > 0 {
      let length = min(left, longestFrame)
      left -= length
      // At 0,0, the canvas's size, `length` ms, no blending (bit 1), no disposal.
      var frame: [UInt8] = le24(0) + le24(0)
      frame += dimensions
      frame += le24(length)
      frame.append(0x02)
      frame += image
      body += chunk("ANMF", frame)
    }
    var file: [UInt8] = Array("RIFF".utf8)
    file += le24(body.count)
    file.append(UInt8(body.count >> 24 & 0xFF))
    return file + body
  }
}
