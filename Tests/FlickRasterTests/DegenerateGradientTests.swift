import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// A degenerate gradient (`endPoint` on `startPoint`, or a radial one with a radius of 0) fills
/// its bounds like any other, so the shadow, which takes an opaque gradient's alpha to be its
/// rounded bounds without drawing it, agrees with what is drawn: no hole where the layer draws
/// nothing. A radial gradient fills with its last colour, what it tends to as its radius shrinks,
/// so an `endPoint` animated out of `startPoint` grows smoothly.
@Suite struct DegenerateGradientTests {
  static func layer(
    _ kind: GradientContent.Kind, end: Point = Point(x: 0.5, y: 0.5), shadowRadius: Double = 0,
    cornerRadius: Double = 0, shadowOpacity: Double = 1
  ) -> Layer {
    Layer(
      id: "g", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 100, y: 100),
      cornerRadius: cornerRadius, shadowOpacity: shadowOpacity, shadowRadius: shadowRadius,
      shadowOffset: Point(x: 5, y: 5),
      content: .gradient(
        GradientContent(
          kind: kind, colors: [Raster.red, Raster.blue], startPoint: Point(x: 0.5, y: 0.5), endPoint: end)
      ))
  }

  @Test(arguments: GradientContent.Kind.allCases, [0.0, 8])
  func degenerateGradientFillsItsBoundsOverItsShadow(kind: GradientContent.Kind, shadowRadius: Double) throws {
    let shadowed = try Raster.render([Self.layer(kind, shadowRadius: shadowRadius)])
    let plain = try Raster.render([Self.layer(kind, shadowOpacity: 0)])
    // Inside the layer (50…149) the gradient covers its shadow: every pixel is the gradient's,
    // none the white of a hole cut into the shadow.
    var white = 0
    var differing = 0
    for y in 50..<150 {
      for x in 50..<150 {
        if shadowed.pixel(x, y, is: .white, tolerance: 8) { white += 1 }
        if shadowed.rgba(x: x, y: y) != plain.rgba(x: x, y: y) { differing += 1 }
      }
    }
    expectEqual(white, 0, "\(kind) shadowRadius \(shadowRadius): white pixels inside the layer")
    expectEqual(differing, 0, "\(kind) shadowRadius \(shadowRadius): pixels inside the layer that its shadow changed")
    // The shadow shows past the layer's bottom-right edges.
    #expect(shadowed.darkness(152, 100) > 0.3, "\(kind) shadowRadius \(shadowRadius)")
    #expect(shadowed.darkness(100, 152) > 0.3, "\(kind) shadowRadius \(shadowRadius)")
  }

  @Test func radialWithARadiusOfZeroFillsWithItsLastColour() throws {
    // Both radii 0, and each one alone (Core Animation's ellipse of width or height 0).
    for end in [Point(x: 0.5, y: 0.5), Point(x: 1, y: 0.5), Point(x: 0.5, y: 0)] {
      let frame = try Raster.render([Self.layer(.radial, end: end, shadowOpacity: 0)])
      for (x, y) in [(50, 50), (99, 99), (100, 100), (149, 100), (100, 149), (149, 149)] {
        #expect(frame.pixel(x, y, is: Raster.blue), "endPoint \(end) at \(x),\(y): \(frame.rgba(x: x, y: y))")
      }
    }
  }

  /// An endPoint growing out of startPoint: frame 0 (radius 0) and frame 1 (a small red centre)
  /// differ only around the centre, and the renderer that redraws only what changed (damage
  /// regions) gives every frame's bytes.
  @Test func radialGrowingOutOfItsCentreIsContinuous() throws {
    let path = Raster.fixtures.appendingPathComponent("degenerate/reveal.json5").path
    let scene = try Template.load(path: path).scene
    let trees = (0..<scene.frameCount).map { scene.renderTree(at: scene.time(ofFrame: $0)) }
    let first = try Renderer().render(trees[0])
    let second = try Renderer().render(trees[1])
    var changed = 0
    for y in 0..<first.height {
      for x in 0..<first.width {
        let (a, b) = (first.rgba(x: x, y: y), second.rgba(x: x, y: y))
        if max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))) > 64 { changed += 1 }
      }
    }
    // The layer is 10 000 pixels (a blank first frame changed them all); frame 1's red centre
    // a few hundred.
    expectLess(changed, 1000, "pixels that change by more than a quarter from frame 0 to frame 1")
    #expect(first.pixel(100, 100, is: Raster.blue), "frame 0 centre \(first.rgba(x: 100, y: 100))")
    let whole = FrameRenderer()
    whole.reusesPreviousFrame = false
    let damage = FrameRenderer(drawsInPlace: true)
    for (n, tree) in trees.enumerated() {
      let want = try whole.render(tree)
      let got = try damage.render(tree)
      #expect(SameBytes.equal(got.pixels, want.pixels), "frame \(n)")
    }
  }
}
