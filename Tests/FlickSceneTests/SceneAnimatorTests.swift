import FlickExpectations
import FlickMotion
import FlickScene
import Testing

/// A `Scene` driven by a FlickMotion `Animator` whose properties target layers by id or key
/// path: sampled once per frame, retargeting keeps the motion continuous, and the scene's own
/// `animations` still apply on top.
@Suite struct SceneAnimatorTests {
  static func scene() -> Scene {
    let card = Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 100, y: 100))
    let dot = Layer(id: "dot", bounds: Rect(x: 0, y: 0, width: 10, height: 10))
    let panel = Layer(
      id: "panel", bounds: Rect(x: 0, y: 0, width: 200, height: 200), mask: Layer(id: "hole"), sublayers: [card])
    return Scene(size: Size(width: 400, height: 300), duration: 3, layers: [panel, dot])
  }

  @Test func animatorDrivesLayersByIdAndKeyPath() throws {
    var scene = Self.scene()
    var animator = Animator(model: LayerTree(scene.layers))
    let position = AnimatableProperty.layer("card", .position)
    let key = AnimationKey(object: "card", key: "position")
    try animator.spring(key, property: position, to: Point(x: 300, y: 200), parameters: .coreAnimation, at: 0.5)
    try animator.spring(key, property: position, to: Point(x: 50, y: 50), at: 1)  // retarget mid-flight
    try animator.tween(
      AnimationKey(object: "hole", key: "opacity"), property: .layer("hole", \.opacity, threshold: 0.004), to: 0.25,
      duration: 1, timingFunction: .linear, at: 0)
    scene.animator = animator
    scene.animations.append(
      LayerAnimation(
        layerID: "dot", property: .opacity, tween: BasicAnimation(from: 1, to: 0, duration: 1, timingFunction: .linear))
    )
    for t in [0.0, 0.4, 0.7, 1.0, 1.3, 2.5] {
      let tree = scene.renderTree(at: t)
      let expected = try #require(
        animator.value(of: key, as: Point.self, at: t) ?? (t < 0.5 ? Point(x: 100, y: 100) : nil))
      expectEqual(tree.layer(id: "card")?.position, expected, "card at \(t) s")
      expectEqual(tree.layer(id: "panel")?.mask?.opacity, animator.sample(at: t).layer("hole")?.opacity)
      expectEqual(tree.layer(id: "dot")?.opacity, max(0, 1 - t))
    }
    let hole = try #require(scene.renderTree(at: 0.5).layer(id: "panel")?.mask?.opacity)
    expectLess(hole, 1)
    expectGreater(hole, 0.25)
    expectEqual(scene.renderTree(at: 2).layer(id: "panel")?.mask?.opacity, 0.25)
    // The retarget hands over value and velocity.
    let before = try #require(animator.velocity(of: key, as: Point.self, before: 1))
    let after = try #require(animator.velocity(of: key, as: Point.self, at: 1))
    expectLessOrEqual((before - after).magnitudeSquared.squareRoot(), 1e-6 * before.magnitudeSquared.squareRoot())
    expectGreater(before.magnitudeSquared, 1)
  }

  @Test func aLayerNotInTheTreeIsIgnored() throws {
    var animator = Animator(model: LayerTree(Self.scene().layers))
    try animator.tween(AnimationKey(object: "ghost", key: "opacity"), property: .layer("ghost", .opacity), to: 0, at: 0)
    expectEqual(animator.sample(at: 1).layers, Self.scene().layers)
  }
}
