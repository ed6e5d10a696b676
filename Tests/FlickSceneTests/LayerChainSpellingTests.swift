import FlickExpectations
import FlickMotion
import Testing

@testable import FlickScene

/// GPUAnimation's chain as one expression on a scene, layers named by value, and decays in groups.
@Suite struct LayerChainSpellingTests {
  static let card = Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 60), position: Point(x: 100, y: 150))
  static let dot = Layer(id: "dot", position: Point(x: 20, y: 20))

  static func scene() -> Scene {
    Scene(size: Size(width: 400, height: 300), fps: 30, duration: 4, layers: [card, dot])
  }

  static func position(_ scene: Scene, _ id: String, at t: Double) -> Point? {
    scene.renderTree(at: t).layers.first { $0.id == id }?.position
  }

  @Test func theSeedsChainIsOneExpressionRunAtAnExplicitTime() throws {
    var scene = Self.scene()
    scene.run(
      .animate(Self.card) {
        $0.position.target = Point(x: 300, y: 150)
        $0.position.type = .tween(duration: 0.5, curve: .linear)
        $0.opacity.target = 0.5
      }
      .delay(1)
      .animate {
        $0.position.target = Point(x: 100, y: 150); $0.position.type = .tween(duration: 0.5, curve: .linear)
      }
      .then { _ in },
      at: 0.5)
    try scene.validate()
    let opacity = SpringAnimation(
      from: 1.0, to: 0.5, parameters: MotionDefaults.gpuAnimationSpring,
      restThreshold: MotionDefaults.gpuAnimationThreshold)
    let groupEnd = 0.5 + max(0.5, opacity.duration)
    expectEqual(Self.position(scene, "card", at: 0.75), Point(x: 200, y: 150))
    expectEqual(Self.position(scene, "card", at: groupEnd + 1 + 0.25), Point(x: 200, y: 150))
  }

  @Test func layersAreNamedByValueInPopAndInChains() throws {
    var scene = Self.scene()
    scene.pop[Self.dot].add(.tween(to: Point(x: 120, y: 20), duration: 1, curve: .linear), for: \.position, at: 0)
    scene.animate(Self.card, at: 0) {
      $0.opacity.target = 0; $0.opacity.type = .tween(duration: 1, curve: .linear)
    }
    try scene.validate()
    expectEqual(Self.position(scene, "dot", at: 0.5), Point(x: 70, y: 20))
    expectEqual(scene.renderTree(at: 0.5).layers.first { $0.id == "card" }?.opacity, 0.5)
  }

  @Test func aDecayInAGroupNeedsNoTargetAndTakesItsVelocity() throws {
    var scene = Self.scene()
    scene.animate("card") {
      $0.position.type = .decay()
      $0.position.velocity = Point(x: 1000, y: 0)
    }
    try scene.validate()
    let coast = DecayAnimation(
      from: Self.card.position, velocity: Point(x: 1000, y: 0), threshold: LayerProperty.position.threshold)
    expectEqual(Self.position(scene, "card", at: 0.3), coast.value(at: 0.3))
    // Without a target or a decay, a property stays out of the group.
    var still = Self.scene()
    still.animate("card") { $0.position.velocity = Point(x: 1000, y: 0) }
    expectEqual(Self.position(still, "card", at: 0.3), Self.card.position)
  }
}
