import FlickExpectations
import FlickMotion
import Testing

@testable import FlickScene

/// `scene.addPropertyAnimator { … }`: a UIKit script over layers without a `try` per call.
@Suite struct PropertyAnimatorScriptTests {
  static func card(_ scene: Scene, at t: Double) -> Layer? { scene.renderTree(at: t).layers.first { $0.id == "card" } }

  static func scene() -> Scene {
    Scene(
      size: Size(width: 400, height: 300), duration: 4,
      layers: [Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 60), position: Point(x: 100, y: 150))])
  }

  @Test func theScriptDrivesTheSameAnimatorAsTheThrowingCalls() throws {
    var scripted = Self.scene()
    let written = scripted.addPropertyAnimator(duration: 1, timingParameters: .cubic(.linear)) {
      $0.addAnimations(at: 0) { $0["card"].position = Point(x: 300, y: 150) }
      $0.startAnimation(at: 0)
      $0.pauseAnimation(at: 0.5)
      $0.setFractionComplete(0.25, at: 1)
      $0.setReversed(true, at: 1.5)
      $0.continueAnimation(withTimingParameters: nil, durationFactor: 1, at: 1.5)
    }
    try scripted.validate()
    var manual = Self.scene()
    var animator = manual.makePropertyAnimator(duration: 1, timingParameters: .cubic(.linear))
    try animator.addAnimations(at: 0) { $0["card"].position = Point(x: 300, y: 150) }
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.5)
    try animator.setFractionComplete(0.25, at: 1)
    try animator.setReversed(true, at: 1.5)
    try animator.continueAnimation(withTimingParameters: nil, durationFactor: 1, at: 1.5)
    manual.add(animator)
    for t in stride(from: 0.0, through: 3.5, by: 0.25) {
      expectEqual(Self.card(scripted, at: t)?.position, Self.card(manual, at: t)?.position)
    }
    expectEqual(Self.card(scripted, at: 1.2)?.position, Point(x: 150, y: 150))
    expectEqual(written.state(at: 0.7), .active)
  }

  @Test func anIllegalCallIsThrownOnceByValidateNamingIt() {
    var scene = Self.scene()
    scene.addPropertyAnimator(duration: 1) {
      $0.addAnimations(at: 0) { $0["card"].opacity = 0 }
      $0.finishAnimation(to: .end, at: 0.5)  // only legal when stopped; it is inactive
      $0.startAnimation(at: 0.6)  // not run: the script ended at the illegal call
    }
    scene.addPropertyAnimator(duration: 1) { $0.addAnimations(at: 0) { $0["crad"].opacity = 0 } }
    #expect {
      try scene.validate()
    } throws: { error in
      let text = (error as? SceneError)?.description ?? ""
      return text.hasPrefix("propertyAnimator[0].finishAnimation(to: .end, at: 0.5): ")
        && text.hasSuffix("(and 1 more problem)")
    }
    expectEqual(Self.card(scene, at: 2)?.opacity, 1)
  }
}
