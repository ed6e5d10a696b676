import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Testing

@Suite struct FramePoolTests {
  /// A pool holding one buffer of `count` bytes of garbage, so a renderer that skipped clearing
  /// or painting any pixel would show it.
  static func dirtyPool(count: Int, capacity: Int = 2) -> FramePool {
    let pool = FramePool(capacity: capacity)
    pool.recycle([UInt8](repeating: 0xA7, count: count))
    return pool
  }

  /// Frames of a translucent shadowed card moving over a transparent background (the path that
  /// clears the buffer first).
  static func transparentTrees() -> [RenderTree] {
    var layer = Layer(
      id: "s", bounds: Rect(x: 0, y: 0, width: 60, height: 40), position: Point(x: 50, y: 50), opacity: 0.8,
      backgroundColor: .white, cornerRadius: 8, shadowOpacity: 0.5, shadowRadius: 8, shadowOffset: Point(x: 0, y: 4))
    return (0..<5).map { step in
      layer.position.x = 50 + 13.25 * Double(step)
      return Raster.tree([layer], width: 200, height: 100, background: Color(red: 0, green: 0, blue: 0, alpha: 0))
    }
  }

  @Test func pooledFramesAreByteIdenticalToUnpooledOnes() throws {
    let scene = CompositeScenes.cards()
    let opaque = (0..<scene.frameCount).map { scene.renderTree(at: scene.time(ofFrame: $0)) }
    for trees in [opaque, Self.transparentTrees()] {
      let size = trees[0].size
      let pool = Self.dirtyPool(count: Int(size.width) * Int(size.height) * 4)
      let pooled = FrameRenderer(pool: pool)
      for (n, tree) in trees.enumerated() {
        let frame = try pooled.render(tree)
        expectEqual(frame, (try Renderer().render(tree)), "frame \(n)")
        pool.recycle(frame.pixels)
      }
      let stats = pool.statistics
      expectEqual(stats.reused, trees.count)
      expectEqual(stats.allocated, 0)
      expectEqual(stats.copied, 0)
    }
  }

  @Test func buffersAreReusedWithoutCopies() throws {
    let pool = FramePool(capacity: 2)
    let renderer = FrameRenderer(pool: pool)
    var addresses: Set<UnsafeRawPointer> = []
    for tree in Self.transparentTrees() {
      let frame = try renderer.render(tree)
      frame.pixels.withUnsafeBytes { if let base = $0.baseAddress { addresses.insert(base) } }
      pool.recycle(frame.pixels)
    }
    expectEqual(addresses.count, 1, "every frame drawn into the same buffer")
    expectEqual(pool.statistics, FramePool.Statistics(reused: 4, allocated: 1, copied: 0, returned: 5, dropped: 0))
  }

  @Test func aBufferStillInUseIsCopiedNotOverwritten() throws {
    let trees = Self.transparentTrees()
    let pool = FramePool(capacity: 2)
    let renderer = FrameRenderer(pool: pool)
    let first = try renderer.render(trees[0])
    pool.recycle(first.pixels)  // too early: `first` still holds the array
    let second = try renderer.render(trees[4])
    expectEqual(first, (try Renderer().render(trees[0])))
    expectEqual(second, (try Renderer().render(trees[4])))
    expectEqual(pool.statistics.copied, 1)
  }

  @Test func poolIsBoundedAndDropsBuffersOfAnotherSize() {
    let pool = FramePool(capacity: 2)
    for _ in 0..<3 { pool.recycle([UInt8](repeating: 1, count: 16)) }
    expectEqual(pool.available, 2)
    expectEqual(pool.statistics.dropped, 1)
    #expect(pool.take(count: 32) == nil, "a new size releases the kept buffers")
    expectEqual(pool.available, 0)
    pool.recycle([UInt8](repeating: 2, count: 32))
    expectEqual(pool.take(count: 32), [UInt8](repeating: 2, count: 32))
    expectEqual(pool.statistics, FramePool.Statistics(reused: 1, allocated: 1, copied: 0, returned: 3, dropped: 1))
  }
}
