import FlickExpectations
import FlickMotion
import Testing

@testable import FlickScene

/// The seeds' APIs on scene layers: Pop, GPUAnimation and UIKit, rendered by `renderTree(at:)`.
@Suite struct SceneLayerAPITests {
  static func scene() -> Scene {
    Scene(
      size: Size(width: 400, height: 300), fps: 30, duration: 4,
      layers: [
        Layer(
          id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 60), position: Point(x: 100, y: 150),
          backgroundColor: Color(0x30D158), sublayers: [Layer(id: "label", position: Point(x: 50, y: 30))]),
        Layer(id: "dot", position: Point(x: 20, y: 20)),
      ])
  }

  static func layer(_ tree: RenderTree, _ id: String) -> Layer? {
    var found: Layer?
    var stack = tree.layers
    while let l = stack.popLast() {
      if l.id == id, found == nil { found = l }
      stack += l.sublayers
    }
    return found
  }

  @Test func popSpringRendersTheSpringItDescribes() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.spring(to: Point(x: 300, y: 150)), for: \.position, at: 0.5)
    scene.pop["label"].add(.tween(to: 0.25, duration: 1), for: .opacity, at: 0)
    try scene.validate()
    let spring = SpringAnimation(
      from: Point(x: 100, y: 150), to: Point(x: 300, y: 150), parameters: .popDefault,
      restThreshold: LayerProperty.position.threshold)
    for t in [0.0, 0.5, 0.6, 0.9, 1.7, 3.0] {
      let card = try #require(Self.layer(scene.renderTree(at: t), "card"))
      let expected = t < 0.5 ? Point(x: 100, y: 150) : spring.value(at: t - 0.5)
      expectEqual(card.position, expected, "t = \(t)")
    }
    let label = try #require(Self.layer(scene.renderTree(at: 0.5), "label"))
    let tween = BasicAnimation(from: 1.0, to: 0.25, duration: 1, timingFunction: .default)
    expectLess(abs(label.opacity - tween.value(at: 0.5)), 1e-12)
  }

  @Test func aSecondAnimationUnderTheSameKeyRetargetsContinuously() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.spring(to: Point(x: 300, y: 150)), for: .position, at: 0)
    scene.pop["card"].add(.spring(to: Point(x: 100, y: 50)), for: \.position, at: 0.2)
    let before = try #require(
      scene.animator!.value(of: AnimationKey(object: "card", key: "position"), as: Point.self, before: 0.2))
    let after = try #require(
      scene.animator!.value(of: AnimationKey(object: "card", key: "position"), as: Point.self, at: 0.2))
    expectLess((before - after).magnitudeSquared, 1e-18)
    let vBefore = try #require(
      scene.animator!.velocity(of: AnimationKey(object: "card", key: "position"), as: Point.self, before: 0.2))
    let vAfter = try #require(
      scene.animator!.velocity(of: AnimationKey(object: "card", key: "position"), as: Point.self, at: 0.2))
    expectLess((vBefore - vAfter).magnitudeSquared, 1e-12)
    expectGreater(vAfter.magnitudeSquared, 1)
  }

  /// Seed 004: each swap is added from the completion block of the previous one, at the exact
  /// completion time (not the next frame), and rendering any frame alone shows the same.
  @Test func completionDrivenRepeatsStartAtTheAnalyticCompletionTime() throws {
    var scene = Self.scene()
    let a = Point(x: 100, y: 150), b = Point(x: 300, y: 150)
    @Sendable func swap(to target: Point, count: Int) -> @Sendable (AnimatorCompletion, inout LayerSchedule) -> Void {
      { _, next in
        guard count < 4 else { return }
        next.pop["card"].add(
          .spring(to: target), for: \.position, whenCompleted: swap(to: target == a ? b : a, count: count + 1))
      }
    }
    scene.pop["card"].add(.spring(to: b), for: \.position, at: 0.1, whenCompleted: swap(to: a, count: 1))
    try scene.validate()
    let events = scene.animator!.events(after: -1, through: 60)
    let starts = events.filter { $0.kind == .start }.map(\.time)
    let ends = events.filter { $0.kind == .completed(finished: true) }.map(\.time)
    expectEqual(starts.count, 4)
    expectEqual(ends.count, 4)
    // Each swap starts exactly when the previous one completed, and that instant is the
    // spring's own settle time, not a multiple of the frame interval.
    let spring = SpringAnimation(
      from: a, to: b, parameters: .popDefault, restThreshold: LayerProperty.position.threshold)
    expectLess(abs(ends[0] - (0.1 + spring.duration)), 1e-9)
    for i in 1..<4 { expectEqual(starts[i], ends[i - 1]) }
    expectGreater(abs(ends[0] * 30 - (ends[0] * 30).rounded()), 1e-6)
    // Frames are pure: a late frame alone equals the last swap's spring at its local time. It
    // takes over the value and velocity the previous spring arrives with at its settle time
    // (the left limit, within its rest threshold of the target), as every hand-over at a
    // motion's end does.
    let t = starts[3] + 0.05
    let key = AnimationKey(object: "card", key: "position")
    let from = try #require(scene.animator!.value(of: key, as: Point.self, before: starts[3]))
    let handed = try #require(scene.animator!.velocity(of: key, as: Point.self, before: starts[3]))
    expectLess((from - b).magnitudeSquared.squareRoot(), LayerProperty.position.threshold)
    expectLess(handed.magnitudeSquared.squareRoot(), 50)
    let last = SpringAnimation(
      from: from, to: a, velocity: handed, parameters: .popDefault, restThreshold: LayerProperty.position.threshold)
    let card = try #require(Self.layer(scene.renderTree(at: t), "card"))
    expectLess((card.position - last.value(at: t - starts[3])).magnitudeSquared, 1e-12)
  }

  @Test func keyPathsTakeTheCatalogueNameAndThreshold() {
    expectEqual(LayerProperty(\Layer.position).name, "position")
    expectEqual(LayerProperty(\Layer.position).threshold, LayerProperty.position.threshold)
    expectEqual(LayerProperty(\Layer.backgroundColor).threshold, LayerProperty.backgroundColor.threshold)
    expectEqual(LayerProperty(\Layer.transform.rotation).name, "rotation")
  }

  @Test func buildingCallsThrowOnceNamingTheFirstBadCall() {
    var scene = Self.scene()
    scene.pop["crad"].add(.spring(to: Point(x: 1, y: 1)), for: \.position, at: 0)
    scene.pop["card"].add(.tween(to: 0.5), for: .opacity, at: .nan)
    scene.animate("dott") { $0.opacity.target = 0 }
    scene.animations.append(
      LayerAnimation(layerID: "nope", property: .opacity, duration: 1, value: { _ in 0 }))
    #expect(throws: SceneError.self) { try scene.validate() }
    do {
      try scene.validate()
    } catch {
      expectEqual(error.call, "pop[\"crad\"].add(spring, for: position, at: 0.0)")
      #expect(error.reason.contains("did you mean \"card\"?"))
      #expect(error.reason.contains("and 3 more problems"))
    }
    // Nothing bad was recorded into the animator: the good layers render as written.
    expectEqual(Self.layer(scene.renderTree(at: 1), "card")?.opacity, 1)
  }

  @Test func layersAddedAfterTheFirstAnimationAreReported() {
    var scene = Self.scene()
    scene.pop["card"].add(.spring(to: Point(x: 1, y: 1)), for: \.position)
    scene.layers.append(Layer(id: "late"))
    #expect(throws: SceneError.self) { try scene.validate() }
  }

  @Test func setHoldsAValueFromItsTime() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.tween(to: 0.2, duration: 1), for: .opacity, at: 0)
    scene.set(\.opacity, of: "card", to: 1, at: 0.5)
    scene.set(.position, of: "dot", to: Point(x: 5, y: 6), at: 2)
    try scene.validate()
    expectLess(Self.layer(scene.renderTree(at: 0.49), "card")!.opacity, 1)
    expectEqual(Self.layer(scene.renderTree(at: 0.5), "card")!.opacity, 1)
    expectEqual(Self.layer(scene.renderTree(at: 3), "card")!.opacity, 1)
    expectEqual(Self.layer(scene.renderTree(at: 1.99), "dot")!.position, Point(x: 20, y: 20))
    expectEqual(Self.layer(scene.renderTree(at: 2), "dot")!.position, Point(x: 5, y: 6))
  }

  @Test func gpuAnimationChainStartsEachGroupAtTheExactEnd() throws {
    var scene = Self.scene()
    let chain =
      LayerChain
      .animate("card") {
        $0.position.target = Point(x: 300, y: 150)
        $0.opacity.target = 0.5
        $0.opacity.type = .tween(duration: 0.3, curve: .linear)
      }
      .delay(0.5)
      .animate {
        $0.position.target = Point(x: 100, y: 150); $0.position.type = .spring(stiffness: 200, damping: 10)
      }
      .then
      .animate("dot") { $0[LayerProperty.scaleX].target = 2 }
    scene.run(chain, at: 0.25)
    try scene.validate()
    let events = scene.animator!.events(after: -1, through: 30)
    let starts = events.filter { $0.kind == .start }
    // A group's default is GPUAnimation's spring (200/10, mass 1, resting within 0.01).
    let first = SpringAnimation(
      from: Point(x: 100, y: 150), to: Point(x: 300, y: 150), parameters: .gpuAnimation, restThreshold: 0.01)
    let back = try #require(starts.first { $0.key.key == "position" && $0.time > 0.25 })
    expectLess(abs(back.time - (0.25 + first.duration + 0.5)), 1e-9)
    let dot = try #require(starts.first { $0.key.object == "dot" })
    let backEnd = try #require(
      events.first { $0.animationID == back.animationID && $0.kind == .completed(finished: true) })
    expectEqual(dot.time, backEnd.time)
    expectLess(abs(Self.layer(scene.renderTree(at: 0.25 + 0.15), "card")!.opacity - 0.75), 1e-9)
    expectLess(abs(Self.layer(scene.renderTree(at: 29), "dot")!.transform.scale.x - 2), 0.01)
  }

  @Test func customPropertiesAnimateInChainsAndPop() throws {
    // One value drives two layer properties (GPUAnimation's custom animatable property).
    let glow = LayerProperty<Double>(
      name: "glow", threshold: 0.01, read: { $0.shadowOpacity },
      write: { layer, v in
        layer.shadowOpacity = v
        layer.shadowRadius = 20 * v
      })
    var scene = Self.scene()
    scene.animate("card", at: 0) {
      $0[glow].target = 1; $0[glow].type = .tween(duration: 1, curve: .linear)
    }
    let card = try #require(Self.layer(scene.renderTree(at: 0.5), "card"))
    expectLess(abs(card.shadowOpacity - 0.5), 1e-9)
    expectLess(abs(card.shadowRadius - 10), 1e-9)
  }

  @Test func propertyAnimatorOverLayersPausesScrubsReversesAndFinishes() throws {
    var scene = Self.scene()
    var animator = scene.makePropertyAnimator(duration: 1, timingParameters: .cubic(.linear))
    try animator.addAnimations(at: 0) {
      $0["card"].position = Point(x: 300, y: 150)
      $0["label"].opacity = 0
    }
    animator.addCompletion { _ in }
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.5)
    try animator.setFractionComplete(0.25, at: 1)
    try animator.setReversed(true, at: 1.5)
    try animator.continueAnimation(withTimingParameters: nil, durationFactor: 1, at: 1.5)
    scene.add(animator)
    try scene.validate()
    expectEqual(Self.layer(scene.renderTree(at: 0.5), "card")!.position, Point(x: 200, y: 150))
    expectEqual(Self.layer(scene.renderTree(at: 1.2), "card")!.position, Point(x: 150, y: 150))
    expectEqual(Self.layer(scene.renderTree(at: 1.2), "label")!.opacity, 0.75)
    expectEqual(Self.layer(scene.renderTree(at: 3.9), "card")!.position, Point(x: 100, y: 150))
    #expect(throws: AnimatorError.self) {
      var other = scene.makePropertyAnimator(duration: 1)
      try other.addAnimations(at: 0) { $0["crad"].opacity = 0 }
    }
  }

  @Test func animatorDrivenSceneMatchesPerLayerAnimations() {
    // The same springs as per-layer animations and as one animator: identical frames.
    var viaAnimator = Self.scene()
    var viaLayers = Self.scene()
    for (i, id) in ["card", "label", "dot"].enumerated() {
      let target = Point(x: 50 + 60 * Double(i), y: 200)
      viaAnimator.pop[id].add(.spring(to: target), for: .position, at: 0.1 * Double(i))
      let from = viaLayers.layers.count > 0 ? LayerTree(viaLayers.layers).layer(id)!.position : .zero
      let spring = SpringAnimation(from: from, to: target, parameters: .popDefault, restThreshold: 0.5)
      viaLayers.animations.append(
        LayerAnimation(layerID: id, property: .position, beginTime: 0.1 * Double(i), duration: spring.duration) {
          spring.value(at: $0)
        })
    }
    for frame in 0..<viaAnimator.frameCount {
      let t = viaAnimator.time(ofFrame: frame)
      for id in ["card", "label", "dot"] {
        expectEqual(
          Self.layer(viaAnimator.renderTree(at: t), id)?.position, Self.layer(viaLayers.renderTree(at: t), id)?.position
        )
      }
    }
  }

  @Test func colourLiterals() {
    expectEqual(Color(0x30D158), Color(hex: "#30D158"))
    expectEqual(Color(0xFF0000, alpha: 0.5), Color(red: 1, green: 0, blue: 0, alpha: 0.5))
  }
}
