import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@testable import FlickSnapshot

/// A perceptual comparison still catches colours: a pixel that is not anti-aliasing counts when
/// its colour moves by more than ΔE_OK 0.02, whatever pixelmatch's threshold.
@Suite struct PerceptualColourTests {
  static func hex(_ text: String) -> Color {
    let v = Int(text, radix: 16)!
    return Color(
      red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255, blue: Double(v & 0xFF) / 255)
  }

  static func button(_ colour: String, x: Double = 40) -> Frame {
    var button = Layer(id: "button")
    button.bounds = Rect(x: 0, y: 0, width: 50, height: 20)
    button.position = Point(x: x, y: 20)
    button.backgroundColor = hex(colour)
    button.cornerRadius = 6
    let scene = Scene(
      size: Size(width: 80, height: 40), fps: 10, duration: 1, backgroundColor: .white, layers: [button])
    return try! Renderer().render(scene.renderTree(at: 0))
  }

  @Test func theRecolourIsAJustNoticeableDifferenceAndBelowPixelmatchsThreshold() {
    let a: UInt32 = 0xFF1D_4ED8, b: UInt32 = 0xFF25_63EB
    let delta = ColorDelta.deltaEOK(a, b, k: 0)
    expectGreater(delta, 0.05, "\(delta)")
    expectLess(delta, 0.07, "\(delta)")
    // pixelmatch's YIQ at its default threshold 0.1 does not see it.
    expectLess(abs(ColorDelta.yiq(a, b, k: 0)), 35215 * 0.01)
    // One level of one channel is far below the JND.
    expectLess(ColorDelta.deltaEOK(0xFF80_8080, 0xFF80_8180, k: 0), 0.005)
  }

  @Test func aFlatRecolourFailsAPerceptualComparison() {
    let r = ImageComparator(options: .perceptual).compare(Self.button("1D4ED8"), Self.button("2563EB"))
    #expect(!r.passed, "\(r.summary)")
    #expect(!r.exact, "\(r.summary)")
    expectGreater(r.perceptualPixels, 900, "\(r.summary)")
    #expect(r.summary.contains("ΔE_OK 0.02"), "\(r.summary)")
    // Without the colour check (pixelmatch alone) the same recolour passes: what the check adds.
    var lenient = ComparisonOptions.perceptual
    lenient.colorJND = 0
    #expect(ImageComparator(options: lenient).compare(Self.button("1D4ED8"), Self.button("2563EB")).passed)
  }

  @Test func aOneLevelChangeAndAnAntiAliasingShiftPassAndAreReported() {
    let golden = Self.button("1D4ED8")
    var nudged = golden
    nudged.pixels[20 * nudged.bytesPerRow + 40 * 4 + 1] &+= 1
    #expect(ImageComparator(options: .perceptual).compare(golden, nudged).passed)
    // A quarter-pixel move changes only the edges' anti-aliasing.
    let moved = ImageComparator(options: .perceptual).compare(golden, Self.button("1D4ED8", x: 40.25))
    #expect(moved.passed, "\(moved.summary)")
    expectGreater(moved.antiAliasedPixels, 0, "\(moved.summary)")
    #expect(moved.summary.contains("anti-aliased ignored"), "\(moved.summary)")
    // The ignored pixels are drawn (yellow) in the diff image.
    let diff = DiffRenderer.diffImage(expected: golden, comparison: moved)
    #expect(diff != nil)
  }
}
