import FlickExpectations
import FlickRaster
import Foundation
import Testing

@testable import FlickSnapshot

/// The snapshot decoder reads only the chunks that make pixels (IHDR, PLTE, tRNS, IDAT, IEND):
/// valid PNGs with colour metadata libpng finds odd decode, damage stays fatal, the renderer
/// fingerprint has one reader, and a file padded with chunks is refused by count.
@Suite struct PNGAncillaryChunkTests {
  typealias P = PNGDecodingTests
  typealias V = VerifyCommandTests
  static let fixtures = V.fixtures.appendingPathComponent("colour-metadata").path

  /// `bytes` without the chunks of the given types (CRCs kept: chunks are copied whole).
  static func stripping(_ types: Set<String>, from bytes: [UInt8]) throws -> [UInt8] {
    var out = PNGFile.signature
    try PNGFile.walk(bytes) { _, range in
      let type = String(decoding: bytes[(range.lowerBound - 4)..<range.lowerBound], as: UTF8.self)
      if !types.contains(type) { out += bytes[(range.lowerBound - 8)..<(range.upperBound + 4)] }
    }
    return out
  }

  @Test func oddColourMetadataDecodesToThePixelsWithoutIt() throws {
    // A grey image with an RGB ICC profile, sRGB with another gAMA, an invalid cHRM (Pillow and
    // Cairo read them; libpng's colour checks called them damaged).
    for name in ["grey_rgbicc.png", "srgb_gama_mismatch.png", "chrm_bad.png"] {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + name)))
      let image = try PNGImage(bytes: bytes, limits: .standard)
      let plain = try PNGImage(bytes: Self.stripping(["iCCP", "sRGB", "gAMA", "cHRM"], from: bytes), limits: .standard)
      expectEqual(image.words, plain.words, "\(name)")
    }
    // Every colour and text chunk Flick does not use, even out of place or malformed.
    let idat = P.zlibStored(P.rows([[10, 20, 30, 40]]))
    let odd: [(String, [UInt8])] = [
      ("gAMA", [0, 0, 0, 0]), ("cHRM", [1, 2, 3]), ("sRGB", [9]), ("iCCP", [0x41, 0, 0, 1, 2]), ("bKGD", [1]),
      ("pHYs", [0]), ("sBIT", [9, 9, 9, 9, 9]), ("tIME", [0]), ("zTXt", [0]), ("iTXt", [0]), ("eXIf", [1]),
    ]
    let image = try P.decode(P.png(width: 1, height: 1, chunks: odd, idat: idat))
    expectEqual(P.rgba(image, 0, 0), [10, 20, 30, 40])
    // tRNS still makes pixels: a grey 8-bit image whose grey 7 is transparent.
    let trns = try P.decode(
      P.png(width: 2, height: 1, colorType: 0, chunks: [("tRNS", [0, 7])], idat: P.zlibStored(P.rows([[7, 9]]))))
    expectEqual(P.rgba(trns, 0, 0)[3], 0)
    expectEqual(P.rgba(trns, 1, 0), [9, 9, 9, 255])
  }

  @Test func damageStaysFatal() throws {
    let idat = P.zlibStored(P.rows([[10, 20, 30, 40]]))
    // An unknown critical chunk.
    #expect(throws: PNGFile.StructureError.self) {
      try P.decode(P.png(width: 1, height: 1, chunks: [("ABCD", [1])], idat: idat))
    }
    // A colour chunk that fails its CRC.
    var broken = P.png(width: 1, height: 1, chunks: [("gAMA", [0, 1, 0x86, 0xA0])], idat: idat)
    broken[8 + 25 + 8] ^= 1
    #expect(throws: PNGFile.StructureError.self) { try P.decode(broken) }
    // Damaged image data.
    var data = idat
    data[data.count - 1] ^= 1
    #expect(throws: PNGFile.StructureError.self) { try P.decode(P.png(width: 1, height: 1, idat: data)) }
  }

  @Test func theRendererFingerprintIsTheFirstTextChunkForEveryReader() throws {
    var other = RendererFingerprint.current
    other.cairo = "0.0.1-other"
    func text(_ keyword: String, _ f: RendererFingerprint) throws -> [UInt8] {
      Array(keyword.utf8) + [0] + [UInt8](try JSONEncoder().encode(f))
    }
    let idat = P.zlibStored(P.rows([[10, 20, 30, 40]]))
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // Two fingerprints: the first wins for the chunk walk and the decode alike (the decode took the last).
    let two = P.png(
      width: 1, height: 1,
      chunks: [
        ("tEXt", try text(PNGImage.rendererKeyword, .current)), ("tEXt", try text(PNGImage.rendererKeyword, other)),
      ],
      idat: idat)
    try Data(two).write(to: URL(fileURLWithPath: dir + "/two.png"))
    try expectEqual(PNGImage.recordedRenderer(atPath: dir + "/two.png"), RendererFingerprint.current)
    try expectEqual(PNGImage(contentsOf: dir + "/two.png").renderer, RendererFingerprint.current)
    // One in iTXt: neither reader takes it (the decode did).
    let itxt = P.png(
      width: 1, height: 1,
      chunks: [
        ("iTXt", Array(PNGImage.rendererKeyword.utf8) + [0, 0, 0, 0, 0] + [UInt8](try JSONEncoder().encode(other)))
      ],
      idat: idat)
    try Data(itxt).write(to: URL(fileURLWithPath: dir + "/itxt.png"))
    try expectEqual(PNGImage.recordedRenderer(atPath: dir + "/itxt.png"), nil)
    try expectEqual(PNGImage(contentsOf: dir + "/itxt.png").renderer, nil)
  }
}
