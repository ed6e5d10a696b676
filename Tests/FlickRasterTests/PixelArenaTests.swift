import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@testable import FlickRaster

@Suite struct PixelArenaTests {
  @Test func reusedBlocksAreZeroedAgain() throws {
    let arena = PixelArena()
    arena.beginFrame()
    let block = try #require(arena.take(100_000))
    block.bytes.initializeMemory(as: UInt8.self, repeating: 0xA7, count: block.capacity)
    arena.give(block)
    let again = try #require(arena.take(90_000))
    #expect(again === block)
    let bytes = UnsafeBufferPointer(start: again.bytes.assumingMemoryBound(to: UInt8.self), count: 90_000)
    #expect(bytes.allSatisfy { $0 == 0 })
    expectEqual(arena.statistics.reused, 1)
    expectEqual(arena.statistics.allocated, 1)
    expectEqual(arena.statistics.released, 0)
  }

  @Test func aSurfaceThatGrowsALittleKeepsItsBlock() throws {
    let arena = PixelArena()
    var last: PixelArena.Block?
    for step in 0..<20 {
      arena.beginFrame()
      let block = try #require(arena.take(1_000_000 + 2_000 * step))
      if let last { #expect(block === last, "step \(step)") }
      last = block
      arena.give(block)
      arena.endFrame()
    }
    expectEqual(arena.statistics.allocated, 1)
  }

  @Test func aLargeBlockDoesNotServeASmallRequest() throws {
    let arena = PixelArena()
    arena.beginFrame()
    let large = try #require(arena.take(8_000_000))
    arena.give(large)
    let small = try #require(arena.take(100_000))
    #expect(small !== large)
    expectEqual(arena.statistics.allocated, 2)
  }

  @Test func anOutgrownBlockIsReleasedWhenItsSuccessorIsMade() throws {
    let arena = PixelArena()
    arena.beginFrame()
    let small = try #require(arena.take(1_000_000))
    arena.give(small)
    let large = try #require(arena.take(2_000_000))
    #expect(large !== small)
    expectEqual(arena.freeBytes, 0)
    expectEqual(arena.statistics.heldBytes, large.capacity)
  }

  @Test func blocksIdleForAFrameAreReleased() throws {
    let arena = PixelArena()
    arena.beginFrame()
    if let block = arena.take(500_000) { arena.give(block) }
    arena.endFrame()
    expectGreaterOrEqual(arena.freeBytes, 500_000)  // kept for the next frame
    arena.beginFrame()
    arena.endFrame()
    expectEqual(arena.freeBytes, 0)
    expectEqual(arena.statistics.released, 1)
  }

  @Test func sizeClassesArePagesAndWasteAtMostAnEighth() {
    for count in [1, 4096, 4097, 65_537, 1_000_000, 8_294_400, 33_554_433] {
      let size = PixelArena.sizeClass(count)
      expectGreaterOrEqual(size, count)
      expectEqual(size % 4096, 0)
      expectLessOrEqual(Double(size), Double(count) * 1.125 + 4096, "\(count) → \(size)")
    }
  }

  /// A card with a gradient, moving every frame (no picture can be reused), then standing still.
  static func movingGradientTrees(moving: Int, still: Int) -> [RenderTree] {
    var card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 120, height: 80), position: Point(x: 60, y: 60), cornerRadius: 14,
      content: .gradient(GradientContent(kind: .axial, colors: [Raster.hex("#7F5AF0"), Raster.hex("#2CB1BC")])))
    return (0..<(moving + still)).map { n in
      card.position.x = 60 + 3.7 * Double(min(n, moving - 1))
      card.bounds.size.width = 120 + Double(min(n, moving - 1))
      return Raster.tree([card], width: 320, height: 140)
    }
  }

  @Test func movingGradientsKeepNothingAndReuseOneBlock() throws {
    let renderer = FrameRenderer()
    for (n, tree) in Self.movingGradientTrees(moving: 30, still: 0).enumerated() {
      try expectEqual(renderer.render(tree), Renderer().render(tree), "frame \(n)")
    }
    expectEqual(renderer.cacheStatistics.hits, 0)
    // One intermediate per frame, drawn into memory an earlier frame used; a new block only when
    // the growing card outgrows its size class (4 KiB here).
    let stats = renderer.arena.statistics
    expectEqual(stats.allocated + stats.reused, 30)
    expectLessOrEqual(stats.allocated, 3)
    expectLessOrEqual(renderer.arena.freeBytes, 65_536)
  }

  @Test func aGradientThatStopsIsKeptFromItsSecondStillFrame() throws {
    // Counting gradient copies: frames that start from a kept prefix, or copy an unchanged
    // frame (damage regions), would not draw it at all.
    let renderer = FrameRenderer.wholeFrames()
    renderer.reusesStaticPrefix = false
    for (n, tree) in Self.movingGradientTrees(moving: 5, still: 5).enumerated() {
      try expectEqual(renderer.render(tree), Renderer().render(tree), "frame \(n)")
    }
    // Frames 0–4 move (5 misses). Frame 5 repeats frame 4's key and keeps it (a miss); frames
    // 6–9 copy the kept picture.
    expectEqual(renderer.cacheStatistics, FrameRenderer.CacheStatistics(hits: 4, misses: 6))
  }
}
