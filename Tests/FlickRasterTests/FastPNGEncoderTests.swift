import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// Flick's own PNG encoder (`Sources/CPNG/fastpng.h`, behind ``Frame/writePNG(to:)``) stores the
/// very samples the libpng writer it replaced stores: every file is decoded by libpng's reader
/// (an independent inflate and unfilter) and compared sample for sample, colour type included.
/// The bytes of the files differ; that is allowed.
@Suite struct FastPNGEncoderTests {
  /// Writes `frame` with both encoders into `dir` and expects the same colour type and the same
  /// decoded samples; returns the fast file's bytes.
  @discardableResult
  static func expectSameAsLibpng(
    _ frame: Frame, in dir: URL, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [UInt8] {
    let fast = dir.appendingPathComponent("\(name).png").path
    let old = dir.appendingPathComponent("\(name).libpng.png").path
    try frame.writePNG(to: fast)
    try frame.writePNGWithLibpng(to: old)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fast)))
    let reference = try [UInt8](Data(contentsOf: URL(fileURLWithPath: old)))
    expectEqual(bytes[25], reference[25], "\(name): colour type", sourceLocation: sourceLocation)
    let a = try? PNGFile(path: fast)
    let b = try? PNGFile(path: old)
    #expect(a != nil, "\(name): libpng reads both files", sourceLocation: sourceLocation)
    #expect(b != nil, "\(name): libpng reads both files", sourceLocation: sourceLocation)
    if let a, let b {
      expectEqual(a.width, frame.width, "\(name): size", sourceLocation: sourceLocation)
      expectEqual(a.height, frame.height, "\(name): size", sourceLocation: sourceLocation)
      expectEqual(a.width, b.width, "\(name): samples", sourceLocation: sourceLocation)
      expectEqual(a.height, b.height, "\(name): samples", sourceLocation: sourceLocation)
      expectEqual(a.rgba, b.rgba, "\(name): samples", sourceLocation: sourceLocation)
    }
    // Cairo's reader too (it reads to IEND and checks every CRC on the way), premultiplied.
    let c = try Frame(pngAt: fast)
    let d = try Frame(pngAt: old)
    expectEqual(c.packedPixels, d.packedPixels, "\(name): Cairo decodes both alike", sourceLocation: sourceLocation)
    let wrongCRCs = Self.chunks(bytes).filter { !$0.crcIsRight }.map(\.type)
    #expect(wrongCRCs.isEmpty, "\(name): chunk CRCs", sourceLocation: sourceLocation)
    return bytes
  }

  /// The chunks of a PNG file, in order: type and whether the stored CRC-32 is right.
  static func chunks(_ bytes: [UInt8]) -> [(type: String, crcIsRight: Bool)] {
    var chunks: [(type: String, crcIsRight: Bool)] = []
    var at = 8
    while at + 12 <= bytes.count {
      let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
      guard at + 12 + length <= bytes.count else { break }
      let stored = bytes[at + 8 + length..<at + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      chunks.append(
        (
          String(decoding: bytes[at + 4..<at + 8], as: UTF8.self),
          crc32(bytes[at + 4..<at + 8 + length]) == stored
        ))
      at += 12 + length
    }
    return chunks
  }

  static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  /// CRC-32 (ISO 3309, as PNG uses it).
  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return ~crc
  }

  /// A frame whose pixel (x, y) is `pixel(x, y)` (premultiplied BGRA), rows padded by `pad` bytes.
  static func frame(_ width: Int, _ height: Int, pad: Int = 0, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8))
    -> Frame
  {
    let stride = width * 4 + pad
    var pixels = [UInt8](repeating: 0xEE, count: stride * height)
    for y in 0..<height {
      for x in 0..<width {
        let (b, g, r, a) = pixel(x, y)
        pixels[y * stride + 4 * x] = b
        pixels[y * stride + 4 * x + 1] = g
        pixels[y * stride + 4 * x + 2] = r
        pixels[y * stride + 4 * x + 3] = a
      }
    }
    return Frame(width: width, height: height, bytesPerRow: stride, pixels: pixels)
  }

  /// A premultiplied pixel from straight values.
  static func premultiplied(_ r: Int, _ g: Int, _ b: Int, _ a: Int) -> (UInt8, UInt8, UInt8, UInt8) {
    func p(_ c: Int) -> UInt8 { UInt8((c * a + 127) / 255) }
    return (p(b), p(g), p(r), UInt8(a))
  }

  /// FNV-1a, 64 bits.
  static func fingerprint(_ data: Data) -> UInt64 {
    data.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
  }

  /// What rendered frames hold, mixed: flat bands, short repeats, noise, runs of 16 pixels and
  /// (with `alpha`) a translucent ramp; 300×200 spans two deflate blocks of RGB, three of RGBA.
  static func mixture(alpha: Bool) -> Frame {
    var random = SeededGenerator(seed: 31)
    let noise = (0..<(300 * 200)).map { _ in UInt8.random(in: 0...255, using: &random) }
    return frame(300, 200) { x, y in
      let a: UInt8 = alpha ? UInt8(55 + (x * 200) / 299) : 255
      func p(_ c: UInt8) -> UInt8 { UInt8(Int(c) * Int(a) / 255) }
      switch (y / 25) % 4 {
      case 0: return (p(40), p(80), p(120), a)
      case 1: return (p(UInt8(x % 7 * 30)), p(UInt8(x % 5 * 40)), p(UInt8(y)), a)
      case 2:
        let n = noise[y * 300 + x]
        return (p(n), p(n &+ 1), p(n / 2), a)
      default: return (p(UInt8(x & 0xF0)), p(UInt8(x & 0xF0)), 0, a)
      }
    }
  }

  /// The encoder's bytes, pinned: a change to the token stream (a search that finds other
  /// matches, other Huffman codes) shows here even when the pixels decode the same. A change
  /// meant to alter the bytes re-pins them and says why.
  @Test(arguments: [1, 2]) func theBytesArePinned(threads: Int) throws {
    let opaque = try Self.mixture(alpha: false).pngData(threads: threads)
    let translucent = try Self.mixture(alpha: true).pngData(threads: threads)
    expectEqual(opaque.count, 46344)
    expectEqual(Self.fingerprint(opaque), 3_755_047_731_496_492_597)
    expectEqual(translucent.count, 63833)
    expectEqual(Self.fingerprint(translucent), 11_709_790_793_124_300_429)
  }

  @Test func everyAlphaOverEveryColour() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-fastpng")
    defer { try? FileManager.default.removeItem(at: dir) }
    // 256 × 256: alpha by row, colour by column (c ≤ a, premultiplied), blue a / 2.
    let ramp = Self.frame(256, 256) { c, a in (UInt8(min(c, a)), UInt8(min(255 - c, a)), UInt8(a / 2), UInt8(a)) }
    try Self.expectSameAsLibpng(ramp, in: dir, "ramp")
  }

  @Test func smallAndOddSizes() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-fastpng")
    defer { try? FileManager.default.removeItem(at: dir) }
    var random = SeededGenerator(seed: 18)
    for width in 1...17 {
      for height in [1, 2, 3, 5] {
        let pad = (width * height) % 3 * 4
        let noise = (0..<width * height).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
        let opaque = Self.frame(width, height, pad: pad) { x, y in
          let v = noise[y * width + x]
          return (UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), 255)
        }
        try Self.expectSameAsLibpng(opaque, in: dir, "opaque-\(width)x\(height)")
        let translucent = Self.frame(width, height, pad: pad) { x, y in
          let v = noise[y * width + x]
          return Self.premultiplied(Int(v & 255), Int(v >> 8 & 255), x * 255 / width, Int(v >> 24))
        }
        try Self.expectSameAsLibpng(translucent, in: dir, "translucent-\(width)x\(height)")
      }
    }
    try Self.expectSameAsLibpng(Self.frame(1, 1) { _, _ in (1, 2, 3, 255) }, in: dir, "1x1-opaque")
    try Self.expectSameAsLibpng(Self.frame(1, 1) { _, _ in (1, 2, 3, 4) }, in: dir, "1x1-translucent")
    try Self.expectSameAsLibpng(Self.frame(1, 1) { _, _ in (0, 0, 0, 0) }, in: dir, "1x1-clear")
  }

  @Test func flatGradientAndRunContent() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-fastpng")
    defer { try? FileManager.default.removeItem(at: dir) }
    let clear = try Self.expectSameAsLibpng(Frame(width: 301, height: 77), in: dir, "all-zero")
    expectEqual(clear[25], 6, "a clear frame is RGBA")
    let black = Self.frame(301, 77) { _, _ in (0, 0, 0, 255) }
    try expectEqual(Self.expectSameAsLibpng(black, in: dir, "black")[25], 2, "an opaque frame is RGB")
    let horizontal = Self.frame(640, 90) { x, y in (UInt8(x * 255 / 639), UInt8(y), 40, 255) }
    try Self.expectSameAsLibpng(horizontal, in: dir, "horizontal-gradient")
    let vertical = Self.frame(333, 200) { _, y in (30, UInt8(y * 255 / 199), UInt8(255 - y), 255) }
    try Self.expectSameAsLibpng(vertical, in: dir, "vertical-gradient")
    let translucentGradient = Self.frame(257, 64) { x, y in Self.premultiplied(200, x % 256, y * 4, x % 256) }
    try Self.expectSameAsLibpng(translucentGradient, in: dir, "translucent-gradient")
    // Runs longer than a deflate match (258) of one pixel, two alternating pixels and stripes.
    let runs = Self.frame(1000, 40) { x, y in
      switch y % 4 {
      case 0: (9, 9, 9, 255)
      case 1: x % 2 == 0 ? (1, 2, 3, 255) : (3, 2, 1, 255)
      case 2: x < 700 ? (200, 100, 50, 255) : (0, 0, 0, 255)
      default: (UInt8(x / 100), 0, 0, 255)
      }
    }
    try Self.expectSameAsLibpng(runs, in: dir, "runs")
  }

  /// Rows wider than 65,535 bytes, and noise whose compressed form needs several deflate blocks
  /// (128 KiB of filtered data each) and several IDAT chunks (256 KiB each).
  @Test func wideRowsAndSeveralBlocksAndChunks() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-fastpng")
    defer { try? FileManager.default.removeItem(at: dir) }
    var random = SeededGenerator(seed: 1805)
    let wide = Self.frame(20_000, 3) { x, y in Self.premultiplied(x % 256, x / 256 % 256, y * 80, (x + y) % 256) }
    try Self.expectSameAsLibpng(wide, in: dir, "wide-rgba")
    let wideOpaque = Self.frame(24_000, 2) { x, _ in (UInt8(x % 251), UInt8(x / 251 % 256), 7, 255) }
    try Self.expectSameAsLibpng(wideOpaque, in: dir, "wide-rgb")
    let noise = (0..<512 * 400).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
    let noisy = Self.frame(512, 400) { x, y in
      let v = noise[y * 512 + x]
      return (UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), 255)
    }
    let bytes = try Self.expectSameAsLibpng(noisy, in: dir, "noise")
    let types = Self.chunks(bytes).map(\.type)
    expectEqual(types.first, "IHDR")
    expectEqual(types.last, "IEND")
    expectGreaterOrEqual(types.filter { $0 == "IDAT" }.count, 2, "several IDAT chunks: \(types)")
    // The first deflate block (after the 2-byte zlib header of the first IDAT) is not the last.
    expectEqual(bytes[8 + 25 + 8 + 2] & 1, 0, "several deflate blocks")
    let noisyTranslucent = Self.frame(512, 400) { x, y in
      let v = noise[(y * 512 + x + 7) % noise.count]
      return Self.premultiplied(Int(v & 255), Int(v >> 8 & 255), Int(v >> 16 & 255), Int(v >> 24))
    }
    try Self.expectSameAsLibpng(noisyTranslucent, in: dir, "noise-rgba")
  }

  /// Seeded mixtures of runs, noise and copies of earlier bytes at distances up to 40,000 (the
  /// encoder's hash matches, near block ends and across rows), opaque and translucent.
  @Test func seededMixtures() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-fastpng")
    defer { try? FileManager.default.removeItem(at: dir) }
    var random = SeededGenerator(seed: 0x5EED_F1C4)
    for n in 0..<12 {
      let width = Int.random(in: 1...400, using: &random)
      let height = Int.random(in: 1...300, using: &random)
      let rowBytes = width * 4 + 4 * Int.random(in: 0...2, using: &random)
      let frame = PNGMixture.frame(
        width: width, height: height, bytesPerRow: rowBytes, longestPiece: 600, translucent: n % 3 == 0,
        using: &random)
      try Self.expectSameAsLibpng(frame, in: dir, "mixture-\(n)-\(width)x\(height)")
    }
  }

  @Test func renderedFramesAndTheCairoWriter() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-fastpng")
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = CompositeScenes.cards()
    for n in stride(from: 0, to: scene.frameCount, by: max(1, scene.frameCount / 4)) {
      let frame = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: n)))
      try Self.expectSameAsLibpng(frame, in: dir, "cards-\(n)")
    }
    let layers = [
      Layer(
        id: "a", bounds: Rect(x: 0, y: 0, width: 30, height: 20), position: Point(x: 20, y: 15), opacity: 0.4,
        backgroundColor: Raster.red, cornerRadius: 6)
    ]
    let clear = try Raster.render(layers, width: 41, height: 33, background: .clear)
    try Self.expectSameAsLibpng(clear, in: dir, "translucent-render")
    #expect(try TestDirectoryListing.hidden(dir).isEmpty, "no temporary files left")
  }

  /// `flick still` of bundled templates writes the samples the libpng writer stores for the same
  /// frame rendered here.
  @Test(arguments: [("card-swap", 45), ("spring-gallery", 60)])
  func bundledTemplateThroughFlickStill(_ name: String, _ frameNumber: Int) throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-fastpng")
    defer { try? FileManager.default.removeItem(at: dir) }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let template = root.appendingPathComponent("Templates/\(name).json5").path
    let still = dir.appendingPathComponent("still.png").path
    let run = try ProcessRunner.run(
      ProcessRunner.flick(root: root),
      ["still", template, "--frame", "\(frameNumber)", "-q", "-o", still])
    expectEqual(run.status, 0, "flick still: \(run.stderr)")
    let scene = try Template.load(path: template).scene
    let frame = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: frameNumber)))
    let reference = dir.appendingPathComponent("reference.png").path
    try frame.writePNGWithLibpng(to: reference)
    let a = try #require(try? PNGFile(path: still))
    let b = try #require(try? PNGFile(path: reference))
    expectEqual(a.width, b.width, "\(name) frame \(frameNumber)")
    expectEqual(a.height, b.height, "\(name) frame \(frameNumber)")
    expectEqual(a.rgba, b.rgba, "\(name) frame \(frameNumber)")
    let fast = try [UInt8](Data(contentsOf: URL(fileURLWithPath: still)))
    let old = try [UInt8](Data(contentsOf: URL(fileURLWithPath: reference)))
    expectEqual(fast[25], old[25], "colour type")
  }

  enum TestDirectoryListing {
    static func hidden(_ dir: URL) throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
    }
  }
}
