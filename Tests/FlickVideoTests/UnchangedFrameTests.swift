import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// A frame whose tree draws the same as the previous one's is not rasterised again: its pixels
/// are the previous frame's, and every frame is byte-identical to a render that redraws them all.
@Suite struct UnchangedFrameTests {
  /// Every frame's packed premultiplied bytes (and its number) from `pipeline`.
  static func frames(_ scene: Scene, scale: Double, pipeline: RenderPipeline) throws -> [[UInt8]] {
    var frames: [[UInt8]] = []
    try pipeline.run(
      frames: 0..<scene.frameCount, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) }, scale: scale,
      layouts: .premultiplied
    ) { frame in
      expectEqual(frame.index, frames.count)
      frames.append(frame.premultiplied)
    }
    return frames
  }

  /// How many frames differ in their tree from the frame before (the first always counts).
  static func distinctTrees(_ scene: Scene) -> Int {
    var count = 0
    var previous: RenderTree?
    for n in 0..<scene.frameCount {
      let tree = scene.renderTree(at: scene.time(ofFrame: n))
      if previous.map({ !Renderer.drawsIdentically($0, tree) }) ?? true { count += 1 }
      previous = tree
    }
    return count
  }

  @Test(arguments: GIFOnePassTests.bundled)
  func bundledTemplatesRenderTheSameFramesWithAndWithoutReuse(_ name: String) throws {
    let scene = try Template.load(path: GIFOnePassTests.templates.appendingPathComponent("\(name).json5").path).scene
    let scale = 0.25
    var redrawing = RenderPipeline(jobs: 2)
    redrawing.reusesUnchangedFrames = false
    let reference = try Self.frames(scene, scale: scale, pipeline: redrawing)
    // The default pipeline (pooled buffers, reuse on).
    #expect(SameBytes.equal(try Self.frames(scene, scale: scale, pipeline: RenderPipeline(jobs: 2)), reference))
    // Counting what is drawn.
    let counter = Locked(0)
    var counting = RenderPipeline(jobs: 2)
    counting.makeRenderer = { scale in
      let renderer = FrameRenderer(scale: scale)
      return { tree in
        counter.withLock { $0 += 1 }
        return try renderer.render(tree)
      }
    }
    #expect(SameBytes.equal(try Self.frames(scene, scale: scale, pipeline: counting), reference))
    expectEqual(counter.withLock { $0 }, Self.distinctTrees(scene))
  }

  /// A slide, then a hold: only the moving frames and the first still one are drawn, and a PNG
  /// sequence still gets every file, the same as without reuse.
  @Test func aHoldIsDrawnOnce() throws {
    let card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 5, y: 12),
      backgroundColor: Color(red: 0.9, green: 0.4, blue: 0.1), cornerRadius: 3)
    let slide = LayerAnimation(
      layerID: "card", property: .position, beginTime: 0, duration: 0.5,
      value: { t in Point(x: 5 + 30 * min(t, 0.5) / 0.5, y: 12) })
    let scene = Scene(
      size: Size(width: 40, height: 24), fps: 10, duration: 1.5, backgroundColor: .white, layers: [card],
      animations: [slide])
    expectLess(Self.distinctTrees(scene), scene.frameCount)
    let counter = Locked(0)
    var counting = RenderPipeline(jobs: 2)
    counting.makeRenderer = { scale in
      { tree in
        counter.withLock { $0 += 1 }
        return try Renderer(scale: scale).render(tree)
      }
    }
    var redrawing = RenderPipeline(jobs: 2)
    redrawing.reusesUnchangedFrames = false
    try expectEqual(Self.frames(scene, scale: 1, pipeline: counting), Self.frames(scene, scale: 1, pipeline: redrawing))
    expectEqual(counter.withLock { $0 }, Self.distinctTrees(scene))

    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (folder, pipeline) in [("a", RenderPipeline(jobs: 2)), ("b", redrawing)] {
      try RenderSession(
        scene: scene, outputs: [try OutputTarget(path: dir.appendingPathComponent(folder).path + "/")],
        pipeline: pipeline
      ).run()
    }
    let names = try TestSupport.contents(dir.appendingPathComponent("a"))
    expectEqual(names.count, scene.frameCount)
    try expectEqual(TestSupport.contents(dir.appendingPathComponent("b")), names)
    for name in names {
      let a = try Data(contentsOf: dir.appendingPathComponent("a/" + name))
      let b = try Data(contentsOf: dir.appendingPathComponent("b/" + name))
      expectEqual(a, b, "\(name)")
    }
  }
}

/// Frames no output needs are not rendered; a delivered frame repeats the one delivered before
/// it exactly when every frame between them, rendered or not, repeated its predecessor, so the
/// flags (and what GIF and APNG merge) do not depend on which frames were left out.
@Suite struct FramesLeftOutTests {
  /// A card that holds, jumps away for two frames, and comes back: frames 0…3 and 6…9 draw the
  /// same, 4 and 5 draw the same as each other.
  static let scene: Scene = {
    let card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 5, y: 12),
      backgroundColor: Color(red: 0.2, green: 0.5, blue: 0.9))
    let jump = LayerAnimation(
      layerID: "card", property: .position, beginTime: 0, duration: 1,
      value: { t in Point(x: t >= 0.4 && t < 0.6 ? 25 : 5, y: 12) })
    return Scene(
      size: Size(width: 40, height: 24), fps: 10, duration: 1, backgroundColor: .white, layers: [card],
      animations: [jump])
  }()

  static func run(_ frames: [Int]) throws -> [(index: Int, repeats: Bool, pixels: [UInt8])] {
    var delivered: [(Int, Bool, [UInt8])] = []
    let scene = Self.scene
    try RenderPipeline(jobs: 2).run(
      frames: frames, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) }, layouts: .premultiplied
    ) { frame in delivered.append((frame.index, frame.repeatsPrevious, frame.premultiplied)) }
    return delivered
  }

  @Test func repeatsChainThroughTheFramesLeftOut() throws {
    let all = try Self.run(Array(0..<10))
    expectEqual(all.map(\.repeats), [false, true, true, true, false, true, false, true, true, true])
    for list in [[0, 2, 4, 6, 8], [0, 3, 7, 9], [1, 5, 6], [3, 6], [2, 3, 4, 5], [9]] {
      let some = try Self.run(list)
      expectEqual(some.map(\.index), list)
      for (i, frame) in some.enumerated() {
        let expected = i > 0 && ((list[i - 1] + 1)...list[i]).allSatisfy { all[$0].repeats }
        expectEqual(frame.repeats, expected, "frame \(frame.index) of \(list)")
        expectEqual(frame.pixels, all[frame.index].pixels, "frame \(frame.index) of \(list)")
      }
    }
  }
}
