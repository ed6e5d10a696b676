import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@Suite struct DeterminismTests {
  @Test func concurrentRendersInAnyOrderAreByteIdentical() async throws {
    let scene = CompositeScenes.cards()
    let times = (0..<8).map { Double($0) / 8 }
    var serial: [Frame] = []
    for t in times { serial.append(try Renderer().render(scene.renderTree(at: t))) }
    // Render every frame twice on concurrent tasks, in reverse and interleaved order.
    let frames = try await withThrowingTaskGroup(of: (Int, Frame).self) { group in
      for index in (times.indices.reversed() + times.indices) {
        let t = times[index]
        group.addTask { (index, try Renderer().render(scene.renderTree(at: t))) }
      }
      var out: [(Int, Frame)] = []
      for try await item in group { out.append(item) }
      return out
    }
    expectEqual(frames.count, 2 * times.count)
    for (index, frame) in frames {
      expectEqual(frame, serial[index], "frame \(index)")
    }
    // Consecutive frames really differ (the test would pass trivially on a static scene).
    expectNotEqual(serial[0], serial[1])
  }

  @Test func cachedFramesAreByteIdenticalToUncachedOnes() throws {
    let scene = CompositeScenes.cards()
    let cached = FrameRenderer()
    for n in 0..<scene.frameCount {
      let tree = scene.renderTree(at: scene.time(ofFrame: n))
      try expectEqual(cached.render(tree), Renderer().render(tree), "frame \(n)")
    }
    // The static background and the unchanged text were reused, not redrawn.
    let stats = cached.cacheStatistics
    expectGreaterOrEqual(stats.hits, scene.frameCount - 1)
    expectGreater(stats.misses, 0)
  }

  @Test func cachedRendererSurvivesJumpsBackAndForth() throws {
    let scene = CompositeScenes.cards()
    let cached = FrameRenderer()
    for n in [9, 0, 5, 5, 1, 9, 3] {
      let tree = scene.renderTree(at: scene.time(ofFrame: n))
      try expectEqual(cached.render(tree), Renderer().render(tree), "frame \(n)")
    }
  }

  @Test func shadowsThatOnlyMoveAreBlurredOnce() throws {
    var layer = Layer(
      id: "s", bounds: Rect(x: 0, y: 0, width: 60, height: 40), position: Point(x: 50, y: 50),
      backgroundColor: .white, cornerRadius: 8, shadowOpacity: 0.5, shadowRadius: 8, shadowOffset: Point(x: 0, y: 4))
    let renderer = FrameRenderer()
    for step in 0..<5 {
      layer.position.x = 50 + 13.25 * Double(step)
      let tree = Raster.tree([layer], width: 200, height: 100)
      try expectEqual(renderer.render(tree), Renderer().render(tree))
    }
    expectEqual(renderer.cacheStatistics, FrameRenderer.CacheStatistics(hits: 4, misses: 1))
  }

  /// A shadow cast by a layer's content (no opaque background) whose sublayer casts its own
  /// shadow: making the outer shadow draws the inner one, a lookup inside a lookup. This used
  /// to stop the process with an exclusivity violation (rotating-cover at `--scale 2`).
  @Test func shadowsInsideAShadowedLayerRenderWithTheCache() throws {
    let inner = Layer(
      id: "inner", bounds: Rect(x: 0, y: 0, width: 50, height: 30), position: Point(x: 40, y: 30),
      backgroundColor: Raster.hex("#7F5AF0"), cornerRadius: 6, shadowOpacity: 0.6, shadowRadius: 7,
      shadowOffset: Point(x: 0, y: 3))
    var outer = Layer(
      id: "outer", bounds: Rect(x: 0, y: 0, width: 80, height: 60), position: Point(x: 70, y: 50),
      shadowOpacity: 0.4, shadowRadius: 10, shadowOffset: Point(x: 0, y: 6))
    outer.sublayers = [inner]
    let renderer = FrameRenderer()
    for step in 0..<3 {
      outer.position.x = 70 + 9.5 * Double(step)
      let tree = Raster.tree([outer], width: 200, height: 120)
      try expectEqual(renderer.render(tree), Renderer().render(tree), "step \(step)")
    }
    expectGreater(renderer.cacheStatistics.hits, 0)
  }

  @Test func pixelAlignedGradientsPaintTheSameDirectlyAndThroughTheCache() throws {
    for kind in [GradientContent.Kind.axial, .radial] {
      for origin in [Point(x: 0, y: 0), Point(x: 31, y: 17)] {
        let g = Layer(
          id: "g", bounds: Rect(x: 0, y: 0, width: 157, height: 93), position: origin, anchorPoint: .zero,
          content: .gradient(
            GradientContent(
              kind: kind, colors: [Raster.hex("#0B1022"), Raster.hex("#7F5AF0"), Raster.hex("#2CB1BC")],
              locations: [0, 0.55, 1], startPoint: Point(x: 0.1, y: 0.2), endPoint: Point(x: 0.9, y: 1))))
        let tree = Raster.tree([g], width: 200, height: 120, background: .black)
        try expectEqual(FrameRenderer().render(tree), Renderer().render(tree), "\(kind) at \(origin)")
      }
    }
  }
}
