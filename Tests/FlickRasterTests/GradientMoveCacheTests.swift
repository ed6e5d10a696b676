import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@testable import FlickRaster

/// A gradient's picture is keyed by the matrix it is drawn with relative to its whole-pixel
/// origin, so a layer that moves by whole device pixels copies its picture instead of repainting it.
@Suite struct GradientMoveCacheTests {
  static func trees() -> [RenderTree] {
    let c = Raster.hex
    return (0..<6).map { n in
      // Translucent, rounded and rotated-free: drawn into its own picture, never painted directly.
      let card = Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 90, height: 60), position: Point(x: 60.25 + 3 * Double(n), y: 50.5),
        cornerRadius: 12,
        content: .gradient(
          GradientContent(colors: [c("#F472B6CC"), c("#2563EB")], startPoint: .zero, endPoint: Point(x: 1, y: 1))))
      // Moves by half a pixel: a new picture every frame.
      let half = Layer(
        id: "half", bounds: Rect(x: 0, y: 0, width: 50, height: 40), position: Point(x: 150 + 0.5 * Double(n), y: 120),
        content: .gradient(
          GradientContent(colors: [c("#22C55E"), c("#0EA5E9")], startPoint: .zero, endPoint: Point(x: 1, y: 0))))
      return Raster.tree([card, half], width: 200, height: 160, background: c("#0F172A"))
    }
  }

  @Test(arguments: [1.0, 2.0])
  func wholePixelMovesReuseThePictureWithTheSameBytes(scale: Double) throws {
    let cached = FrameRenderer(scale: scale)
    for (n, tree) in Self.trees().enumerated() {
      try expectEqual(cached.render(tree), Renderer(scale: scale).render(tree), "frame \(n) at scale \(scale)")
    }
    // The moving card is kept from its second frame on and copied in the four after: hits.
    expectGreaterOrEqual(cached.cacheStatistics.hits, 4)
  }
}
