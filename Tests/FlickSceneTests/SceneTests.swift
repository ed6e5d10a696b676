import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@Suite struct SceneTests {
  @Test func frameFollowsAnchorPointAndPosition() {
    var layer = Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 200, y: 100))
    expectEqual(layer.frame, Rect(x: 150, y: 75, width: 100, height: 50))
    layer.anchorPoint = .zero
    expectEqual(layer.frame, Rect(x: 200, y: 100, width: 100, height: 50))
  }

  @Test func animationsWriteNestedLayersAndHoldAfterTheEnd() {
    let child = Layer(id: "child", bounds: Rect(x: 0, y: 0, width: 10, height: 10))
    let scene = Scene(
      size: Size(width: 100, height: 100), fps: 30, duration: 2,
      layers: [Layer(id: "parent", sublayers: [child])],
      animations: [
        LayerAnimation(
          layerID: "child", property: .opacity,
          tween: BasicAnimation(from: 1, to: 0, duration: 1, timingFunction: .linear), beginTime: 0.5)
      ])
    expectEqual(scene.renderTree(at: 0).layer(id: "child")?.opacity, 1)
    expectEqual(scene.renderTree(at: 1).layer(id: "child")?.opacity, 0.5)
    expectEqual(scene.renderTree(at: 1.9).layer(id: "child")?.opacity, 0)
    // The scene itself is never changed by sampling.
    expectEqual(scene.layers[0].sublayers[0].opacity, 1)
  }

  @Test func frameTimesAreExactMultiplesOfTheFramePeriod() {
    let scene = Scene(size: Size(width: 10, height: 10), fps: 30, duration: 2.5)
    expectEqual(scene.frameCount, 75)
    expectEqual(scene.time(ofFrame: 45), 1.5)
  }
}
