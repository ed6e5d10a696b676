import Foundation

/// Merges runs of identical frames in a finished GIF or APNG into one frame with the run's
/// whole delay, rewriting the file ffmpeg muxed (into a new file; the caller swaps it in).
///
/// Which frames repeat is given, one flag per encoded frame, from the render trees
/// (``FlickRaster/Renderer/drawsIdentically(_:_:)``), never found from pixels. Both formats
/// are lossless towards the picture ffmpeg encoded, so the canvas after every frame of a run
/// is the run's picture P, whatever the encoder wrote for the repeats (ffmpeg writes a
/// transparent or 1×1 "nothing changed" frame). A repeat can be dropped, and its delay added
/// to the frame kept before it (K), when K can be given a disposal that leaves the canvas the
/// next frame was encoded against exactly as the repeat's own disposal left it:
/// - the repeat disposes of nothing: K disposes of nothing (the canvas stays P);
/// - it clears its rectangle to the background: K clears the same rectangle, so only when
///   K's rectangle is the repeat's;
/// - it restores the canvas from before itself: that canvas is P when the frame before it
///   disposed of nothing, and K then disposes of nothing.
///
/// Otherwise the repeat is kept as a frame of its own (and becomes K for what follows).
/// Delays are summed exactly: GIF centiseconds as written (ffmpeg's cumulative rounding
/// stays), APNG fractions reduced; a sum that does not fit the format's 16-bit fields ends the
/// run. Every other byte is copied, except APNG sequence numbers and CRCs, renumbered and
/// recomputed for the frames left out, and its `acTL` frame count.
enum IdenticalFrameMerger {
  /// What a merge did.
  enum Outcome: Equatable {
    /// Frames were left out: `kept` of `frames` remain.
    case merged(kept: Int, frames: Int)
    /// The file's structure is not the one expected (so nothing was merged): the reason.
    case unchanged(String)
  }

  /// A frame's disposal, as both formats define it.
  enum Disposal: Equatable {
    case none, background, previous, unknown
  }

  /// A frame's rectangle on the canvas, in pixels.
  struct Rect: Equatable {
    var x: Int, y: Int, width: Int, height: Int
  }

  /// The disposal that the kept frame must get when a repeat with `disposal` over `rect` is
  /// left out, or nil when none has the same effect; `previous` is the original disposal of
  /// the frame just before the repeat, `kept` the kept frame's rectangle.
  static func disposalReplacing(_ disposal: Disposal, rect: Rect, kept: Rect, previous: Disposal) -> Disposal? {
    switch disposal {
    case .none: return Disposal.none
    case .background: return rect == kept ? .background : nil
    case .previous: return previous == .none ? Disposal.none : nil
    case .unknown: return nil
    }
  }

  /// Merges `input` (a GIF or APNG) into `output` with `repeats[i]` telling whether encoded
  /// frame `i` draws the same picture as frame `i − 1`.
  ///
  /// - Returns: what was done; with ``Outcome/unchanged(_:)`` `output` is incomplete and must
  ///   be removed (the input stays the file to use).
  /// - Throws: ``BufferedFile/Failure`` when reading or writing fails.
  static func merge(_ format: OutputFormat, input: String, output: String, repeats: [Bool]) throws
    -> Outcome
  {
    let reader = try BufferedReader(path: input)
    let writer = try BufferedWriter(path: output)
    let outcome: Outcome
    do {
      switch format {
      case .gif: outcome = try mergeGIF(reader, writer, repeats: repeats)
      case .apng: outcome = try mergeAPNG(reader, writer, repeats: repeats)
      default: outcome = .unchanged("\(format.rawValue) frames are not merged")
      }
    } catch BufferedFile.Failure.truncated {
      try? writer.close()
      return .unchanged("the file ends early")
    }
    try writer.close()
    return outcome
  }

  // MARK: - GIF

  /// GIF: every image is preceded by its Graphic Control Extension (disposal, delay in 1/100 s),
  /// which ffmpeg always writes; images left out take their GCE with them.
  private static func mergeGIF(_ r: BufferedReader, _ w: BufferedWriter, repeats: [Bool]) throws
    -> Outcome
  {
    let header = try r.bytes(13)
    guard header[0..<3] == [0x47, 0x49, 0x46] else { return .unchanged("not a GIF") }
    try w.write(header)
    if header[10] & 0x80 != 0 { try r.stream(3 << ((Int(header[10]) & 7) + 1)) { try w.write($0) } }

    struct Kept {
      var gceOffset: Int  // of the GCE's packed byte in the output
      var packed: UInt8
      var delay: Int
      var rect: Rect
    }
    var kept: Kept?
    var pendingGCE: [UInt8]?  // packed, delay lo, delay hi, transparent index
    var frame = 0
    var written = 0
    var previous = Disposal.unknown
    func disposal(_ packed: UInt8) -> Disposal {
      switch (packed >> 2) & 7 {
      case 0, 1: return .none
      case 2: return .background
      case 3: return .previous
      default: return .unknown
      }
    }
    func raw(_ d: Disposal, like packed: UInt8) -> UInt8 {
      switch d {
      case .none: return disposal(packed) == .none ? (packed >> 2) & 7 : 1
      case .background: return 2
      case .previous: return 3
      case .unknown: return (packed >> 2) & 7
      }
    }
    func copySubBlocks() throws {
      while true {
        let n = try r.byte()
        try w.write(byte: n)
        if n == 0 { return }
        try r.stream(Int(n)) { try w.write($0) }
      }
    }

    while true {
      let introducer = try r.byte()
      switch introducer {
      case 0x21:
        let label = try r.byte()
        if label == 0xF9 {
          let size = try r.byte()
          guard size == 4, pendingGCE == nil else { return .unchanged("an unexpected Graphic Control Extension") }
          let fields = try r.bytes(4)
          guard try r.byte() == 0 else { return .unchanged("a Graphic Control Extension without its terminator") }
          pendingGCE = fields
        } else {
          guard pendingGCE == nil else { return .unchanged("an extension between a GCE and its image") }
          try w.write([0x21, label])
          try copySubBlocks()
        }
      case 0x2C:
        guard let gce = pendingGCE else { return .unchanged("an image without a Graphic Control Extension") }
        pendingGCE = nil
        guard frame < repeats.count else { return .unchanged("more images than frames") }
        let descriptor = try r.bytes(9)
        func le(_ i: Int) -> Int { Int(descriptor[i]) | Int(descriptor[i + 1]) << 8 }
        let rect = Rect(x: le(0), y: le(2), width: le(4), height: le(6))
        let delay = Int(gce[1]) | Int(gce[2]) << 8
        let own = disposal(gce[0])
        let colourTable = descriptor[8] & 0x80 != 0 ? 3 << ((Int(descriptor[8]) & 7) + 1) : 0
        if frame > 0, repeats[frame], var k = kept, k.delay + delay <= 0xFFFF,
          let replaced = disposalReplacing(own, rect: rect, kept: k.rect, previous: previous)
        {
          // Left out: its delay and its disposal's effect go to the kept frame.
          try r.stream(colourTable + 1, nil)
          try r.skipGIFSubBlocks()
          k.delay += delay
          k.packed = k.packed & ~0x1C | raw(replaced, like: k.packed) << 2
          try w.patch(at: k.gceOffset, [k.packed, UInt8(k.delay & 0xFF), UInt8(k.delay >> 8)])
          kept = k
        } else {
          kept = Kept(gceOffset: w.offset + 3, packed: gce[0], delay: delay, rect: rect)
          try w.write([0x21, 0xF9, 4] + gce + [0])
          try w.write([0x2C] + descriptor)
          try r.stream(colourTable + 1) { try w.write($0) }
          try copySubBlocks()
          written += 1
        }
        previous = own
        frame += 1
      case 0x3B:
        guard pendingGCE == nil else { return .unchanged("a Graphic Control Extension without an image") }
        guard frame == repeats.count else { return .unchanged("\(frame) images for \(repeats.count) frames") }
        try w.write(byte: 0x3B)
        return .merged(kept: written, frames: frame)
      default:
        return .unchanged("an unknown block 0x\(String(introducer, radix: 16))")
      }
    }
  }

  // MARK: - APNG

  /// APNG: chunks `acTL` (frame count), then per frame an `fcTL` (sequence number, rectangle,
  /// delay fraction, dispose and blend operations) and its data (`IDAT` for the first frame,
  /// numbered `fdAT` chunks after); sequence numbers run over `fcTL` and `fdAT` together.
  private static func mergeAPNG(_ r: BufferedReader, _ w: BufferedWriter, repeats: [Bool]) throws
    -> Outcome
  {
    let signature = try r.bytes(8)
    guard signature == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return .unchanged("not a PNG") }
    try w.write(signature)

    struct Kept {
      var offset: Int  // of the fcTL chunk's type in the output
      var fields: [UInt8]  // the 26 data bytes as written
      var delay: (Int, Int)
      var rect: Rect
    }
    func be32(_ b: [UInt8], _ i: Int) -> Int {
      Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
    func bytes32(_ v: Int) -> [UInt8] {
      [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    func crc(_ type: [UInt8], _ data: [UInt8]) -> [UInt8] {
      var c = CRC32()
      c.update(type)
      c.update(data)
      return bytes32(Int(c.value))
    }
    func disposal(_ op: UInt8) -> Disposal {
      switch op {
      case 0: return .none
      case 1: return .background
      case 2: return .previous
      default: return .unknown
      }
    }
    func op(_ d: Disposal) -> UInt8 { d == .background ? 1 : d == .previous ? 2 : 0 }
    func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    var acTL: (offset: Int, plays: [UInt8])?
    var kept: Kept?
    var frame = 0
    var written = 0
    var sequence = 0
    var dropping = false
    var previous = Disposal.unknown
    let fcTL: [UInt8] = Array("fcTL".utf8)
    let fdAT: [UInt8] = Array("fdAT".utf8)

    while true {
      let head = try r.bytes(8)
      let length = be32(head, 0)
      let type = Array(head[4..<8])
      guard length <= 0x7FFF_FFFF else { return .unchanged("a chunk longer than PNG allows") }
      switch String(decoding: type, as: UTF8.self) {
      case "acTL":
        guard length == 8, acTL == nil else { return .unchanged("an unexpected acTL") }
        let data = try r.bytes(8)
        _ = try r.bytes(4)
        acTL = (w.offset, Array(data[4..<8]))
        try w.write(head + data + crc(type, data))
      case "fcTL":
        guard length == 26, acTL != nil else { return .unchanged("an unexpected fcTL") }
        var data = try r.bytes(26)
        _ = try r.bytes(4)
        guard frame < repeats.count else { return .unchanged("more frames than rendered") }
        let rect = Rect(x: be32(data, 12), y: be32(data, 16), width: be32(data, 4), height: be32(data, 8))
        let num = Int(data[20]) << 8 | Int(data[21])
        let den = Int(data[22]) << 8 | Int(data[23]) == 0 ? 100 : Int(data[22]) << 8 | Int(data[23])
        let own = disposal(data[24])
        dropping = false
        if frame > 0, repeats[frame], var k = kept,
          let replaced = disposalReplacing(own, rect: rect, kept: k.rect, previous: previous)
        {
          var sum = (k.delay.0 * den + num * k.delay.1, k.delay.1 * den)
          let g = max(1, gcd(sum.0, sum.1))
          sum = (sum.0 / g, sum.1 / g)
          if sum.0 <= 0xFFFF && sum.1 <= 0xFFFF {
            dropping = true
            k.delay = sum
            k.fields[20] = UInt8(sum.0 >> 8)
            k.fields[21] = UInt8(sum.0 & 0xFF)
            k.fields[22] = UInt8(sum.1 >> 8)
            k.fields[23] = UInt8(sum.1 & 0xFF)
            k.fields[24] = op(replaced)
            try w.patch(at: k.offset, fcTL + k.fields + crc(fcTL, k.fields))
            kept = k
          }
        }
        if !dropping {
          data.replaceSubrange(0..<4, with: bytes32(sequence))
          sequence += 1
          kept = Kept(offset: w.offset + 4, fields: data, delay: (num, den), rect: rect)
          try w.write(head + data + crc(type, data))
          written += 1
        }
        previous = own
        frame += 1
      case "fdAT":
        guard length >= 4, frame > 0 else { return .unchanged("an fdAT before any fcTL") }
        if dropping {
          try r.stream(length + 4, nil)
          continue
        }
        _ = try r.bytes(4)
        let number = bytes32(sequence)
        sequence += 1
        var c = CRC32()
        c.update(fdAT)
        c.update(number)
        try w.write(head + number)
        try r.stream(length - 4) { bytes throws in
          c.update(bytes)
          try w.write(bytes)
        }
        _ = try r.bytes(4)
        try w.write(bytes32(Int(c.value)))
      case "IEND":
        guard frame == repeats.count, let acTL else {
          return .unchanged("\(frame) frames for \(repeats.count) rendered")
        }
        try w.write(head)
        try r.stream(length + 4) { try w.write($0) }
        return try finishAPNG(w, acTL: acTL, frames: written, total: frame)
      default:
        guard !dropping else {
          return .unchanged("a \(String(decoding: type, as: UTF8.self)) chunk in a repeated frame")
        }
        try w.write(head)
        try r.stream(length + 4) { try w.write($0) }
      }
    }
  }

  private static func finishAPNG(_ w: BufferedWriter, acTL: (offset: Int, plays: [UInt8]), frames: Int, total: Int)
    throws -> Outcome
  {
    let count: [UInt8] = [
      UInt8(frames >> 24 & 0xFF), UInt8(frames >> 16 & 0xFF), UInt8(frames >> 8 & 0xFF), UInt8(frames & 0xFF),
    ]
    let data = count + acTL.plays
    var c = CRC32()
    c.update(Array("acTL".utf8))
    c.update(data)
    let v = c.value
    try w.patch(
      at: acTL.offset + 8, data + [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
    return .merged(kept: frames, frames: total)
  }
}

extension BufferedReader {
  /// Reads past a GIF's data sub-blocks (a length byte and that many bytes, until a length 0).
  fileprivate func skipGIFSubBlocks() throws {
    while true {
      let n = try byte()
      if n == 0 { return }
      try stream(Int(n), nil)
    }
  }
}
