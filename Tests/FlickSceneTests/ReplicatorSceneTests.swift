import FlickExpectations
import FlickMotion
import FlickScene
import Testing

/// `Scene.renderTree(at:)` expands a layer's ``Layer/replicator`` into its instances.
@Suite struct ReplicatorSceneTests {
  static let dot = Layer(
    id: "dot", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 5, y: 5), backgroundColor: .black)

  static func scene(_ r: LayerReplicator, animations: [LayerAnimation] = []) -> Scene {
    let replicator = Layer(
      id: "rep", bounds: Rect(x: 0, y: 0, width: 100, height: 40), position: Point(x: 50, y: 20), sublayers: [dot],
      replicator: r)
    return Scene(size: Size(width: 100, height: 100), duration: 2, layers: [replicator], animations: animations)
  }

  /// Instance k's copy of `dot`, walking the holder chain of the expanded tree.
  static func instances(_ tree: RenderTree) -> [Layer] {
    var out: [Layer] = []
    var level = tree.layers[0].sublayers
    while !level.isEmpty {
      out.append(level[0])
      level = level.count > 1 ? level[1].sublayers : []
    }
    return out
  }

  @Test func instancesChainTheTransformAndStepTheColour() {
    var r = LayerReplicator(instanceCount: 4, instanceTransform: LayerTransform(translation: Point(x: 20, y: 0)))
    r.instanceColor = Color(red: 1, green: 1, blue: 1, alpha: 0.9)
    r.instanceAlphaOffset = -0.25
    r.instanceRedOffset = -0.5
    let tree = Self.scene(r).renderTree(at: 0)
    let rep = tree.layers[0]
    #expect(rep.replicator.isNone)
    let instances = Self.instances(tree)
    expectEqual(instances.count, 4)
    expectEqual(instances.map { $0.sublayers.first?.id }, ["dot", "dot", "dot", "dot"])
    // Holders cover the replicator's bounds exactly, so their coordinates are the replicator's.
    expectEqual(instances[0].frame, rep.bounds)
    expectEqual(instances[0].colorMultiplier, Color(red: 1, green: 1, blue: 1, alpha: 0.9))
    expectLess(abs(instances[3].colorMultiplier.alpha - 0.15), 1e-12)
    expectEqual(instances[3].colorMultiplier.red, 0)  // 1 − 3 × 0.5, clamped
    // Links of the chain carry the transform: instance k is under k of them.
    let link = tree.layers[0].sublayers[1]
    expectEqual(link.transform.translation, Point(x: 20, y: 0))
    expectEqual(link.sublayers[1].transform.translation, Point(x: 20, y: 0))
  }

  @Test func countZeroDrawsNoSublayersAndTheDefaultChangesNothing() {
    #expect(Self.scene(LayerReplicator(instanceCount: 0)).renderTree(at: 0).layers[0].sublayers.isEmpty)
    let plain = Self.scene(.none).renderTree(at: 0)
    expectEqual(plain.layers[0].sublayers, [Self.dot])
    expectEqual(LayerReplicator(instanceCount: 1000).clampedInstanceCount, LayerReplicator.maximumInstanceCount)
  }

  @Test func instanceDelaySamplesEachCopyEarlier() {
    let fade = LayerAnimation(
      layerID: "dot", property: .opacity, tween: BasicAnimation(from: 0, to: 1, duration: 1, timingFunction: .linear),
      beginTime: 0.2)
    let scene = Self.scene(LayerReplicator(instanceCount: 4, instanceDelay: 0.25), animations: [fade])
    let opacities = Self.instances(scene.renderTree(at: 0.8)).map { $0.sublayers[0].opacity }
    // Instance k is at t − 0.25·k: 0.8, 0.55, 0.3, 0.05 (before the fade begins: the base value 1).
    let expected = [0.6, 0.35, 0.1, 1]
    for (o, e) in zip(opacities, expected) { expectLess(abs(o - e), 1e-9) }
    // Without a delay every copy shows the same instant.
    let together = Self.scene(LayerReplicator(instanceCount: 3), animations: [fade])
    #expect(
      Self.instances(together.renderTree(at: 0.8)).map { $0.sublayers[0].opacity }.allSatisfy { abs($0 - 0.6) < 1e-9 })
  }

  @Test func nestedReplicatorsExpandAtTheirInstanceTime() {
    let fade = LayerAnimation(
      layerID: "dot", property: .opacity, tween: BasicAnimation(from: 0, to: 1, duration: 1, timingFunction: .linear))
    let row = Layer(
      id: "row", bounds: Rect(x: 0, y: 0, width: 100, height: 10), position: Point(x: 50, y: 5), sublayers: [Self.dot],
      replicator: LayerReplicator(instanceCount: 2, instanceDelay: 0.1))
    let grid = Layer(
      id: "grid", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50), sublayers: [row],
      replicator: LayerReplicator(instanceCount: 2, instanceDelay: 0.3))
    let scene = Scene(size: Size(width: 100, height: 100), duration: 2, layers: [grid], animations: [fade])
    let tree = scene.renderTree(at: 0.5)
    let rows = Self.instances(tree)  // holders of the grid's instances, each holding one expanded row
    expectEqual(rows.count, 2)
    func dots(_ holder: Layer) -> [Double] {
      let rowLayer = holder.sublayers[0]
      var out: [Double] = []
      var level = rowLayer.sublayers
      while !level.isEmpty {
        out.append(level[0].sublayers[0].opacity)
        level = level.count > 1 ? level[1].sublayers : []
      }
      return out
    }
    let a = dots(rows[0]), b = dots(rows[1])
    for (o, e) in zip(a + b, [0.5, 0.4, 0.2, 0.1]) { expectLess(abs(o - e), 1e-9) }
  }

  /// A mask replicates as any layer does, in a layer or in a sublayer's mask, with the delayed
  /// copies' animations: Core Animation's replicator works wherever the layer sits.
  @Test func aMaskReplicatesAsALayerDoes() {
    var r = LayerReplicator(instanceCount: 3, instanceTransform: LayerTransform(translation: Point(x: 20, y: 0)))
    r.instanceDelay = 0.5
    let mask = Layer(
      id: "m", bounds: Rect(x: 0, y: 0, width: 100, height: 40), position: Point(x: 50, y: 20),
      sublayers: [Self.dot], replicator: r)
    let box = Layer(
      id: "box", bounds: Rect(x: 0, y: 0, width: 100, height: 40), position: Point(x: 50, y: 20),
      backgroundColor: .black, mask: mask)
    let parent = Layer(
      id: "parent", bounds: Rect(x: 0, y: 0, width: 100, height: 40), position: Point(x: 50, y: 20),
      mask: box)
    let fade = LayerAnimation(
      layerID: "dot", property: .opacity, tween: BasicAnimation(from: 0, to: 1, duration: 1, timingFunction: .linear))
    for top in [box, parent] {
      let scene = Scene(size: Size(width: 100, height: 100), duration: 2, layers: [top], animations: [fade])
      let tree = scene.renderTree(at: 1)
      let masked = top.id == "parent" ? tree.layers[0].mask : tree.layers[0]
      guard let expanded = masked?.mask else {
        Issue.record("\(top.id): no mask")
        continue
      }
      #expect(expanded.replicator.isNone, "\(top.id)")
      var dots: [Layer] = []
      var level = expanded.sublayers
      while !level.isEmpty {
        dots.append(level[0].sublayers[0])
        level = level.count > 1 ? level[1].sublayers : []
      }
      expectEqual(dots.map(\.opacity), [1, 0.5, 0], "\(top.id)")
    }
  }
}
