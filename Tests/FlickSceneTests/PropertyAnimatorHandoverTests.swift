import FlickExpectations
import FlickMotion
import Testing

@testable import FlickScene

/// A property animator's `addAnimations` in a scene takes over from what the scene shows: the
/// value on screen and the velocity it had (docs/motion.md, "Over a moving property"), whatever
/// moved the property — a Pop spring or tween, a GPUAnimation chain, a value `drive`, a Core
/// Animation-style ``LayerAnimation`` or an earlier property animator. It used to start from the
/// layer's initial value: the card jumped back from 168 to 80 and its 985 pt/s fell to 0.
@Suite struct PropertyAnimatorHandoverTests {
  /// A 320 × 200 scene with a `card` at x 80 and a `badge` (also ``AnimationOrderTests``').
  static func scene(fps: Int = 30, duration: Double = 3) -> Scene {
    Scene(
      size: Size(width: 320, height: 200), fps: fps, duration: duration,
      layers: [
        Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 120, height: 80), position: Point(x: 80, y: 100)),
        Layer(id: "badge", position: Point(x: 20, y: 20)),
      ])
  }

  static func x(_ scene: Scene, _ id: String = "card", at t: Double) -> Double {
    scene.instantTree(at: t).layers.first { $0.id == id }?.position.x ?? .nan
  }

  /// Value and velocity on both sides of the join at `t` (differences 10 µs apart): the value
  /// does not jump and the velocity carries over; the property was moving there.
  /// - Returns: The value arriving at `t` (from 10 µs before it).
  @discardableResult
  static func expectContinuous(
    _ scene: Scene, _ id: String = "card", at t: Double, _ label: String, moving: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Double {
    let e = 1e-5
    let before = (x(scene, id, at: t - e), x(scene, id, at: t - 2 * e))
    let after = (x(scene, id, at: t + e), x(scene, id, at: t + 2 * e))
    let (vBefore, vAfter) = ((before.0 - before.1) / e, (after.1 - after.0) / e)
    if moving {
      #expect(abs(vBefore) > 20, "\(label): moving before the join (\(vBefore) pt/s)", sourceLocation: sourceLocation)
    }
    #expect(
      abs(after.0 - before.0) < 0.05, "\(label): value \(before.0) → \(after.0) across \(t) s",
      sourceLocation: sourceLocation)
    #expect(
      abs(vAfter - vBefore) <= 0.03 * abs(vBefore) + 2, "\(label): velocity \(vBefore) → \(vAfter) pt/s at \(t) s",
      sourceLocation: sourceLocation)
    return before.0
  }

  /// Adds the reviewer's animator: at `t`, 1 s to x = 200, default ease-in-ease-out.
  static func takeOver(_ scene: inout Scene, _ id: String = "card", at t: Double) {
    let y = id == "card" ? 100.0 : 20.0
    scene.addPropertyAnimator(duration: 1) {
      $0.addAnimations(at: t) { $0[id].position = Point(x: 200, y: y) }
      $0.startAnimation(at: t)
    }
  }

  @Test func overAPopSpring() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.spring(to: Point(x: 240, y: 100)), for: \.position, at: 0)
    Self.takeOver(&scene, at: 0.1)
    try scene.validate()
    Self.expectContinuous(scene, at: 0.1, "Pop spring")
    #expect(Self.x(scene, at: 0.1) > 150)
    // The momentum has faded by the animator's end: the card rests on its target.
    #expect(abs(Self.x(scene, at: 1.2) - 200) < 1e-9)
  }

  @Test func overALinearPopTween() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.tween(to: Point(x: 280, y: 100), duration: 2, curve: .linear), for: \.position, at: 0)
    Self.takeOver(&scene, at: 0.1)
    Self.expectContinuous(scene, at: 0.1, "linear tween")
    expectEqual((Self.x(scene, at: 0.1) * 1e6).rounded() / 1e6, 90)
  }

  @Test func overAGPUAnimationChainAndADrive() throws {
    var scene = Self.scene()
    let progress = LayerProperty<Double>(
      name: "progress", threshold: 0.001, read: { $0.shadowOpacity }, write: { $0.shadowOpacity = $1 })
    scene.animate("card", at: 0) {
      $0.position.target = Point(x: 240, y: 100)
      $0[progress].target = 1
      $0[progress].drive("badge", \.position) { Point(x: 20 + 200 * $0, y: 20) }
    }
    Self.takeOver(&scene, at: 0.1)
    Self.takeOver(&scene, "badge", at: 0.15)
    try scene.validate()
    Self.expectContinuous(scene, at: 0.1, "GPUAnimation chain")
    Self.expectContinuous(scene, "badge", at: 0.15, "drive")
  }

  @Test func overACoreAnimationStyleAnimation() throws {
    var scene = Self.scene()
    scene.animations.append(
      LayerAnimation(layerID: "card", property: LayerProperty(\.position), duration: 2) {
        Point(x: 80 + 100 * $0, y: 100)
      })
    Self.takeOver(&scene, at: 0.5)
    Self.expectContinuous(scene, at: 0.5, "LayerAnimation")
  }

  @Test func overAnEarlierPropertyAnimatorAndWithinOne() throws {
    var scene = Self.scene()
    scene.addPropertyAnimator(duration: 2, timingParameters: .cubic(.linear)) {
      $0.addAnimations(at: 0) { $0["card"].position = Point(x: 280, y: 100) }
      $0.startAnimation(at: 0)
      // A second group of the same animator over its own running one.
      $0.addAnimations(at: 1) { $0["badge"].position = Point(x: 100, y: 20) }
    }
    Self.takeOver(&scene, at: 0.5)
    Self.expectContinuous(scene, at: 0.5, "property animator")
    // Made with makePropertyAnimator and added: the same hand-over.
    var made = Self.scene()
    made.pop["card"].add(.spring(to: Point(x: 240, y: 100)), for: \.position, at: 0)
    var animator = made.makePropertyAnimator(duration: 1)
    try animator.addAnimations(at: 0.1) { $0["card"].position = Point(x: 200, y: 100) }
    try animator.startAnimation(at: 0.1)
    made.add(animator)
    Self.expectContinuous(made, at: 0.1, "makePropertyAnimator")
  }

  @Test func aPropertyAtRestStartsWithoutMomentum() throws {
    var scene = Self.scene()
    Self.takeOver(&scene, at: 0.5)
    // Nothing moved the card: the animator alone, from the layer's value.
    var plain = PropertyAnimator(duration: 1, model: LayerTree(scene.layers))
    try plain.addAnimations(at: 0.5) { $0["card"].position = Point(x: 200, y: 100) }
    try plain.startAnimation(at: 0.5)
    for t in stride(from: 0.5, through: 1.6, by: 0.1) {
      expectEqual(Self.x(scene, at: t), plain.sample(at: t).layer("card")?.position.x)
    }
  }

  /// Within the scene's animator every kind takes over from every other under the property's
  /// key, in value and velocity: a Pop spring by a tween, a tween by a decay, a chain by a Pop
  /// spring and a Pop spring by a chain's tween.
  @Test func betweenTheAnimatorsOwnKinds() {
    var springToTween = Self.scene()
    springToTween.pop["card"].add(.spring(to: Point(x: 240, y: 100)), for: \.position, at: 0)
    springToTween.pop["card"].add(.tween(to: Point(x: 80, y: 100), duration: 0.5), for: \.position, at: 0.1)
    Self.expectContinuous(springToTween, at: 0.1, "Pop spring → Pop tween")
    var tweenToDecay = Self.scene()
    tweenToDecay.pop["card"].add(
      .tween(to: Point(x: 280, y: 100), duration: 2, curve: .linear), for: \.position, at: 0)
    tweenToDecay.pop["card"].add(.decay(), for: \.position, at: 0.5)
    Self.expectContinuous(tweenToDecay, at: 0.5, "Pop tween → decay")
    var chainToPop = Self.scene()
    chainToPop.animate("card", at: 0) { $0.position.target = Point(x: 240, y: 100) }
    chainToPop.pop["card"].add(.spring(to: Point(x: 80, y: 100)), for: \.position, at: 0.1)
    Self.expectContinuous(chainToPop, at: 0.1, "chain → Pop spring")
    var popToChain = Self.scene()
    popToChain.pop["card"].add(.spring(to: Point(x: 240, y: 100)), for: \.position, at: 0)
    popToChain.animate("card", at: 0.1) {
      $0.position.target = Point(x: 80, y: 100)
      $0.position.type = .tween(duration: 0.4)
    }
    Self.expectContinuous(popToChain, at: 0.1, "Pop spring → chain tween")
  }

  /// The other way round: a Pop call made after a property animator's run on the same property
  /// shows from its start, taking over from the animator's held end value (it used to be drawn
  /// under it: the card stayed at 200). Every kind, in every animator state: AnimationOrderTests.
  @Test func aPopCallAfterAPropertyAnimatorTakesOver() {
    var scene = Self.scene()
    Self.takeOver(&scene, at: 0)
    scene.pop["card"].add(.spring(to: Point(x: 80, y: 100)), for: \.position, at: 1.5)
    #expect(abs(Self.x(scene, at: 1.5) - 200) < 1e-9)
    #expect(abs(Self.x(scene, at: 2.9) - 80) < 0.5)
  }
}
