import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Testing

/// A ``FrameRenderer`` that draws in place (``FrameRenderer/drawsInPlace``, what each worker of
/// an MP4 render uses) draws every frame over the buffer of the frame it drew last: the bytes
/// of a whole render, no buffer copied or allocated while the caller drops each frame before the
/// next, and a frame the caller keeps is never written over. (`DamageTemplateTests` checks the
/// bytes on every frame of every bundled template.)
@Suite struct InPlaceFrameTests {
  /// The cards scene (everything moves: whole frames), a translucent card over a transparent
  /// background (the path that clears the pixels first) and a small shadowed dot crossing a
  /// still page (partial redraws).
  static func sequences() -> [[RenderTree]] {
    let scene = CompositeScenes.cards()
    var dot = Layer(
      id: "dot", bounds: Rect(x: 0, y: 0, width: 12, height: 12), position: Point(x: 20, y: 50),
      backgroundColor: Raster.hex("#DB2777"), cornerRadius: 6, shadowOpacity: 0.4, shadowRadius: 3)
    let dots = (0..<6).map { step in
      dot.position.x = 20 + 27.5 * Double(step)
      return Raster.tree([dot], width: 200, height: 100)
    }
    let cards = (0..<scene.frameCount).map { scene.renderTree(at: scene.time(ofFrame: $0)) }
    return [cards, FramePoolTests.transparentTrees(), dots]
  }

  @Test func framesDroppedInTurnAreDrawnIntoOneBuffer() throws {
    var partial = 0
    for trees in Self.sequences() {
      let renderer = FrameRenderer(drawsInPlace: true)
      var addresses: Set<UnsafeRawPointer> = []
      for (n, tree) in trees.enumerated() {
        let frame = try renderer.render(tree)
        expectEqual(frame, (try Renderer().render(tree)), "frame \(n)")
        frame.pixels.withUnsafeBytes { if let base = $0.baseAddress { addresses.insert(base) } }
      }
      expectEqual(addresses.count, 1, "every frame drawn over the same buffer, without a copy")
      partial += renderer.damageStatistics.partialFrames
    }
    expectGreaterOrEqual(partial, 5, "the dot's frames after the first are redrawn in part")
  }

  @Test func aFrameTheCallerKeepsIsNotWrittenOver() throws {
    for trees in Self.sequences() {
      let renderer = FrameRenderer(drawsInPlace: true)
      var kept: [Frame] = []
      for tree in trees { kept.append(try renderer.render(tree)) }
      // Every frame still holds its own pixels: each later frame was drawn into a copy.
      for (n, tree) in trees.enumerated() { expectEqual(kept[n], (try Renderer().render(tree)), "frame \(n)") }
      let addresses = Set(kept.compactMap { frame in frame.pixels.withUnsafeBytes { $0.baseAddress } })
      expectEqual(addresses.count, trees.count)
    }
  }

  @Test func aPoolIsNotUsedInPlace() throws {
    let trees = FramePoolTests.transparentTrees()
    let pool = FramePoolTests.dirtyPool(count: 200 * 100 * 4)
    let renderer = FrameRenderer(pool: pool, drawsInPlace: true)
    #expect(renderer.pool == nil)
    for tree in trees { try expectEqual(renderer.render(tree), (try Renderer().render(tree))) }
    expectEqual(pool.statistics.reused, 0)
    expectEqual(pool.statistics.allocated, 0)
  }

  /// A failed frame leaves nothing to draw over: the next frame is drawn whole, in a new buffer.
  @Test func aFailedFrameIsFollowedByAWholeFrame() throws {
    let trees = FramePoolTests.transparentTrees()
    let renderer = FrameRenderer(drawsInPlace: true)
    _ = try renderer.render(trees[0])
    let broken = Raster.tree([], width: 0, height: 100)
    #expect(throws: RasterError.self) { try renderer.render(broken) }
    try expectEqual(renderer.render(trees[1]), (try Renderer().render(trees[1])))
    expectEqual(renderer.damageStatistics.wholeFrames, 2)
  }
}
