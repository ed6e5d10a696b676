import FlickExpectations
import FlickRaster
import FlickSnapshot
import Testing

@Suite struct PixelDifferenceTests {
  @Test func countsChangedPixelsAndBoundsThem() throws {
    let a = Frame(width: 8, height: 6)
    var b = a
    b.pixels[(2 * 8 + 3) * 4] = 255
    b.pixels[(4 * 8 + 5) * 4 + 3] = 1
    let same = try #require(PixelDifference(a, a))
    expectEqual(same.differingPixels, 0)
    #expect(same.boundingBox == nil)
    let d = try #require(PixelDifference(a, b))
    expectEqual(d.differingPixels, 2)
    expectEqual(d.boundingBox, PixelRegion(x: 3, y: 2, width: 3, height: 3))
  }

  @Test func differentSizesDoNotCompare() {
    #expect(PixelDifference(Frame(width: 2, height: 2), Frame(width: 3, height: 2)) == nil)
  }
}
