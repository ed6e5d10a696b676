import FlickExpectations
import FlickMotion
import FlickScene
import Foundation
import Testing

@testable import FlickStudio

/// The outline the studio draws around the selected layer follows the layer through 3D and
/// perspective, including a layer reaching the viewer's eye: then it outlines the part in front,
/// clipped at the eye as the renderer clips it (it used to give no outline at all).
@Suite struct LayerOutlineTests {
  /// A 960 × 540 panel filling the canvas, turned by `degrees` about its vertical centre under
  /// perspective distance `d`. Core Animation's model: the point `x` points right of the anchor
  /// at height `y` has homogeneous w `1 + x·sin θ / d` (behind the eye when ≤ 0) and appears at
  /// `(480, 270) + (x·cos θ, y) / w`.
  static func panel(degrees: Double, perspective d: Double) -> Layer {
    var panel = Layer(
      id: "panel", bounds: Rect(x: 0, y: 0, width: 960, height: 540), position: Point(x: 480, y: 270))
    panel.transform = LayerTransform(rotationY: degrees * .pi / 180, perspective: d)
    return panel
  }

  static let canvas = Size(width: 960, height: 540)

  @Test func aFlatLayerIsOutlinedByItsFourCorners() throws {
    var card = Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 60), position: Point(x: 200, y: 100))
    card.transform = LayerTransform(rotation: .pi / 2)
    let parent = Layer(
      id: "parent", bounds: Rect(x: 0, y: 0, width: 400, height: 300), position: Point(x: 300, y: 250),
      sublayers: [card])
    let outline = try #require(LayerHit.outline(of: "card", in: [parent], canvas: Self.canvas))
    // The parent's origin is at (100, 100); the card is turned a quarter clockwise about its
    // centre, (300, 200) on the canvas.
    let expected = [(330, 150), (330, 250), (270, 250), (270, 150)]
    expectEqual(outline.count, 4)
    for (p, e) in zip(outline, expected) {
      #expect(abs(p.x - Double(e.0)) < 1e-9 && abs(p.y - Double(e.1)) < 1e-9, "\(p) not \(e)")
    }
    #expect(LayerHit.outline(of: "none", in: [parent], canvas: Self.canvas) == nil)
  }

  @Test(arguments: [60.0, 70.0, 90.0, 110.0])
  func aLayerReachingTheEyeIsOutlinedInFrontOfIt(degrees: Double) throws {
    let d = 400.0
    let θ = degrees * .pi / 180
    // The left edge (x = −480) is behind the eye at these angles, the right edge in front.
    #expect(1 - 480 * sin(θ) / d <= 0)
    let outline = try #require(
      LayerHit.outline(of: "panel", in: [Self.panel(degrees: degrees, perspective: d)], canvas: Self.canvas))
    #expect(outline.count >= 3)
    for p in outline {
      #expect(p.x.isFinite && p.y.isFinite && p.x >= -960 - 1e-3 && p.x <= 1920 + 1e-3, "\(p)")
      #expect(p.y >= -540 - 1e-3 && p.y <= 1080 + 1e-3, "\(degrees)°: \(p) in \(outline)")
    }
    // The right edge's two corners, where the model puts them.
    let w = 1 + 480 * sin(θ) / d
    for y in [-270.0, 270] {
      let corner = Point(x: 480 + 480 * cos(θ) / w, y: 270 + y / w)
      #expect(
        outline.contains { abs($0.x - corner.x) < 1e-6 && abs($0.y - corner.y) < 1e-6 },
        "\(degrees)°: no vertex at \(corner) in \(outline)")
    }
  }
}
