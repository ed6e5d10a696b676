import FlickExpectations
import FlickMotion
import Testing

@testable import FlickScene

/// Issue 26, defect 8 (the Swift side): completion-driven loops replay only as far as the scene
/// lasts, GPUAnimation-style chains default to GPUAnimation's spring, a value can drive other
/// layers in the render, and a scene `validate()` refuses is refused by its snapshots too.
@Suite struct SceneMotionDefectTests {
  static func scene(duration: Double = 2) -> Scene {
    Scene(
      size: Size(width: 400, height: 300), fps: 30, duration: duration,
      layers: [
        Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 60), position: Point(x: 100, y: 150)),
        Layer(id: "dot", position: Point(x: 20, y: 20)),
      ])
  }

  static func layer(_ tree: RenderTree, _ id: String) -> Layer? { tree.layers.first { $0.id == id } }

  /// A card that swaps for ever from its completion block (the seed card-swap's pattern).
  static func loop(_ scene: inout Scene) {
    let a = Point(x: 100, y: 150), b = Point(x: 300, y: 150)
    @Sendable func swap(to target: Point) -> @Sendable (AnimatorCompletion, inout LayerSchedule) -> Void {
      { _, next in
        next.pop["card"].add(
          .tween(to: target, duration: 0.25), for: \.position, whenCompleted: swap(to: target == a ? b : a))
      }
    }
    scene.pop["card"].add(.tween(to: b, duration: 0.25), for: \.position, at: 0, whenCompleted: swap(to: a))
  }

  /// The replay stops at the scene's duration (it used to run to 3,600 s whatever the length),
  /// and follows the duration when it changes; frames inside are unchanged.
  @Test func aCompletionDrivenLoopReplaysOnlyTheSceneLength() throws {
    var scene = Self.scene(duration: 2)
    Self.loop(&scene)
    try scene.validate()
    let animator = try #require(scene.animator)
    let starts = animator.events(after: -1, through: .infinity).filter { $0.kind == .start }
    expectEqual(starts.count, 9)  // at 0, 0.25, …, 2
    expectEqual(starts.map(\.time).max(), 2)
    #expect(animator.continuationsWereTruncated)
    let inside = Self.layer(scene.renderTree(at: 1.9), "card")!.position
    scene.duration = 4
    let longer = try #require(scene.animator).events(after: -1, through: .infinity).filter { $0.kind == .start }
    expectEqual(longer.count, 17)
    expectEqual(Self.layer(scene.renderTree(at: 1.9), "card")!.position, inside)
  }

  /// A GPUAnimation-style group defaults to GPUAnimation's spring (200/10, mass 1, rest 0.01),
  /// not Pop's.
  @Test func chainsDefaultToGPUAnimationsSpring() throws {
    var scene = Self.scene(duration: 10)
    scene.animate("card", at: 0) { $0.position.target = Point(x: 300, y: 150) }
    scene.run(LayerChain.animate("dot") { $0.opacity.target = 0.5 }.then.animate { $0.opacity.target = 1 }, at: 0)
    try scene.validate()
    let spring = SpringAnimation(
      from: Point(x: 100, y: 150), to: Point(x: 300, y: 150), parameters: .gpuAnimation, restThreshold: 0.01)
    for fps in [24.0, 30, 60, 120] {
      for n in stride(from: 0, to: Int(fps), by: 3) {
        let t = Double(n) / fps
        expectEqual(Self.layer(scene.renderTree(at: t), "card")!.position, spring.value(at: t), "\(fps) fps")
      }
    }
    let fade = SpringAnimation(from: 1.0, to: 0.5, parameters: .gpuAnimation, restThreshold: 0.01)
    let events = try #require(scene.animator).events(after: -1, through: 10)
    let second = events.filter { $0.kind == .start && $0.key.object == "dot" }.map(\.time)
    expectEqual(second.count, 2)
    expectLess(abs(second[1] - fade.duration), 1e-9)
  }

  /// A (custom) value drives another layer, GPUAnimation's `onChange` habit, as part of the
  /// render: every frame alone, in any order, shows the driven layer in step.
  @Test func aValueDrivesAnotherLayerDeterministically() throws {
    let progress = LayerProperty<Double>(
      name: "progress", threshold: 0.001, read: { $0.shadowOpacity }, write: { $0.shadowOpacity = $1 })
    var scene = Self.scene(duration: 2)
    scene.animate("card", at: 0.2) {
      $0[progress].target = 1
      $0[progress].type = .tween(duration: 1, curve: .easeInEaseOut)
      $0[progress].drive("dot", .opacity) { 1 - $0 }
      $0[progress].drive("dot", \.position) { Point(x: 20 + 200 * $0, y: 20) }
    }
    try scene.validate()
    let times = (0...60).map { Double($0) / 30 }
    let forward = times.map { scene.renderTree(at: $0) }
    let backward = times.reversed().map { scene.renderTree(at: $0) }.reversed()
    expectEqual(forward, Array(backward))
    for (t, tree) in zip(times, forward) {
      let value = Self.layer(tree, "card")!.shadowOpacity
      let dot = Self.layer(tree, "dot")!
      if t < 0.2 {
        expectEqual(dot.opacity, 1)
        expectEqual(dot.position, Point(x: 20, y: 20))
      } else {
        expectLess(abs(dot.opacity - (1 - value)), 1e-12, "t = \(t)")
        expectLess(abs(dot.position.x - (20 + 200 * value)), 1e-9, "t = \(t)")
      }
    }
    expectEqual(Self.layer(forward.last!, "dot")!.opacity, 0)
    // The driven layer is checked like any other.
    var wrong = Self.scene()
    wrong.animate("card") {
      $0.opacity.target = 0; $0.opacity.drive("dto", .opacity) { $0 }
    }
    #expect(throws: SceneError.self) { try wrong.validate() }
  }

  /// A snapshot of a scene `validate()` refuses carries the same error (the renderer then
  /// refuses it): unknown layer ids, NaN targets from a building call, a completion block or a
  /// chain, are no longer dropped or drawn silently.
  @Test func snapshotsOfARefusedSceneCarryValidatesError() throws {
    var unknown = Self.scene()
    unknown.pop["crad"].add(.spring(to: Point(x: 1, y: 1)), for: \.position, at: 0)
    var nanTarget = Self.scene()
    nanTarget.pop["card"].add(.spring(to: Point(x: .nan, y: 0)), for: \.position, at: 0)
    var nanLater = Self.scene()
    nanLater.pop["card"].add(.tween(to: 0.5, duration: 0.2), for: .opacity, at: 0) { _, next in
      next.pop["card"].add(.spring(to: .infinity), for: .opacity)
    }
    var nanChain = Self.scene()
    nanChain.animate("dot") { $0.opacity.target = .nan }
    for scene in [unknown, nanTarget, nanLater, nanChain] {
      let error = try #require(throws: SceneError.self) { try scene.validate() }
      expectEqual(scene.renderTree(at: 0.5).problem, error)
    }
    #expect(try #require(throws: SceneError.self) { try nanTarget.validate() }.reason.contains("finite"))
    #expect(try #require(throws: SceneError.self) { try nanLater.validate() }.reason.contains("finite"))
    #expect(Self.scene().renderTree(at: 0).problem == nil)
  }
}
