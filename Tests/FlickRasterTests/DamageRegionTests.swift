import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// A frame is redrawn only inside whole-pixel boxes around what differs from the worker's last
/// frame, and its bytes are those of a frame drawn whole.
@Suite struct DamageRegionTests {
  static let c = Raster.hex

  /// A frame drawn whole, for comparison.
  static func whole(_ tree: RenderTree, scale: Double) throws -> Frame {
    try Renderer(scale: scale).render(tree)
  }

  @Test(arguments: [1.0, 1.5, 0.37])
  func changingRunGivesTheBytesOfWholeFrames(scale: Double) throws {
    // Static layers that move, change colour, reorder, appear and vanish, a backdrop, hidden
    // layers, background changes (StaticPrefixTests.changingRun).
    let trees = StaticPrefixTests.changingRun()
    let renderer = FrameRenderer(scale: scale)
    for (n, tree) in trees.enumerated() {
      try expectEqual(renderer.render(tree).pixels, Self.whole(tree, scale: scale).pixels, "frame \(n) at \(scale)")
    }
    // A 200 × 150 canvas is small beside the margins: most frames are drawn whole here.
    expectGreaterOrEqual(renderer.damageStatistics.partialFrames, 1)
  }

  /// The layers of `StaticPrefixTests.base()` on a 400 × 300 canvas, with a mover below them.
  static func roomy(_ n: Int) -> RenderTree {
    var mover = StaticPrefixTests.mover(n)
    mover.position.y = 240
    return Raster.tree(StaticPrefixTests.base() + [mover], width: 400, height: 300, background: c("#0F172A"))
  }

  @Test func aMovingLayerRedrawsOnlyItsOldAndNewPlace() throws {
    let trees = (0..<8).map(Self.roomy)
    let renderer = FrameRenderer()
    for (n, tree) in trees.enumerated() {
      try expectEqual(renderer.render(tree), Self.whole(tree, scale: 1), "frame \(n)")
    }
    let stats = renderer.damageStatistics
    expectEqual(stats.wholeFrames, 1)
    expectEqual(stats.partialFrames, 7)
    // The mover is 24 px square and moves 7.37 px a frame: its two places with the margins
    // (22 pixels a side: blur tails and glyph overhang, as a group's ink).
    let perFrame = (stats.redrawnPixels - 400 * 300) / 7
    expectGreater(perFrame, 24 * 24)
    expectLess(perFrame, 76 * 69)
  }

  @Test func aSublayerChangeInsideAnUnchangedLayerRedrawsTheSublayerOnly() throws {
    func tree(_ n: Int) -> RenderTree {
      let dot = Layer(
        id: "dot", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 20 + Double(n), y: 30),
        backgroundColor: Self.c("#F43F5E"), cornerRadius: 5)
      // A translucent gradient card (a group; its gradient is a picture copied on whole pixels,
      // so a box may cut it).
      var card = Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 240, height: 160), position: Point(x: 200.5, y: 150.25),
        opacity: 0.8, cornerRadius: 12,
        content: .gradient(
          GradientContent(
            colors: [Self.c("#2563EB"), Self.c("#22C55E")], startPoint: .zero, endPoint: Point(x: 1, y: 1))))
      card.sublayers = [dot]
      return Raster.tree([card], width: 400, height: 300, background: Self.c("#0F172A"))
    }
    let renderer = FrameRenderer()
    for n in 0..<5 { try expectEqual(renderer.render(tree(n)), Self.whole(tree(n), scale: 1), "frame \(n)") }
    let stats = renderer.damageStatistics
    expectEqual(stats.partialFrames, 4)
    // The dot's two places with the margins, not the card (240 × 160 and more).
    expectLess((stats.redrawnPixels - 400 * 300) / 4, 60 * 60)
  }

  @Test func aShapeCutByTheDamageIsRedrawnWhole() throws {
    // The dot moves inside an opaque rounded panel: the panel's rounded rectangle would be cut
    // by the dot's box, so the whole panel is redrawn.
    func tree(_ n: Int) -> RenderTree {
      let dot = Layer(
        id: "dot", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 20 + Double(n), y: 30),
        backgroundColor: Self.c("#F43F5E"), cornerRadius: 5)
      let panel = Layer(
        id: "panel", bounds: Rect(x: 0, y: 0, width: 200, height: 120), position: Point(x: 150.5, y: 100.25),
        backgroundColor: Self.c("#1D4ED8"), cornerRadius: 18, sublayers: [dot])
      return Raster.tree([panel], width: 400, height: 300, background: Self.c("#0F172A"))
    }
    let renderer = FrameRenderer()
    for n in 0..<4 { try expectEqual(renderer.render(tree(n)), Self.whole(tree(n), scale: 1), "frame \(n)") }
    expectEqual(renderer.damageStatistics.partialFrames, 3)
    expectGreater((renderer.damageStatistics.redrawnPixels - 400 * 300) / 3, 200 * 120)
  }

  @Test func aShadowCastByContentRedrawsTheWholeLayer() throws {
    func tree(_ n: Int) -> RenderTree {
      let dot = Layer(
        id: "dot", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 20 + Double(n), y: 30),
        backgroundColor: Self.c("#F43F5E"))
      // No background: the shadow is the dot's, blurred.
      let holder = Layer(
        id: "holder", bounds: Rect(x: 0, y: 0, width: 120, height: 80), position: Point(x: 100, y: 75),
        shadowOpacity: 0.8, shadowRadius: 10, sublayers: [dot])
      return StaticPrefixTests.tree([holder])
    }
    let renderer = FrameRenderer()
    for n in 0..<4 { try expectEqual(renderer.render(tree(n)), Self.whole(tree(n), scale: 1), "frame \(n)") }
    // The holder's whole ink (the dot with the shadow's reach, 3σ + 2 = 32 a side) each time,
    // not the dot's place alone.
    expectGreater((renderer.damageStatistics.redrawnPixels - 200 * 150) / 3, 74 * 74)
  }

  @Test func aBackdropOrMotionBlurDrawsWholeFrames() throws {
    let frosted = { (n: Int) in
      Layer(
        id: "frosted", bounds: Rect(x: 0, y: 0, width: 90, height: 50), position: Point(x: 100, y: 75),
        cornerRadius: 8, backdrop: LayerBackdrop(.thin))
    }
    let renderer = FrameRenderer()
    for n in 0..<4 {
      let tree = StaticPrefixTests.tree(StaticPrefixTests.base() + [StaticPrefixTests.mover(n), frosted(n)])
      try expectEqual(renderer.render(tree), Self.whole(tree, scale: 1), "frame \(n)")
    }
    expectEqual(renderer.damageStatistics.partialFrames, 0)
    expectEqual(renderer.damageStatistics.wholeFrames, 4)
    // Motion blur: an average of samples, drawn whole; the next plain frame too.
    let blurred = FrameRenderer()
    for n in 0..<4 {
      var tree = Self.roomy(n)
      if n.isMultiple(of: 2) { tree.shutterSamples = [Self.roomy(n), Self.roomy(n + 1)] }
      try expectEqual(blurred.render(tree), Self.whole(tree, scale: 1), "blurred frame \(n)")
    }
    let expected = FrameDamageStatistics(partialFrames: 0, wholeFrames: 4, redrawnPixels: 4 * 400 * 300)
    expectEqual(blurred.damageStatistics, expected)
  }

  @Test func anUnchangedFrameIsACopy() throws {
    let tree = StaticPrefixTests.tree(StaticPrefixTests.base())
    let renderer = FrameRenderer()
    let first = try renderer.render(tree)
    try expectEqual(renderer.render(tree), first)
    expectEqual(renderer.damageStatistics.redrawnPixels, 200 * 150)
  }

  @Test func aFailedFrameLeavesNothingBehind() throws {
    let good = StaticPrefixTests.tree(StaticPrefixTests.base() + [StaticPrefixTests.mover(0)])
    var missing = StaticPrefixTests.mover(1)
    missing.contents = LayerImage(path: "/nonexistent/flick-damage-test.png")
    let bad = StaticPrefixTests.tree(StaticPrefixTests.base() + [missing])
    let renderer = FrameRenderer()
    _ = try renderer.render(good)
    #expect(throws: RasterError.self) { try renderer.render(bad) }
    let next = StaticPrefixTests.tree(StaticPrefixTests.base() + [StaticPrefixTests.mover(2)])
    try expectEqual(renderer.render(next), Self.whole(next, scale: 1))
    expectEqual(renderer.damageStatistics.wholeFrames, 2)
  }

  @Test func mergedBoxesAreFewDisjointAndCoverEveryInput() {
    var random = SeededGenerator(seed: 31)
    for _ in 0..<200 {
      let boxes = (0..<Int(random.next() % 12)).map { _ -> PixelBox in
        let x = Int(random.next() % 500)
        let y = Int(random.next() % 300)
        return PixelBox(x0: x, y0: y, x1: x + 1 + Int(random.next() % 120), y1: y + 1 + Int(random.next() % 90))
      }
      let merged = DamageFinder.merged(boxes)
      expectLessOrEqual(merged.count, DamageFinder.maximumBoxes)
      for (i, a) in merged.enumerated() {
        for b in merged.dropFirst(i + 1) { #expect(!a.touches(b)) }
      }
      for box in boxes {
        #expect(merged.contains { $0.x0 <= box.x0 && $0.y0 <= box.y0 && $0.x1 >= box.x1 && $0.y1 >= box.y1 })
      }
    }
  }
}
