import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@testable import FlickSnapshot

/// Hand-made PNGs: every colour type decodes to the right pixels, and every kind of damaged
/// pixel data (chunks and CRCs valid) is refused, whichever side of a comparison it is on.
@Suite struct PNGDecodingTests {
  // MARK: - Building PNGs

  /// A zlib stream holding `raw` in stored (uncompressed) deflate blocks.
  static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var at = 0
    repeat {
      let n = min(65535, raw.count - at)
      let last: UInt8 = at + n == raw.count ? 1 : 0
      out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
      out += raw[at..<(at + n)]
      at += n
    } while at < raw.count
    PNGFile.appendUInt32(adler32(raw), to: &out)
    return out
  }

  /// zlib's Adler-32 of `bytes` (RFC 1950).
  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
  }

  /// A PNG file: IHDR for `width × height`, the given extra chunks, `idat` as one IDAT, IEND.
  static func png(
    width: Int, height: Int, depth: UInt8 = 8, colorType: UInt8 = 6, interlace: UInt8 = 0,
    chunks: [(String, [UInt8])] = [], idat: [UInt8]
  ) -> [UInt8] {
    var out = PNGFile.signature
    var header: [UInt8] = []
    PNGFile.appendUInt32(UInt32(width), to: &header)
    PNGFile.appendUInt32(UInt32(height), to: &header)
    header += [depth, colorType, 0, 0, interlace]
    PNGFile.appendChunk("IHDR", header, to: &out)
    for (type, data) in chunks { PNGFile.appendChunk(type, data, to: &out) }
    PNGFile.appendChunk("IDAT", idat, to: &out)
    PNGFile.appendChunk("IEND", [], to: &out)
    return out
  }

  /// Rows of `bytesPerRow` bytes each with filter byte 0.
  static func rows(_ data: [[UInt8]]) -> [UInt8] { data.flatMap { [0] + $0 } }

  static func decode(_ bytes: [UInt8], limits: DecodeLimits = .standard) throws(PNGFile.StructureError) -> PNGImage {
    try PNGImage(bytes: bytes, limits: limits)
  }

  static func rgba(_ image: PNGImage, _ x: Int, _ y: Int) -> [UInt8] {
    let w = image.words[y * image.width + x]
    return [UInt8((w >> 16) & 0xFF), UInt8((w >> 8) & 0xFF), UInt8(w & 0xFF), UInt8(w >> 24)]
  }

  // MARK: - Good files

  @Test func decodesEveryColourTypeAndDepth() throws {
    // RGBA 8.
    let rgba = try Self.decode(
      Self.png(width: 2, height: 1, idat: Self.zlibStored(Self.rows([[1, 2, 3, 4, 5, 6, 7, 8]]))))
    expectEqual(Self.rgba(rgba, 0, 0), [1, 2, 3, 4])
    expectEqual(Self.rgba(rgba, 1, 0), [5, 6, 7, 8])
    // RGB 16 with tRNS: the high byte; the transparent colour gets alpha 0.
    let trns: [UInt8] = [0x12, 0x34, 0, 0, 0xFF, 0xFF]
    let rgb16 = try Self.decode(
      Self.png(
        width: 2, height: 1, depth: 16, colorType: 2, chunks: [("tRNS", trns)],
        idat: Self.zlibStored(Self.rows([[0x12, 0x34, 0, 0, 0xFF, 0xFF, 0xAB, 0xCD, 1, 2, 3, 4]]))))
    expectEqual(Self.rgba(rgb16, 0, 0)[3], 0)
    expectEqual(Self.rgba(rgb16, 1, 0), [0xAB, 1, 3, 255])
    // Grey 1-bit: 0b1010_0000 over 4 pixels.
    let grey = try Self.decode(
      Self.png(width: 4, height: 1, depth: 1, colorType: 0, idat: Self.zlibStored(Self.rows([[0b1010_0000]]))))
    expectEqual((0..<4).map { Self.rgba(grey, $0, 0)[0] }, [255, 0, 255, 0])
    // Palette 2-bit with tRNS.
    let palette = try Self.decode(
      Self.png(
        width: 3, height: 1, depth: 2, colorType: 3,
        chunks: [("PLTE", [10, 20, 30, 40, 50, 60, 70, 80, 90]), ("tRNS", [0, 128])],
        idat: Self.zlibStored(Self.rows([[0b0001_1000]]))))
    expectEqual(Self.rgba(palette, 0, 0), [10, 20, 30, 0])
    expectEqual(Self.rgba(palette, 1, 0), [40, 50, 60, 128])
    expectEqual(Self.rgba(palette, 2, 0), [70, 80, 90, 255])
    // Grey + alpha 8.
    let ga = try Self.decode(Self.png(width: 1, height: 1, colorType: 4, idat: Self.zlibStored(Self.rows([[77, 99]]))))
    expectEqual(Self.rgba(ga, 0, 0), [77, 77, 77, 99])
  }

  @Test func undoesEveryFilterAndAdam7() throws {
    // One row per filter type over the same target pixels, then compare with a plain copy.
    let w = 3, h = 5, bpp = 4
    var target: [[UInt8]] = []
    for y in 0..<h { target.append((0..<(w * bpp)).map { UInt8((y * 37 + $0 * 11) & 0xFF) }) }
    var filtered: [UInt8] = []
    for y in 0..<h {
      let kind = UInt8(y % 5)
      filtered.append(kind)
      for i in 0..<(w * bpp) {
        let a = i >= bpp ? Int(target[y][i - bpp]) : 0
        let b = y > 0 ? Int(target[y - 1][i]) : 0
        let c = i >= bpp && y > 0 ? Int(target[y - 1][i - bpp]) : 0
        let p = a + b - c
        let paeth = abs(p - a) <= abs(p - b) && abs(p - a) <= abs(p - c) ? a : abs(p - b) <= abs(p - c) ? b : c
        let predictor = [0, a, b, (a + b) / 2, paeth][Int(kind)]
        filtered.append(UInt8((Int(target[y][i]) - predictor) & 0xFF))
      }
    }
    let plain = try Self.decode(Self.png(width: w, height: h, idat: Self.zlibStored(Self.rows(target))))
    let viaFilters = try Self.decode(Self.png(width: w, height: h, idat: Self.zlibStored(filtered)))
    expectEqual(plain.words, viaFilters.words)
    // The same pixels interlaced (Adam7): pass rows gathered from the plain image.
    let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    var interlaced: [UInt8] = []
    for (x0, y0, dx, dy) in passes {
      for y in stride(from: y0, to: h, by: dy) {
        let xs = Array(stride(from: x0, to: w, by: dx))
        if xs.isEmpty { continue }
        interlaced.append(0)
        for x in xs { interlaced += target[y][(x * bpp)..<(x * bpp + bpp)] }
      }
    }
    let adam7 = try Self.decode(Self.png(width: w, height: h, interlace: 1, idat: Self.zlibStored(interlaced)))
    expectEqual(adam7.words, plain.words)
  }

  @Test func decodesWhatCairoWritesLikeCairoReadsIt() throws {
    // A rendered frame with translucent, anti-aliased edges, compressed by Cairo's zlib.
    var card = Layer(id: "card")
    card.bounds = Rect(x: 0, y: 0, width: 30, height: 20)
    card.position = Point(x: 20.3, y: 14.6)
    card.cornerRadius = 6
    card.backgroundColor = Color(red: 0.2, green: 0.7, blue: 0.4, alpha: 0.6)
    let scene = Scene(size: Size(width: 48, height: 32), duration: 1, backgroundColor: .clear, layers: [card])
    let frame = try Renderer().render(scene.renderTree(at: 0))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flick-dec-\(UUID().uuidString).png").path
    defer { unlink(path) }
    try PNGFile.write(frame, to: path)
    let image = try PNGImage(contentsOf: path)
    expectEqual(image.renderer, RendererFingerprint.current)
    expectEqual(image.frame, (try Frame(pngAt: path)), "Flick's decoder agrees with Cairo's reader")
    expectEqual(image.words, PNGImage(frame: frame).words, "un-premultiplying matches Cairo's writer")
  }

  // MARK: - Damaged files

  /// Every variant has valid chunks and CRCs; only the pixel data is wrong.
  static func undecodable() -> [(String, [UInt8])] {
    let good = rows([[1, 2, 3, 255, 4, 5, 6, 255], [7, 8, 9, 255, 10, 11, 12, 255]])
    var damaged = zlibStored(good)
    damaged[0] = 0x79  // header check bits no longer divide by 31
    var body = zlibStored(good)
    body[9] ^= 0xFF  // a pixel byte: the Adler-32 no longer matches
    var badFilter = good
    badFilter[9] = 7
    return [
      ("damaged zlib header", png(width: 2, height: 2, idat: damaged)),
      ("damaged zlib data", png(width: 2, height: 2, idat: body)),
      ("truncated zlib stream", png(width: 2, height: 2, idat: Array(zlibStored(good).dropLast(6)))),
      ("too few rows", png(width: 2, height: 3, idat: zlibStored(good))),
      ("too much data", png(width: 2, height: 1, idat: zlibStored(good))),
      ("bad filter byte", png(width: 2, height: 2, idat: zlibStored(badFilter))),
      ("huge header over a tiny data chunk", png(width: 20000, height: 20000, idat: zlibStored(good))),
      ("2³¹−1 header", png(width: Int(Int32.max), height: 1, idat: zlibStored(good))),
      (
        "palette index beyond PLTE",
        png(width: 1, height: 1, colorType: 3, chunks: [("PLTE", [1, 2, 3])], idat: zlibStored([0, 5]))
      ),
    ]
  }

  @Test func everyDamagedVariantIsRefusedWithItsReason() throws {
    for (name, bytes) in Self.undecodable() {
      #expect(throws: PNGFile.StructureError.self, "\(name)") { try Self.decode(bytes) }
    }
    // With the pixel limit lifted, every variant is still refused (the huge headers because
    // deflate cannot expand a few bytes into that many rows), without reserving their size.
    for (name, bytes) in Self.undecodable() {
      #expect(throws: PNGFile.StructureError.self, "\(name)") {
        try Self.decode(bytes, limits: DecodeLimits(maxPixels: .max))
      }
    }
    do {
      _ = try Self.decode(Self.undecodable()[5].1)
    } catch {
      #expect(error.message.contains("libpng: bad adaptive filter value"), "\(error.message)")
    }
    do {
      _ = try Self.decode(Self.undecodable()[3].1)
    } catch {
      #expect(error.message.contains("libpng: Not enough image data"), "\(error.message)")
    }
  }

  /// Refused by checks that run before inflating or reserving anything (the time this takes is
  /// in `make bench-snapshot`: "refuse a 20000×20000 header").
  @Test func aHugeHeaderIsRefusedFromTheHeaderBeforeAnyAllocation() throws {
    let bytes = Self.undecodable()[6].1
    var message = ""
    do {
      _ = try Self.decode(bytes)
    } catch {
      message = error.message
    }
    // The pixel limit, read from the header.
    #expect(message.contains("20000×20000"), "\(message)")
    #expect(message.contains("decode limit of 40000000"), "\(message)")
    // With the limit lifted: the data cannot hold the rows (deflate expands at most ~1032:1),
    // found before the 1.6 GB output would be reserved.
    do {
      _ = try Self.decode(bytes, limits: DecodeLimits(maxPixels: .max))
    } catch {
      message = error.message
    }
    #expect(message.contains("cannot hold"), "\(message)")
    #expect(message.contains("too few rows"), "\(message)")
  }

  @Test func anUndecodableFileNeverMatchesOnEitherSideNorItself() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-undec-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = dir.appendingPathComponent("good.png").path
    try Data(
      Self.png(
        width: 2, height: 2,
        idat: Self.zlibStored(Self.rows([[1, 2, 3, 255, 4, 5, 6, 255], [7, 8, 9, 255, 10, 11, 12, 255]])))
    ).write(to: URL(fileURLWithPath: good))
    let comparator = ImageComparator()
    try expectEqual(comparator.compareFiles(expected: good, actual: good).verdict, .identicalBytes)
    for (i, (name, bytes)) in Self.undecodable().enumerated() {
      let bad = dir.appendingPathComponent("bad\(i).png").path
      try Data(bytes).write(to: URL(fileURLWithPath: bad))
      #expect(throws: SnapshotError.self, "\(name)") { try comparator.compareFiles(expected: bad, actual: bad) }
      #expect(throws: SnapshotError.self, "\(name)") { try comparator.compareFiles(expected: good, actual: bad) }
      #expect(throws: SnapshotError.self, "\(name)") { try comparator.compareFiles(expected: bad, actual: good) }
      // One message, not "cannot read image X: cannot read image X: …".
      do {
        _ = try comparator.compareFiles(expected: good, actual: bad)
      } catch {
        expectEqual(error.description.components(separatedBy: "cannot read image").count, 2, "\(error.description)")
      }
    }
  }
}
