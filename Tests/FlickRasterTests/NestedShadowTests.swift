import CCairo
import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@testable import FlickRaster

/// A layer's shadow cast by its content draws its subtree (the sublayers' own shadows included),
/// and the layer then draws that subtree again. Without a cache (`flick still`, `snapshot`,
/// `verify`) every level of nested shadows doubled the work: 2 s at 14 levels, 36 s at 18, the
/// frame timeout at 40. The painter keeps the frame's layer-shaped masks, as the render path's
/// cache does, so each is made once: the work grows with the depth, the pixels are the render
/// path's.
@Suite struct NestedShadowTests {
  /// `depth` layers of 64×64 points nested in each other, each with a shadow of `radius` cast
  /// by its content (no background: the shape is the subtree), around a small green leaf.
  static func nested(depth: Int, radius: Double = 3) -> RenderTree {
    var layer = Layer(
      id: "leaf", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 20, y: 30),
      backgroundColor: Raster.green)
    for level in 0..<depth {
      var parent = Layer(
        id: "p\(level)", bounds: Rect(x: 0, y: 0, width: 64, height: 64), position: Point(x: 32, y: 32),
        sublayers: [layer])
      parent.shadowOpacity = 0.5
      parent.shadowRadius = radius
      layer = parent
    }
    return Raster.tree([layer], width: 64, height: 64)
  }

  /// The shadow masks one uncached painter makes for `tree` at `scale`.
  static func masksMade(_ tree: RenderTree, scale: Double) throws -> Int {
    let text = TextContext(ownFontMap: false)
    let arena = PixelArena()
    let width = Int((tree.size.width * scale).rounded())
    let height = Int((tree.size.height * scale).rounded())
    var masks = 0
    _ = try FrameCanvas.draw(width: width, height: height, fill: tree.backgroundColor) { cr, _ throws(RasterError) in
      cairo_scale(cr, scale, scale)
      arena.beginFrame()
      defer { arena.endFrame() }
      let painter = LayerPainter(cache: nil, arena: arena, text: text, targetWidth: width, targetHeight: height)
      try painter.draw(tree.layers, in: cr)
      masks = painter.shadowStatistics.masks
    }
    return masks
  }

  /// Each nested layer's mask is made once per scale it is drawn at (its own, and the reduced
  /// scales of the soft masks above it): at most depth·(depth + 1)/2 masks, where doubling made
  /// 2^depth − 1 (4,095 at 12 levels).
  @Test(arguments: [(3.0, 1.0), (3.0, 2.0), (8.0, 1.0), (14.0, 1.5)])
  func nestedShadowMasksGrowWithTheDepthNotExponentially(radius: Double, scale: Double) throws {
    let depth = 12
    let masks = try Self.masksMade(Self.nested(depth: depth, radius: radius), scale: scale)
    #expect(masks >= depth, "every level has a shadow: \(masks)")
    #expect(masks <= depth * (depth + 1) / 2, "masks made: \(masks)")
  }

  /// Thirty levels draw (2³⁰ mask draws before) and the still's bytes are the render path's.
  @Test(arguments: [1.0, 2.0])
  func thirtyNestedShadowsDrawTheRenderPathsBytes(scale: Double) throws {
    let tree = Self.nested(depth: 30)
    let still = try Renderer(scale: scale).render(tree)
    let rendered = try FrameRenderer(scale: scale).render(tree)
    #expect(still.pixels == rendered.pixels)
    #expect(try Self.masksMade(tree, scale: scale) <= 30 * 31 / 2)
  }
}
