import FlickExpectations
import FlickMotion
import FlickScene
import Testing

/// `LayerAnimation` built from FlickMotion curves: springs, additive stacking and media timing.
@Suite struct LayerAnimationMotionTests {
  static func scene(_ animations: [LayerAnimation]) -> Scene {
    Scene(
      size: Size(width: 100, height: 100), fps: 60, duration: 3,
      layers: [Layer(id: "dot", position: Point(x: 10, y: 10))], animations: animations)
  }

  @Test func aSpringCurveDrivesThePropertyFromItsBeginTime() throws {
    let spring = SpringAnimation(
      from: Point(x: 10, y: 10), to: Point(x: 90, y: 10), parameters: .popDefault, restThreshold: 0.5)
    let scene = Self.scene([LayerAnimation(layerID: "dot", property: .position, curve: spring, beginTime: 0.5)])
    expectEqual(scene.renderTree(at: 0.4).layer(id: "dot")?.position, Point(x: 10, y: 10))
    expectEqual(scene.renderTree(at: 0.6).layer(id: "dot")?.position, spring.value(at: 0.6 - 0.5))
    let settled = try #require(scene.renderTree(at: 0.5 + spring.duration).layer(id: "dot"))
    expectEqual(settled.position, Point(x: 90, y: 10))
    expectEqual(scene.renderTree(at: 2.9).layer(id: "dot")?.position, Point(x: 90, y: 10))
  }

  @Test func additiveCurvesStackOnTheModelValue() {
    let nudge = BasicAnimation(from: Point.zero, to: Point(x: 20, y: 0), duration: 1, timingFunction: .linear)
    let scene = Self.scene([
      LayerAnimation(layerID: "dot", property: .position, curve: nudge, additive: true),
      LayerAnimation(layerID: "dot", property: .position, curve: nudge, additive: true),
    ])
    expectEqual(scene.renderTree(at: 0.5).layer(id: "dot")?.position, Point(x: 30, y: 10))
    expectEqual(scene.renderTree(at: 2).layer(id: "dot")?.position, Point(x: 50, y: 10))
  }

  @Test func removedAndBackwardsFillsLetTheLayerReturnToItsValue() {
    let tween = BasicAnimation(from: 0.5, to: 0.0, duration: 1, timingFunction: .linear)
    for (fill, before, after) in [
      (MediaTiming.FillMode.removed, 1.0, 1.0), (.backwards, 0.5, 1.0), (.forwards, 1.0, 0.0), (.both, 0.5, 0.0),
    ] {
      let timed = TimedAnimation(tween, timing: MediaTiming(beginTime: 1, fillMode: fill))
      let scene = Self.scene([LayerAnimation(layerID: "dot", property: .opacity, timed: timed)])
      expectEqual(scene.renderTree(at: 0.5).layer(id: "dot")?.opacity, before, "\(fill) before")
      expectEqual(scene.renderTree(at: 1.5).layer(id: "dot")?.opacity, 0.25, "\(fill) during")
      expectEqual(scene.renderTree(at: 2.5).layer(id: "dot")?.opacity, after, "\(fill) after")
    }
  }

  @Test func mediaTimingRepeatsAndAutoreverses() {
    let tween = BasicAnimation(from: 0.0, to: 1.0, duration: 0.5, timingFunction: .linear)
    let timed = TimedAnimation(tween, timing: MediaTiming(beginTime: 1, repeatCount: 2, autoreverses: true))
    let scene = Self.scene([LayerAnimation(layerID: "dot", property: .opacity, timed: timed)])
    expectEqual(scene.renderTree(at: 0.5).layer(id: "dot")?.opacity, 1)  // before beginTime: untouched
    expectEqual(scene.renderTree(at: 1.25).layer(id: "dot")?.opacity, 0.5)  // forwards
    expectEqual(scene.renderTree(at: 1.75).layer(id: "dot")?.opacity, 0.5)  // reversing
    expectEqual(scene.renderTree(at: 2).layer(id: "dot")?.opacity, 0)  // end of first round trip
    // CA: with autoreverses one repeat is a round trip, so 2 repeats end at 1 + 2 × 2 × 0.5 = 3 s.
    let late = scene.renderTree(at: 2.9).layer(id: "dot")?.opacity ?? -1
    expectLess(abs(late - 0.2), 1e-9)
    expectEqual(scene.renderTree(at: 3.5).layer(id: "dot")?.opacity, 0)  // held after the last round trip
  }
}
