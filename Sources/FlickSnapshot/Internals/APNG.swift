/// Builds an animated PNG from complete PNG files of the same size and colour type (their IDAT
/// streams are reused as they are: the first as the default image, the others as `fdAT`).
enum APNG {
  /// - Parameters:
  ///   - pngs: Encoded PNG files, all with the same `IHDR`.
  ///   - delay: Seconds each frame shows.
  ///   - plays: Number of loops; 0 loops forever.
  static func assemble(_ pngs: [[UInt8]], delay: Double, plays: UInt32 = 0) throws(PNGFile.StructureError) -> [UInt8] {
    guard !pngs.isEmpty else { throw PNGFile.StructureError(message: "no frames") }
    var parsed: [PNGFile.Checked] = []
    for png in pngs { parsed.append(try PNGFile.check(png)) }
    let header = parsed[0].header
    for p in parsed where !p.header.elementsEqual(header) {
      throw PNGFile.StructureError(message: "frames differ in size or colour type")
    }
    var out = PNGFile.signature
    PNGFile.appendChunk("IHDR", Array(header), to: &out)
    var actl: [UInt8] = []
    PNGFile.appendUInt32(UInt32(pngs.count), to: &actl)
    PNGFile.appendUInt32(plays, to: &actl)
    PNGFile.appendChunk("acTL", actl, to: &out)
    // Delay as a fraction of a second in milliseconds.
    let delayMs = UInt16(max(1, min(65535, (delay * 1000).rounded())))
    var sequence: UInt32 = 0
    for (index, png) in parsed.enumerated() {
      var fctl: [UInt8] = []
      PNGFile.appendUInt32(sequence, to: &fctl)
      sequence += 1
      PNGFile.appendUInt32(UInt32(png.size.width), to: &fctl)
      PNGFile.appendUInt32(UInt32(png.size.height), to: &fctl)
      PNGFile.appendUInt32(0, to: &fctl)
      PNGFile.appendUInt32(0, to: &fctl)
      PNGFile.appendUInt16(delayMs, to: &fctl)
      PNGFile.appendUInt16(1000, to: &fctl)
      fctl += [0, 0]  // dispose: none; blend: source
      PNGFile.appendChunk("fcTL", fctl, to: &out)
      try PNGFile.walk(png.bytes) { type, range in
        guard type == PNGFile.idat else { return }
        if index == 0 {
          PNGFile.appendChunk("IDAT", Array(png.bytes[range]), to: &out)
        } else {
          var data: [UInt8] = []
          PNGFile.appendUInt32(sequence, to: &data)
          sequence += 1
          data += png.bytes[range]
          PNGFile.appendChunk("fdAT", data, to: &out)
        }
      }
    }
    PNGFile.appendChunk("IEND", [], to: &out)
    return out
  }
}
