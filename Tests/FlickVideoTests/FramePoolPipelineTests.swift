import FlickMotion
import FlickRaster
import FlickScene
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

@Suite struct FramePoolPipelineTests {
  /// A translucent card over a transparent background, so the straight-alpha copy differs from
  /// the premultiplied pixels.
  static let scene = TestSupport.movingScene(
    width: 48, height: 32, fps: 30, duration: 1, background: Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5))

  @Test(arguments: [1, 3]) func pooledPipelineMatchesUnpooledRendering(jobs: Int) throws {
    let scene = Self.scene
    let pool = FramePool(capacity: 2 * (jobs + 1) + 2)
    var pipeline = RenderPipeline(jobs: jobs)
    pipeline.pool = pool
    var delivered = 0
    try pipeline.run(
      frames: 0..<scene.frameCount, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) },
      layouts: .premultipliedAndStraight
    ) { prepared in
      let expected = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: prepared.index)))
      expectEqual(prepared.frame, expected, "frame \(prepared.index)")
      expectEqual(prepared.premultiplied, expected.pixels)
      expectEqual(prepared.straight, StraightAlpha.convert(expected.pixels))
      delivered += 1
    }
    expectEqual(delivered, scene.frameCount)
    let stats = pool.statistics
    // Pixels and straight copy for each frame: 2 buffers a frame, almost all of them reused.
    expectEqual(stats.reused + stats.allocated, 2 * scene.frameCount)
    expectLessOrEqual(stats.allocated, 2 * (jobs + 1) + 2, "allocations bounded by frames in flight, not video length")
    // A buffer goes back to the pool when its frame has been delivered; a thread that still
    // holds the frame for a moment (the scheduler decides) makes the next draw copy it once. A
    // pool that recycled buffers still in use would copy on most reuses.
    expectLessOrEqual(stats.copied * 10, max(stats.reused, 1), "recycled buffers are no longer referenced")
  }

  @Test func customRenderersDoNotUseThePool() throws {
    let scene = Self.scene
    let pool = FramePool(capacity: 4)
    var pipeline = RenderPipeline(jobs: 2) { scale in
      let renderer = Renderer(scale: scale)
      return { tree in try renderer.render(tree) }
    }
    pipeline.pool = pool
    try pipeline.run(
      frames: 0..<5, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) }, layouts: .premultiplied
    ) { _ in }
    expectEqual(pool.statistics, FramePool.Statistics())
  }

  @Test func pooledRenderSessionWritesTheSamePNGsAsAnUnpooledRender() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = Self.scene
    try RenderSession(
      scene: scene, outputs: [try OutputTarget(path: dir.path + "/pooled/")], pipeline: RenderPipeline(jobs: 2)
    ).run()
    let unpooled = RenderPipeline(jobs: 2) { scale in
      let renderer = FrameRenderer(scale: scale)
      return { tree in try renderer.render(tree) }
    }
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: dir.path + "/plain/")], pipeline: unpooled).run()
    let names = try TestSupport.contents(dir.appendingPathComponent("pooled"))
    expectEqual(names.count, scene.frameCount)
    expectEqual(names, (try TestSupport.contents(dir.appendingPathComponent("plain"))))
    for name in names {
      let a = try Data(contentsOf: dir.appendingPathComponent("pooled/" + name))
      let b = try Data(contentsOf: dir.appendingPathComponent("plain/" + name))
      expectEqual(a, b, "\(name)")
    }
  }
}
