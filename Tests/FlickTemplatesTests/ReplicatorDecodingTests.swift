import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// The replicator keys (`instanceCount` …) and backdrop materials (`material`, `backdrop`) in templates.
@Suite struct ReplicatorDecodingTests {
  static func decode(_ layer: String) throws(TemplateError) -> Template {
    try Template.decode(
      "{ flick: 1, canvas: { width: 200, height: 200, duration: 1 }, layers: [\(layer)] }", file: "t.json5")
  }

  static func message(_ layer: String) -> String {
    do {
      _ = try decode(layer)
      return ""
    } catch {
      return error.description
    }
  }

  @Test func decodesEveryReplicatorKey() throws {
    let t = try Self.decode(
      """
      { id: "dots", type: "replicator", size: [100, 100], instanceCount: 8, instanceTransform: { rotation: "45deg", translation: [0, 4] },
        instanceDelay: 0.05, instanceColor: "#FF000080", instanceRedOffset: -0.1, instanceGreenOffset: 0.2,
        instanceBlueOffset: 0.3, instanceAlphaOffset: -0.05, sublayers: [{ id: "dot", size: [8, 8] }] }
      """)
    let r = t.scene.layers[0].replicator
    expectEqual(r.instanceCount, 8)
    expectEqual(r.instanceDelay, 0.05)
    expectLess(abs(r.instanceTransform.rotation - .pi / 4), 1e-12)
    expectEqual(r.instanceTransform.translation, Point(x: 0, y: 4))
    expectEqual(r.instanceColor, Color(hex: "#FF000080"))
    expectEqual(r.instanceRedOffset, -0.1)
    expectEqual(r.instanceGreenOffset, 0.2)
    expectEqual(r.instanceBlueOffset, 0.3)
    expectEqual(r.instanceAlphaOffset, -0.05)
    // Replicating is a property of any layer: a shape layer replicates its sublayers too.
    let shape = try Self.decode(#"{ id: "s", path: "M0 0 L10 10", instanceCount: 3, sublayers: [{ id: "c" }] }"#)
    expectEqual(shape.scene.layers[0].replicator.instanceCount, 3)
    // A layer without the keys does not replicate.
    #expect(try Self.decode(#"{ id: "plain" }"#).scene.layers[0].replicator.isNone)
  }

  @Test func badReplicatorValuesNameTheKeyAndRange() {
    #expect(Self.message(#"{ id: "r", instanceCount: 101 }"#).contains("instanceCount"))
    #expect(Self.message(#"{ id: "r", instanceCount: 101 }"#).contains("0…100"))
    #expect(Self.message(#"{ id: "r", instanceCount: 2.5 }"#).contains("whole number"))
    #expect(Self.message(#"{ id: "r", instanceAlphaOffset: 2 }"#).contains("-1…1"))
    #expect(Self.message(#"{ id: "r", instanceTransform: { skew: 1 } }"#).contains("unknown key 'skew'"))
    #expect(Self.message(#"{ id: "r", instanceCont: 3 }"#).contains("did you mean 'instanceCount'"))
  }

  @Test func decodesMaterialPresetsAndExplicitNumbers() throws {
    for m in LayerBackdrop.Material.allCases {
      let t = try Self.decode(#"{ id: "g", size: [10, 10], material: "\#(m.rawValue)" }"#)
      expectEqual(t.scene.layers[0].backdrop, LayerBackdrop(m))
    }
    let custom = try Self.decode(##"{ id: "g", material: "thin", backdrop: { blur: 30, tint: "#00000033" } }"##)
    expectEqual(
      custom.scene.layers[0].backdrop,
      LayerBackdrop(
        blurRadius: 30, saturation: LayerBackdrop(.thin).saturation, tint: Color(hex: "#00000033") ?? .clear))
    let bare = try Self.decode(#"{ id: "g", backdrop: { saturation: 1 } }"#)
    expectEqual(
      bare.scene.layers[0].backdrop, LayerBackdrop(blurRadius: 20, saturation: 1, tint: LayerBackdrop(.regular).tint))
    #expect(try Self.decode(#"{ id: "g" }"#).scene.layers[0].backdrop == nil)
  }

  @Test func badMaterialsSuggestTheName() {
    #expect(Self.message(#"{ id: "g", material: "thck" }"#).contains("did you mean 'thick'"))
    #expect(Self.message(#"{ id: "g", backdrop: { blur: 300 } }"#).contains("0…250"))
    #expect(Self.message(#"{ id: "g", backdrop: { radius: 3 } }"#).contains("unknown key 'radius'"))
  }
}
