import FlickMotion
@testable import FlickRaster
import FlickExpectations
import FlickScene
import Foundation
import Testing

/// `contentsTint`: a `contents` picture drawn as a template image, its alpha filling the tint.
@Suite struct ContentsTintTests {
  static let tint = Color(red: 0x25 / 255.0, green: 0x63 / 255.0, blue: 0xEB / 255.0)

  /// The premultiplied BGRA bytes `tint` gives a pixel of coverage `alpha` (0…255).
  static func tinted(_ alpha: UInt8, _ tint: Color) -> [Int] {
    let a = Double(alpha) / 255
    return [tint.blue, tint.green, tint.red].map { Int(($0 * a * 255).rounded()) } + [Int(alpha)]
  }

  @Test(arguments: [1.0, 2.0, 3.0])
  func anSVGIsAMaskOfItsOwnVectorRenderingAtTheDeviceScale(scale: Double) throws {
    var layer = SvgTests.iconLayer()
    layer.contents?.tint = Self.tint
    let tree = Raster.tree([layer], width: 48, height: 48, background: .clear)
    let frame = try Renderer(scale: scale).render(tree)
    let cached = try FrameRenderer(scale: scale).render(tree)
    expectEqual(frame.packedPixels, cached.packedPixels)
    // librsvg's own rendering at this scale gives the coverage; the tint fills it.
    let reference = try SvgTests.librsvg(SvgTests.fixture("icon.svg"), width: 48, height: 48, scale: scale)
    let pixels = frame.packedPixels
    expectEqual(pixels.count, reference.count)
    var worst = 0
    var partial = 0
    for p in stride(from: 0, to: min(pixels.count, reference.count), by: 4) {
      let alpha = reference[p + 3]
      expectEqual(pixels[p + 3], alpha)
      if alpha > 0 && alpha < 255 { partial += 1 }
      let expected = Self.tinted(alpha, Self.tint)
      for c in 0..<3 { worst = max(worst, abs(Int(pixels[p + c]) - expected[c])) }
    }
    expectLessOrEqual(worst, 1, "scale \(scale): a colour channel is \(worst) levels off the tinted coverage")
    // Crisp: the antialiased rim is as thin in device pixels at every scale (about the
    // circle's circumference in pixels), not an enlargement of the 1× mask.
    expectGreater(partial, 0, "scale \(scale): \(partial) partly covered pixels")
    expectLess(Double(partial), 2.5 * 2 * .pi * 22 * scale, "scale \(scale): \(partial) partly covered pixels")
    // The icon's own white strokes are gone: every opaque pixel is the tint.
    let centre = frame.rgba(x: Int(12 * scale), y: Int(24 * scale))
    expectEqual(centre.a, 255)
    expectEqual(centre.r, 0x25)
    expectEqual(centre.g, 0x63)
    expectEqual(centre.b, 0xEB)
  }

  @Test func aBitmapIsTintedByItsAlphaAndTheTintsAlphaMultiplies() throws {
    var layer = Layer(id: "png")
    layer.bounds = Rect(x: 0, y: 0, width: 16, height: 16)
    layer.position = Point(x: 8, y: 8)
    layer.contents = LayerImage(path: Raster.fixtures.appendingPathComponent("green-blue-16.png").path, tint: Self.tint)
    let frame = try Raster.render([layer], width: 16, height: 16, background: .clear)
    // The fixture's left half is opaque green, its right half blue at alpha 128.
    for (x, y) in [(2, 2), (5, 13)] {
      let p = frame.rgba(x: x, y: y)
      expectEqual(p.a, 255, "(\(x), \(y)): \(p)")
      expectEqual(p.r, 0x25, "(\(x), \(y)): \(p)")
      expectEqual(p.g, 0x63, "(\(x), \(y)): \(p)")
      expectEqual(p.b, 0xEB, "(\(x), \(y)): \(p)")
    }
    let right = frame.rgba(x: 13, y: 8)
    expectEqual(right.a, 128, "\(right)")
    expectLessOrEqual(abs(Int(right.r) - 0x25), 2, "\(right)")
    expectLessOrEqual(abs(Int(right.g) - 0x63), 2, "\(right)")
    expectLessOrEqual(abs(Int(right.b) - 0xEB), 2, "\(right)")
    var faint = Self.tint
    faint.alpha = 0.5
    layer.contents?.tint = faint
    let half = try Raster.render([layer], width: 16, height: 16, background: .clear)
    expectLessOrEqual(abs(Int(half.rgba(x: 2, y: 8).a) - 128), 1)
    expectLessOrEqual(abs(Int(half.rgba(x: 13, y: 8).a) - 64), 1)
    layer.contents?.tint = .clear
    let none = try Raster.render([layer], width: 16, height: 16, background: .clear)
    #expect(none.inkBounds(background: .clear) == nil)
  }

  @Test func theTintFollowsContentsGravityAndTheLayersTransform() throws {
    var layer = SvgTests.iconLayer(size: Size(width: 144, height: 48), gravity: .resizeAspect)
    layer.contents?.tint = Self.tint
    let frame = try Raster.render([layer], width: 144, height: 48, background: .clear)
    let ink = try #require(frame.inkBounds(background: .clear))
    expectGreaterOrEqual(ink.minX, 48)
    expectLess(ink.maxX, 96)
    layer.transform.scale = Point(x: 2, y: 2)
    let scaled = try Raster.render([layer], width: 144, height: 48, background: .clear)
    let wide = try #require(scaled.inkBounds(background: .clear))
    expectLess(wide.minX, 40)
    expectGreater(wide.maxX, 104)  // 96 wide around the centre, clipped by the frame's height
  }
}
