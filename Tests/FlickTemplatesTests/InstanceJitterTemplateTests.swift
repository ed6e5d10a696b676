import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Testing

/// `instanceJitter` in templates: its keys, ranges and suggestions, and the same pixels for one
/// seed (other pixels for another), under parameters too.
@Suite struct InstanceJitterTemplateTests {
  static func template(_ jitter: String, set: String = "7") throws(TemplateError) -> Template {
    try Template.decode(
      """
      { flick: 1, parameters: { seed: { type: "integer", minimum: 0, maximum: 1000, default: \(set) } },
        canvas: { width: 120, height: 120, duration: 1, background: "#FFFFFF" },
        layers: [{ id: "burst", type: "replicator", size: [120, 120], position: [60, 60], instanceCount: 12,
                   instanceTransform: { rotation: "30deg" }, instanceJitter: \(jitter),
                   sublayers: [{ id: "piece", size: [6, 10], position: [60, 20], backgroundColor: "#F43F5E" }] }] }
      """, file: "j.json5")
  }

  static func message(_ jitter: String) -> String {
    do {
      _ = try template(jitter)
      return ""
    } catch {
      return error.description
    }
  }

  static func pixels(_ t: Template) throws -> [UInt8] {
    Array(try Renderer().render(t.scene.renderTree(at: 0)).pngData())
  }

  @Test func decodesEveryKey() throws {
    let t = try Self.template(
      #"{ seed: 3, position: [4, 6], scale: 0.2, rotation: "10deg", opacity: 0.5, delay: 0.1 }"#)
    let j = try #require(t.scene.layers[0].replicator.instanceJitter)
    expectEqual(j.seed, 3)
    expectEqual(j.position, Point(x: 4, y: 6))
    expectEqual(j.scale, 0.2)
    expectEqual(j.opacity, 0.5)
    expectEqual(j.delay, 0.1)
    expectLess(abs(j.rotation - .pi / 18), 1e-12)
    try expectEqual(
      Self.template("{ seed: 1, position: 5 }").scene.layers[0].replicator.instanceJitter?.position, Point(x: 5, y: 5))
  }

  @Test func badJitterIsRefusedWithWhatToWrite() {
    #expect(Self.message("{ position: [1, 1] }").contains("needs a 'seed'"))
    #expect(Self.message("{ seed: 1, scale: 1.5 }").contains("0…0.99"))
    #expect(Self.message("{ seed: 1, opacity: 2 }").contains("0…1"))
    #expect(Self.message("{ seed: 1.5 }").contains("whole number"))
    #expect(Self.message("{ seed: 1, position: [-1, 2] }").contains("0…100000"))
    #expect(Self.message("{ seed: 1, rotaton: 1 }").contains("did you mean 'rotation'"))
  }

  @Test func oneSeedOnePictureAndParametersChooseIt() throws {
    let jitter = #"{ seed: "$seed", position: [6, 6], rotation: 0.6, scale: 0.3, opacity: 0.5 }"#
    let a = try Self.pixels(try Self.template(jitter))
    try expectEqual(a, Self.pixels(try Self.template(jitter)))
    try expectNotEqual(a, Self.pixels(try Self.template(jitter, set: "8")))
    try expectNotEqual(a, Self.pixels(try Self.template("{ seed: 7 }")))
  }
}
