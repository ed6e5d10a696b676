import FlickExpectations
import FlickMotion
import Testing

@testable import FlickScene

/// A frame's cost grows with layers + animations, not with their product: the work
/// ``Scene/instantTree(at:work:)`` counts (layers visited, animations applied) stays within a
/// small multiple of the scene's size. Searching the whole tree once per animation (and looping
/// over every animation for every replicator copy) made 10,000 animated layers take 50 s.
@Suite struct AnimationScalingTests {
  static func box(_ id: String, _ sublayers: [Layer] = [], mask: Layer? = nil) -> Layer {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: 4, height: 4), position: Point(x: 2, y: 2), mask: mask,
      sublayers: sublayers)
  }

  static func fade(_ id: String, to value: Double, at begin: Double = 0) -> LayerAnimation {
    LayerAnimation(
      layerID: id, property: .opacity,
      tween: BasicAnimation(from: 1, to: value, duration: 1, timingFunction: .linear), beginTime: begin)
  }

  static func work(_ scene: Scene, at t: Double) -> Int {
    var work = 0
    _ = scene.instantTree(at: t, work: &work)
    return work
  }

  /// What applying each animation in order to the first layer with its id gives (the definition).
  static func oneByOne(_ scene: Scene, at t: Double) -> [Layer] {
    var roots = scene.layers
    for animation in scene.animations {
      for i in roots.indices where roots[i].withLayer(id: animation.layerID, { animation.apply(to: &$0, at: t) }) {
        break
      }
    }
    return roots
  }

  @Test func manyAnimatedLayersCostLinearWork() {
    // 900 layers in groups of three, the last 400 animated (the last layers are the ones a
    // search per animation reaches last).
    let groups = (0..<300).map { g in Self.box("g\(g)", [Self.box("a\(g)", [Self.box("b\(g)")])]) }
    let animations = (0..<400).map { i in Self.fade(i % 2 == 0 ? "a\(100 + i / 2)" : "b\(100 + i / 2)", to: 0.5) }
    let scene = Scene(size: Size(width: 8, height: 8), duration: 1, layers: groups, animations: animations)
    let work = Self.work(scene, at: 0.5)
    expectLessOrEqual(work, 3 * (900 + 400))
    expectEqual(scene.renderTree(at: 0.5).layers, Self.oneByOne(scene, at: 0.5))
  }

  @Test func replicatorCopiesSampleOnlyTheirSubtreesAnimations() {
    // 20 replicators × 99 delayed copies of one layer, and 500 animations on another layer:
    // each copy visits its own subtree, not the scene's animations.
    var r = LayerReplicator(instanceCount: 99)
    r.instanceDelay = 0.01
    let replicators = (0..<20).map { i in
      var layer = Self.box("rep\(i)", [Self.box("dot\(i)")])
      layer.replicator = r
      return layer
    }
    let animations =
      (0..<500).map { i in Self.fade("other", to: Double(i % 10) / 10, at: Double(i) * 0.001) }
      + (0..<20).map { Self.fade("dot\($0)", to: 0) }
    let scene = Scene(
      size: Size(width: 8, height: 8), duration: 3, layers: replicators + [Self.box("other")], animations: animations)
    let copies = 20 * 99
    expectLessOrEqual(Self.work(scene, at: 2), 3 * (20 + copies + animations.count))
  }

  @Test func animationsGoToTheFirstLayerWithTheIdInTreeOrderInTheirOrder() {
    // Duplicate ids (the first in tree order takes them: a layer, its sublayers, then its mask),
    // masks, and several animations of one property (the later one wins while it runs).
    let layers = [
      Self.box("p", [Self.box("x"), Self.box("m")], mask: Self.box("x", [Self.box("y")])),
      Self.box("q", [Self.box("y"), Self.box("x")], mask: Self.box("k")),
      Self.box("x"),
    ]
    let animations = [
      Self.fade("x", to: 0.2), Self.fade("y", to: 0.3), Self.fade("x", to: 0.7, at: 0.25), Self.fade("k", to: 0),
      Self.fade("missing", to: 0), Self.fade("q", to: 0.1), Self.fade("y", to: 0.9, at: 0.5), Self.fade("m", to: 0.4),
    ]
    let scene = Scene(size: Size(width: 8, height: 8), duration: 2, layers: layers, animations: animations)
    for t in [0, 0.3, 0.6, 1.5] {
      expectEqual(scene.renderTree(at: t).layers, Self.oneByOne(scene, at: t))
    }
    // The first "x" (p's sublayer) at 0.6: the later fade, 35 % of the way from 1 to 0.7.
    expectLess(abs(scene.renderTree(at: 0.6).layers[0].sublayers[0].opacity - 0.895), 1e-9)
    expectEqual(scene.renderTree(at: 0.6).layers[2].opacity, 1)
  }
}
