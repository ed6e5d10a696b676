import FlickExpectations
import FlickMotion
import FlickScene
import Testing

/// A scene built in Swift whose replicators multiply past ``LayerReplicator/maximumDrawnInstances``
/// is refused by ``Scene/validate()`` (which every render runs first) instead of hanging.
@Suite struct ReplicatorCapSceneTests {
  static func nested(_ levels: Int, count: Int) -> Scene {
    var layer = Layer(id: "dot", bounds: Rect(x: 0, y: 0, width: 1, height: 1), backgroundColor: .black)
    for level in (0..<levels).reversed() {
      layer = Layer(
        id: "r\(level)", bounds: Rect(x: 0, y: 0, width: 10, height: 10), sublayers: [layer],
        replicator: LayerReplicator(instanceCount: count))
    }
    return Scene(size: Size(width: 100, height: 100), duration: 1, layers: [layer])
  }

  @Test func copiesMultiplyAcrossNesting() {
    expectEqual(Self.nested(1, count: 7).replicatedLayerCount, 7)
    expectEqual(Self.nested(2, count: 10).replicatedLayerCount, 10 + 100)
    expectEqual(Self.nested(3, count: 0).replicatedLayerCount, 0)
    // Sixty-four levels of 100 saturate rather than overflow.
    expectEqual(Self.nested(64, count: 100).replicatedLayerCount, 1 << 60)
  }

  @Test func validateRefusesScenesPastTheCap() throws {
    // 21 + 441 + 9,261 copies, drawn 67 levels deep (two levels of 99 are within the copy cap but
    // drawn 201 levels deep: `Layer.maximumDrawingDepth` refuses them).
    #expect(throws: Never.self) { try Self.nested(3, count: 21).validate() }
    for levels in [3, 6] {
      let error = try #require(throws: SceneError.self) { try Self.nested(levels, count: 100).validate() }
      expectEqual(error.call, "layer \"r0\"", "\(error)")
      #expect(error.reason.contains("more than the cap of 10000"), "\(error.reason)")
    }
  }
}
