import FlickMotion
import Foundation

/// Makes the plain PNG ffmpeg writes for a one-frame `.apng` an animated PNG.
///
/// ffmpeg's `apng` muxer saves a single frame "as a normal PNG": no `acTL` (frame and play
/// count) and no `fcTL` (the frame's delay), so the file lost its timing and `--loop`, and
/// tools that tell APNG from PNG by `acTL` took it for a still. This copies the file with an
/// `acTL` (1 frame, the `--loop` count) and an `fcTL` (sequence 0, the whole canvas, shown
/// `1/fps` s, dispose none, blend source) before its first `IDAT`, which stays the image (the
/// default image is the first frame, as ffmpeg writes one of several). Every other byte is
/// copied; the file is streamed, never loaded.
enum APNGStill {
  /// What happened to the file.
  enum Outcome: Equatable {
    /// `output` holds the animated copy.
    case animated
    /// The file already has an `acTL` (ffmpeg wrote an animation): nothing was written.
    case alreadyAnimated
    /// The file is not the expected structure: nothing usable was written (the reason).
    case unchanged(String)
  }

  /// Copies the PNG `input` into `output` (a new file) with `acTL` and `fcTL` for one frame of
  /// `1/fps` seconds played `plays` times (0: forever).
  ///
  /// - Throws: ``BufferedFile/Failure`` when reading or writing fails.
  static func animate(_ input: String, into output: String, fps: Int, plays: Int) throws -> Outcome {
    guard (1...0xFFFF).contains(fps) else { return .unchanged("a frame rate a PNG delay cannot hold") }
    let r = try BufferedReader(path: input)
    let signature = try r.bytes(8)
    guard signature == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return .unchanged("no PNG signature") }
    let w = try BufferedWriter(path: output)
    try w.write(signature)
    var size: (width: [UInt8], height: [UInt8])?
    var inserted = false
    while true {
      let head = try r.bytes(8)
      let length = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
      guard length <= 0x7FFF_FFFF else { return .unchanged("a chunk longer than PNG allows") }
      let type = String(decoding: head[4..<8], as: UTF8.self)
      switch type {
      case "acTL", "fcTL", "fdAT": return .alreadyAnimated
      case "IHDR":
        guard length == 13 else { return .unchanged("an IHDR of \(length) bytes") }
        let data = try r.bytes(13)
        size = (Array(data[0..<4]), Array(data[4..<8]))
        try w.write(head + data + (try r.bytes(4)))
        continue
      case "IDAT" where !inserted:
        guard let size else { return .unchanged("an IDAT before the IHDR") }
        try w.write(chunk("acTL", bytes32(1) + bytes32(plays)))
        let delay = [UInt8(0), 1, UInt8(fps >> 8), UInt8(fps & 0xFF)]
        try w.write(chunk("fcTL", bytes32(0) + size.width + size.height + bytes32(0) + bytes32(0) + delay + [0, 0]))
        inserted = true
      default: break
      }
      try w.write(head)
      try r.stream(length + 4) { try w.write($0) }
      if type == "IEND" { break }
    }
    guard inserted else { return .unchanged("no IDAT") }
    try w.close()
    return .animated
  }

  /// A chunk of `type` with `data`, its length and CRC.
  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let name = Array(type.utf8)
    var crc = CRC32()
    crc.update(name)
    crc.update(data)
    return bytes32(data.count) + name + data + bytes32(Int(crc.value))
  }

  private static func bytes32(_ v: Int) -> [UInt8] {
    [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }
}

extension EncodedFile {
  /// Makes the one-frame APNG ffmpeg wrote as a plain PNG (``path``) an animated PNG of one
  /// frame (``APNGStill``), through a temporary of its own that then replaces it.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` when reading or writing fails.
  func animateAPNGStill(fps: Int, plays: Int) throws(VideoError) {
    let animated = partial("animated.apng")
    Cleanup.shared.add(file: animated)
    defer { Self.discard(animated) }
    let outcome: APNGStill.Outcome
    do {
      outcome = try APNGStill.animate(path, into: animated, fps: fps, plays: plays)
    } catch {
      throw .cannotWrite(path: destination, reason: "cannot make the one-frame APNG animated: \(escaped: error)")
    }
    if outcome == .animated { try replace(path, with: animated) }
  }
}
