import FlickMotion
@testable import FlickScene
import FlickExpectations
import Testing

/// `instanceJitter`: seeded per-instance offsets from SplitMix64, the same on every machine.
@Suite struct InstanceJitterTests {
  @Test func theGeneratorIsSplitMix64() {
    // The reference outputs of SplitMix64 (Vigna's splitmix64.c) for seeds 0 and 1234567.
    expectEqual(InstanceJitter.splitMix64(seed: 0, index: 0), 0xE220_A839_7B1D_CDAF)
    expectEqual(InstanceJitter.splitMix64(seed: 0, index: 1), 0x6E78_9E6A_A1B9_65F4)
    expectEqual(InstanceJitter.splitMix64(seed: 0, index: 2), 0x06C4_5D18_8009_454F)
    expectEqual(InstanceJitter.splitMix64(seed: 1_234_567, index: 0), 6_457_827_717_110_365_317)
    expectEqual(InstanceJitter.splitMix64(seed: 1_234_567, index: 1), 3_203_168_211_198_807_973)
  }

  static let jitter = InstanceJitter(
    seed: 7, position: Point(x: 12, y: 5), scale: 0.3, rotation: 0.5, opacity: 0.6, delay: 0.25)

  @Test func sameSeedSameOffsetsAndExactValues() {
    let again = InstanceJitter(
      seed: 7, position: Point(x: 12, y: 5), scale: 0.3, rotation: 0.5, opacity: 0.6, delay: 0.25)
    for k in 0..<50 { expectEqual(Self.jitter.offsets(ofInstance: k), again.offsets(ofInstance: k)) }
    // Instance 2 takes outputs 12…17 of the stream: x first.
    let x = Double(InstanceJitter.splitMix64(seed: 7, index: 12) >> 11) * 0x1p-52 - 1
    expectEqual(Self.jitter.offsets(ofInstance: 2).translation.x, 12 * x)
    let d = Double(InstanceJitter.splitMix64(seed: 7, index: 17) >> 11) * 0x1p-52 - 1
    expectEqual(Self.jitter.offsets(ofInstance: 2).delay, 0.25 * d)
  }

  @Test func everyOffsetStaysInsideItsAmplitude() {
    var seen = (minX: 0.0, maxX: 0.0, minOpacity: 1.0)
    for k in 0..<2000 {
      let o = Self.jitter.offsets(ofInstance: k)
      expectLessOrEqual(abs(o.translation.x), 12)
      expectLessOrEqual(abs(o.translation.y), 5)
      expectGreaterOrEqual(o.scale, 0.7)
      expectLess(o.scale, 1.3)
      expectLessOrEqual(abs(o.rotation), 0.5)
      expectLessOrEqual(abs(o.delay), 0.25)
      expectGreater(o.opacity, 0.4)
      expectLessOrEqual(o.opacity, 1)
      seen = (min(seen.minX, o.translation.x), max(seen.maxX, o.translation.x), min(seen.minOpacity, o.opacity))
    }
    // The draws cover the range (uniform: 2000 of them come near both ends).
    expectLess(seen.minX, -11.5)
    expectGreater(seen.maxX, 11.5)
    expectLess(seen.minOpacity, 0.45)
    // No amplitude, no change.
    let none = InstanceJitter(seed: 3).offsets(ofInstance: 4)
    expectEqual(none.transform, .identity)
    expectEqual(none.opacity, 1)
    expectEqual(none.delay, 0)
  }

  @Test func aDifferentSeedGivesDifferentInstances() {
    var other = Self.jitter
    other.seed = 8
    let differing = (0..<20).filter { Self.jitter.offsets(ofInstance: $0) != other.offsets(ofInstance: $0) }
    expectEqual(differing.count, 20)
    // Instances differ from each other under one seed.
    expectEqual(Set((0..<20).map { Self.jitter.offsets(ofInstance: $0).translation.x }).count, 20)
  }

  @Test func theSceneAppliesTheJitterPerInstance() {
    let dot = Layer(id: "dot", bounds: Rect(x: 0, y: 0, width: 4, height: 4), position: Point(x: 50, y: 50))
    var r = LayerReplicator(instanceCount: 3)
    r.instanceJitter = InstanceJitter(seed: 11, position: Point(x: 20, y: 20), opacity: 0.5)
    let rep = Layer(
      id: "rep", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50), sublayers: [dot],
      replicator: r)
    let scene = Scene(size: Size(width: 100, height: 100), duration: 1, layers: [rep])
    let tree = scene.renderTree(at: 0)
    for k in 0..<3 {
      let o = r.instanceJitter!.offsets(ofInstance: k)
      let holder = tree.layer(id: "rep#\(k)~")
      expectEqual(holder?.transform.translation, o.translation)
      expectEqual(tree.layer(id: "rep#\(k)")?.colorMultiplier.alpha, o.opacity)
    }
    // Without jitter there is no extra holder.
    var plain = scene
    plain.layers[0].replicator.instanceJitter = nil
    #expect(plain.renderTree(at: 0).layer(id: "rep#0~") == nil)
  }

  @Test func theDelayJitterShiftsEachInstancesClock() {
    let dot = Layer(id: "dot", bounds: Rect(x: 0, y: 0, width: 4, height: 4), position: Point(x: 0, y: 50))
    var r = LayerReplicator(instanceCount: 4)
    r.instanceJitter = InstanceJitter(seed: 5, delay: 0.4)
    let rep = Layer(
      id: "rep", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50), sublayers: [dot],
      replicator: r)
    let move = LayerAnimation(
      layerID: "dot", property: .positionX, beginTime: 0, duration: 1, value: { 100 * min(max($0, 0), 1) })
    let scene = Scene(size: Size(width: 100, height: 100), duration: 2, layers: [rep], animations: [move])
    let tree = scene.renderTree(at: 0.5)
    for k in 0..<4 {
      let d = r.instanceJitter!.offsets(ofInstance: k).delay
      let x = tree.layer(id: "rep#\(k)~")?.sublayers.first?.position.x ?? -1
      expectLess(abs(x - 100 * min(max(0.5 - d, 0), 1)), 1e-9, "instance \(k)")
    }
  }
}
