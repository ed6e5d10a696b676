import FlickExpectations
import FlickRaster
import Testing

@testable import FlickSnapshot

/// An exact comparison counts every pixel whose straight RGBA differs, including changes that
/// vanish when blended over pixelmatch's checkerboard (#3030CF where the background is 48, 48, 207).
@Suite struct ExactAlphaTests {
  static func image(_ words: [UInt32]) -> PNGImage {
    var image = PNGImage(frame: Frame(width: 8, height: 8))
    image.words = words
    return image
  }

  static func exactCount(_ a: [UInt32], _ b: [UInt32]) -> Int {
    ImageComparator(options: .exact).compare(image(a), image(b), goldenRenderer: nil, actualRenderer: nil)
      .differingPixels
  }

  @Test func anOpaquePixelAppearingOnTransparencyCountsAtEveryPosition() {
    let clear = [UInt32](repeating: 0, count: 64)
    for i in 0..<64 {
      var appeared = clear
      appeared[i] = 0xFF30_30CF  // opaque #3030CF
      expectEqual(Self.exactCount(clear, appeared), 1, "pixel \(i)")
    }
  }

  @Test func anAlphaChangeCountsAtEveryPositionWhateverTheColour() {
    let translucent = [UInt32](repeating: 0x8030_30CF, count: 64)  // #3030CF at alpha 128
    for i in 0..<64 {
      var opaque = translucent
      opaque[i] = 0xFA30_30CF  // alpha 250
      expectEqual(Self.exactCount(translucent, opaque), 1, "pixel \(i)")
    }
  }

  @Test func twoFullyTransparentPixelsAreEqualWhateverTheirRGB() {
    let clear = [UInt32](repeating: 0, count: 64)
    var tinted = clear
    for i in 0..<64 { tinted[i] = UInt32(i) << 16 | 0xFF }
    expectEqual(Self.exactCount(clear, tinted), 0)
  }
}
