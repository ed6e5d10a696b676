import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@testable import FlickSnapshot

/// The comparator on crafted pairs of images.
@Suite struct ImageComparatorTests {
  /// An opaque frame of one colour (straight RGB bytes).
  static func solid(_ w: Int, _ h: Int, r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) -> Frame {
    var f = Frame(width: w, height: h)
    for i in 0..<(w * h) { set(&f, i % w, i / w, r: r, g: g, b: b, a: a) }
    return f
  }

  /// Sets a pixel from straight RGBA (stored premultiplied).
  static func set(_ f: inout Frame, _ x: Int, _ y: Int, r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    let i = y * f.bytesPerRow + x * 4
    func pm(_ c: UInt8) -> UInt8 { UInt8((Int(c) * Int(a) + 127) / 255) }
    f.pixels[i] = pm(b)
    f.pixels[i + 1] = pm(g)
    f.pixels[i + 2] = pm(r)
    f.pixels[i + 3] = a
  }

  /// A white card on a dark canvas at a fractional x, so its left and right edges are anti-aliased.
  static func card(atX x: Double) throws -> Frame {
    var card = Layer(id: "card")
    card.bounds = Rect(x: 0, y: 0, width: 20, height: 16)
    card.position = Point(x: x + 10, y: 16)
    card.backgroundColor = Color(red: 1, green: 1, blue: 1)
    let scene = Scene(
      size: Size(width: 48, height: 32), duration: 1, backgroundColor: Color(red: 0.1, green: 0.1, blue: 0.2),
      layers: [card])
    return try Renderer().render(scene.renderTree(at: 0))
  }

  @Test func identicalFramesTakeTheFastPath() {
    let a = Self.solid(16, 8, r: 10, g: 20, b: 30)
    let r = ImageComparator(options: .perceptual).compare(a, a)
    expectEqual(r.verdict, .identicalPixels)
    #expect(r.passed)
    expectEqual(r.differingPixels, 0)
    #expect(r.pixelClasses.isEmpty)
  }

  @Test func oneChangedPixelFailsAndIsLocated() {
    let a = Self.solid(16, 8, r: 10, g: 20, b: 30)
    var b = a
    Self.set(&b, 5, 3, r: 250, g: 20, b: 30)
    let r = ImageComparator(options: .perceptual).compare(a, b)
    expectEqual(r.verdict, .different)
    #expect(!r.passed)
    expectEqual(r.differingPixels, 1)
    expectEqual(r.antiAliasedPixels, 0)
    expectEqual(r.boundingBox, PixelRegion(x: 5, y: 3, width: 1, height: 1))
    #expect(r.summary.contains("1 pixel differs"))
    #expect(r.summary.contains("1×1 at (5, 3)"))
    // A budget of one pixel lets it through.
    expectEqual(
      ImageComparator(options: ComparisonOptions(mode: .perceptual, maxDiffPixels: 1)).compare(a, b).verdict,
      .withinTolerance)
  }

  @Test func smallChangeBelowTheThresholdIsSimilar() {
    let a = Self.solid(8, 8, r: 100, g: 100, b: 100)
    var b = a
    Self.set(&b, 2, 2, r: 104, g: 100, b: 100)
    let r = ImageComparator(options: .perceptual).compare(a, b)
    expectEqual(r.verdict, .withinTolerance)
    expectEqual(r.differingPixels, 0)
    expectEqual(r.pixelClasses[2 * 8 + 2], ImageComparison.PixelClass.similar.rawValue)
    // The exact options count it.
    expectEqual(ImageComparator(options: .exact).compare(a, b).differingPixels, 1)
  }

  @Test func shiftedEdgeIsOnlyAntiAliasing() throws {
    let a = try Self.card(atX: 10.25)
    let b = try Self.card(atX: 10.75)
    let r = ImageComparator(options: .perceptual).compare(a, b)
    expectEqual(r.verdict, .withinTolerance, "\(r.summary)")
    expectGreaterOrEqual(r.antiAliasedPixels, 16)
    expectEqual(r.differingPixels, 0)
    // Counting anti-aliasing (--aa) makes the same pair fail.
    let strict = ImageComparator(options: ComparisonOptions(mode: .perceptual, includeAntiAliasing: true)).compare(a, b)
    expectEqual(strict.verdict, .different)
    expectEqual(strict.differingPixels, r.antiAliasedPixels)
  }

  @Test func colourChangeAtSimilarLumaIsDetected() {
    // Y = 129.9 and 132.2: nearly the same brightness, clearly different hue.
    let a = Self.solid(24, 24, r: 200, g: 100, b: 100)
    var b = a
    for y in 4..<14 { for x in 6..<16 { Self.set(&b, x, y, r: 100, g: 150, b: 125) } }
    for metric in ColorMetric.allCases {
      let r = ImageComparator(options: ComparisonOptions(mode: .perceptual, metric: metric)).compare(a, b)
      expectEqual(r.verdict, .different, "\(metric)")
      expectEqual(r.differingPixels, 100, "\(metric)")
      expectEqual(r.boundingBox, PixelRegion(x: 6, y: 4, width: 10, height: 10), "\(metric)")
    }
  }

  @Test func alphaDifferencesAreSeenAndTransparentPixelsMatch() {
    let clear = Frame(width: 8, height: 8)
    // Opaque white over nothing: pixelmatch's checkerboard shows it (blending with white would not).
    var white = clear
    Self.set(&white, 1, 1, r: 255, g: 255, b: 255)
    expectEqual(ImageComparator(options: .perceptual).compare(clear, white).differingPixels, 1)
    // Half-transparent red against fully transparent.
    var half = clear
    Self.set(&half, 2, 2, r: 255, g: 0, b: 0, a: 128)
    expectEqual(ImageComparator(options: .perceptual).compare(clear, half).differingPixels, 1)
    // Same colour, alpha 255 vs 128.
    let opaque = Self.solid(8, 8, r: 30, g: 60, b: 200)
    let translucent = Self.solid(8, 8, r: 30, g: 60, b: 200, a: 128)
    // Blended over pixelmatch's checkerboard, half the pixels land on a background close to the
    // colour itself; the others differ clearly.
    expectGreaterOrEqual(ImageComparator(options: .perceptual).compare(opaque, translucent).differingPixels, 16)
    for metric in ColorMetric.allCases {
      let r = ImageComparator(options: ComparisonOptions(mode: .perceptual, metric: metric)).compare(
        opaque, translucent)
      expectEqual(r.verdict, .different, "\(metric)")
    }
  }

  @Test func wideShortFramesSplitIntoBandsSafely() {
    // 140000 × 2 pixels: large enough for parallel bands, fewer rows than bands.
    let a = Self.solid(140_000, 2, r: 0, g: 0, b: 0)
    var b = a
    Self.set(&b, 139_999, 1, r: 255, g: 255, b: 255)
    let r = ImageComparator(options: .perceptual).compare(a, b)
    expectEqual(r.differingPixels, 1)
    expectEqual(r.boundingBox, PixelRegion(x: 139_999, y: 1, width: 1, height: 1))
  }

  @Test func sizeMismatchFailsAtOnceNamingBothSizes() {
    let r = ImageComparator(options: .perceptual).compare(Frame(width: 4, height: 3), Frame(width: 3, height: 4))
    expectEqual(r.verdict, .sizeMismatch)
    #expect(!r.passed)
    expectEqual(r.summary, "size mismatch: expected 4×3, actual 3×4")
  }

  @Test func budgetTakesTheSmallerOfCountAndRatio() {
    expectEqual(ComparisonOptions().budget(pixelCount: 1000), 0)
    expectEqual(ComparisonOptions(mode: .perceptual, maxDiffPixels: 50).budget(pixelCount: 1000), 50)
    expectEqual(ComparisonOptions(mode: .perceptual, maxDiffRatio: 0.01).budget(pixelCount: 1000), 10)
    expectEqual(ComparisonOptions(mode: .perceptual, maxDiffPixels: 5, maxDiffRatio: 0.01).budget(pixelCount: 1000), 5)
    expectEqual(
      ComparisonOptions(mode: .perceptual, maxDiffPixels: 50, maxDiffRatio: 0.01).budget(pixelCount: 1000), 10)
  }

  @Test func scatteredSpecklePassesButACompactChangeOfTheSameSizeFails() {
    let a = Self.solid(64, 64, r: 40, g: 40, b: 40)
    let options = ComparisonOptions(mode: .perceptual, maxDiffPixels: 40)
    // 36 isolated pixels on a 10-pixel grid.
    var speckle = a
    for y in stride(from: 2, to: 62, by: 10) {
      for x in stride(from: 3, to: 63, by: 10) {
        Self.set(&speckle, x, y, r: 200, g: 200, b: 200)
      }
    }
    let scattered = ImageComparator(options: options).compare(a, speckle)
    expectEqual(scattered.differingPixels, 36, "\(scattered.summary)")
    expectEqual(scattered.verdict, .withinTolerance, "\(scattered.summary)")
    // The same count as a 6 × 6 block.
    var block = a
    for y in 20..<26 { for x in 30..<36 { Self.set(&block, x, y, r: 200, g: 200, b: 200) } }
    let compact = ImageComparator(options: options).compare(a, block)
    expectEqual(compact.differingPixels, 36)
    expectEqual(compact.verdict, .different)
    #expect(compact.failedOnDensity)
    expectEqual(compact.densestWindowCount, 36)
    #expect(compact.summary.contains("too dense"))
  }

  @Test func yiqMatchesPixelmatchNumbers() {
    // Black to white is pure luma: 0.5053 × 255²; a lighter second pixel gives a positive sign.
    let black: UInt32 = 0xFF00_0000, white: UInt32 = 0xFFFF_FFFF
    expectLess(abs(ColorDelta.yiq(black, white, k: 0) - 0.5053 * 255 * 255), 0.01)
    // The largest distance of all (pixelmatch's 35215) is between saturated complementary colours.
    let red: UInt32 = 0xFFFF_0000, cyan: UInt32 = 0xFF00_FFFF
    expectLessOrEqual(ColorDelta.yiq(red, cyan, k: 0), 35215)
    expectLess(ColorDelta.yiq(white, black, k: 0), 0)
    // OKLab HyAB: black to white is 1.
    expectLess(abs(abs(ColorDelta.hyab(black, white, k: 0)) - 1), 1e-3)
    // The checkerboard background channels are 48 or 207.
    for k in stride(from: 0, to: 400, by: 4) {
      let bg = ColorDelta.background(k)
      #expect([48.0, 207.0].contains(bg.g))
      #expect([48.0, 207.0].contains(bg.b))
      expectEqual(bg.r, 48)
    }
  }

  @Test func corruptOrMissingFilesNeverPass() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-cmp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = dir.appendingPathComponent("good.png").path
    try Self.solid(8, 8, r: 1, g: 2, b: 3).writePNG(to: good)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: good)))
    bytes[bytes.count / 2] ^= 0x5A
    let corrupt = dir.appendingPathComponent("corrupt.png").path
    try Data(bytes).write(to: URL(fileURLWithPath: corrupt))
    let comparator = ImageComparator(options: .perceptual)
    #expect(throws: SnapshotError.self) { try comparator.compareFiles(expected: good, actual: corrupt) }
    // Identical bytes do not excuse a corrupt file.
    #expect(throws: SnapshotError.self) { try comparator.compareFiles(expected: corrupt, actual: corrupt) }
    #expect(throws: SnapshotError.self) { try comparator.compareFiles(expected: good, actual: dir.path + "/none.png") }
    // A truncated file.
    let truncated = dir.appendingPathComponent("truncated.png").path
    try Data(bytes.prefix(bytes.count - 20)).write(to: URL(fileURLWithPath: truncated))
    #expect(throws: SnapshotError.self) { try comparator.compareFiles(expected: good, actual: truncated) }
    // And the good file matches itself through the byte fast path.
    try expectEqual(comparator.compareFiles(expected: good, actual: good).verdict, .identicalBytes)
  }
}

@Suite struct ComparatorSelfTestTests {
  @Test func selfTestPassesForEveryMetric() {
    for metric in ColorMetric.allCases {
      #expect(ImageComparator(options: ComparisonOptions(mode: .perceptual, metric: metric)).selfTestFailure() == nil)
    }
  }
}
