import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// Replicator copies are drawn nested (copy k inside k holders), so a Swift scene with two nested
/// replicators of 99 drew about 200 levels deep and overflowed the stack. `Scene.validate()`
/// refuses a tree deeper than `Layer.maximumDrawingDepth`, the renderer refuses one however it
/// was built, and a tree at the cap draws on a render worker's thread.
@Suite struct DrawingDepthRasterTests {
  static func replicating(_ id: String, count: Int, _ sublayers: [Layer]) -> Layer {
    var r = LayerReplicator(instanceCount: count)
    r.instanceTransform = LayerTransform(translation: Point(x: 0.01, y: 0.01))
    return Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: 4, height: 4), position: Point(x: 2, y: 2), sublayers: sublayers,
      replicator: r)
  }

  static let leaf = Layer(
    id: "leaf", bounds: Rect(x: 0, y: 0, width: 1, height: 1), position: Point(x: 1, y: 1),
    backgroundColor: Raster.green)

  /// Two replicators of `outer` and `inner` instances around the leaf: drawn 1 + (outer + 1) +
  /// (inner + 1) levels deep.
  static func scene(outer: Int, inner: Int) -> Scene {
    Scene(
      size: Size(width: 64, height: 64), duration: 1,
      layers: [replicating("R1", count: outer, [replicating("R0", count: inner, [leaf])])])
  }

  @Test func validateRefusesNestedReplicatorsTooDeepToDraw() async throws {
    let deep = Self.scene(outer: 99, inner: 99)
    expectEqual(deep.layers[0].drawingDepth, 201)
    do {
      try deep.validate()
      Issue.record("no error")
    } catch {
      #expect(error.description.contains("201 levels deep"), "\(error)")
      #expect(error.description.contains("cap of 128"), "\(error)")
    }
    // The renderer refuses the tree too, by its problem or, built by hand, as it draws.
    #expect(throws: RasterError.self) { try Renderer().render(deep.renderTree(at: 0)) }
    let tree = deep.renderTree(at: 0)
    let bare = RenderTree(size: tree.size, backgroundColor: tree.backgroundColor, layers: tree.layers, time: 0)
    let message = try await Self.drawingError { _ = try Renderer().render(bare) }
    #expect(message?.contains("more than 128 levels deep") == true, "\(String(describing: message))")
  }

  @Test func aTreeAtTheCapDrawsOnAWorkerThread() async throws {
    let atCap = Self.scene(outer: 100, inner: 25)  // 1 + 101 + 26 = 128
    expectEqual(atCap.layers[0].drawingDepth, Layer.maximumDrawingDepth)
    try atCap.validate()
    let tree = atCap.renderTree(at: 0)
    let frame = try await OffPool.run { try FrameRenderer().render(tree) }
    let still = try Renderer().render(tree)
    #expect(frame.pixels == still.pixels)
    #expect(throws: SceneError.self) { try Self.scene(outer: 100, inner: 26).validate() }
  }

  /// A level whose shadow is cast by its content takes half as much stack again (its subtree is
  /// drawn inside the shadow's drawing): 127 such levels are within the level cap but would
  /// overflow an 8 MiB stack. The painter refuses them by the stack they take.
  @Test func deepShadowsAreRefusedByTheStackTheyTake() async throws {
    var layer = Self.leaf
    for level in 0..<126 {
      var parent = Layer(
        id: "p\(level)", bounds: Rect(x: 0, y: 0, width: 64, height: 64), position: Point(x: 32, y: 32),
        sublayers: [layer])
      parent.shadowOpacity = 0.5
      layer = parent
    }
    expectEqual(layer.drawingDepth, 127)
    let tree = Raster.tree([layer], width: 64, height: 64)
    let message = try await Self.drawingError { _ = try FrameRenderer().render(tree) }
    #expect(message?.contains("more than 7 MiB of stack") == true, "\(String(describing: message))")
  }

  /// The painter draws a tree at the cap in up to 7 MiB of stack, which a still took from
  /// whichever thread asked for it: the main thread has what `ulimit -s` gives, and a thread of
  /// 256 KiB died of SIGSEGV. Every drawing entry point now draws on a thread of
  /// `DrawingThread.stackSize` (the caller's own when it is one, else a new one).
  @Test func aTreeAtTheCapDrawsWhicheverThreadAsks() async throws {
    let tree = Self.scene(outer: 100, inner: 25).renderTree(at: 0)
    let frames = try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        continuation.resume(
          with: Result { () throws -> (asked: Bool, Frame, Frame) in
            (DrawingThread.isCurrent, try Renderer().render(tree), try FrameRenderer().render(tree))
          })
      }
      thread.stackSize = 256 << 10
      thread.start()
    }
    #expect(!frames.asked)
    let expected = try await OffPool.run { try Renderer().render(tree) }
    #expect(frames.1.pixels == expected.pixels)
    #expect(frames.2.pixels == expected.pixels)
  }

  /// What `draw` throws on a worker thread of the pool (nil when it draws).
  static func drawingError(_ draw: @escaping @Sendable () throws -> Void) async throws -> String? {
    try await OffPool.run { () -> String? in
      do {
        try draw()
        return nil
      } catch {
        return "\(error)"
      }
    }
  }
}
