import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// ``DecodeObserver``: told the canvas before the layers exist, then the layers as the template
/// wrote them (constraints applied, font files known) before the timeline compiles, once each.
@Suite struct DecodeObserverTests {
  static let source = """
    { flick: 1, canvas: { width: 400, height: 300, fps: 30, duration: 2, background: "#101010" },
      layers: [
        { id: "card", size: [200, 100], position: [200, 150], backgroundColor: "#FFFFFF", sublayers: [
          { id: "title", type: "text", string: "Hello", fontSize: 20, size: [40, 20],
            constraints: { left: 10, right: 10, top: 10, height: 30 } } ] },
      ],
      timeline: [ { at: 0.5, target: "card", animate: { size: [300, 200] }, curve: "linear", duration: 1 } ] }
    """

  @Test func theCanvasComesFirstThenTheLayersBeforeTheTimeline() throws {
    let seen = Locked<[(stage: String, scene: Scene)]>([])
    var options = TemplateOptions()
    options.decodeObserver = DecodeObserver(
      canvas: { scene in seen.withLock { $0.append(("canvas", scene)) } },
      layers: { scene in seen.withLock { $0.append(("layers", scene)) } })
    let template = try Template.decode(Self.source, file: "observed.json5", options: options)
    let calls = seen.withLock { $0 }
    expectEqual(calls.map(\.stage), ["canvas", "layers"])
    #expect(calls[0].scene.layers.isEmpty)
    expectEqual(calls[0].scene.size, Size(width: 400, height: 300))
    let layers = calls[1].scene
    // The layers as decoded, the constraint already applied; no animation compiled yet.
    expectEqual(layers.layers.map(\.id), template.scene.layers.map(\.id))
    expectEqual(layers.layers[0].sublayers[0].bounds.size, Size(width: 180, height: 30))
    expectEqual(layers.layers[0].sublayers[0].text?.string, "Hello")
    #expect(layers.animations.isEmpty)
    #expect(!template.scene.animations.isEmpty)
  }

  @Test func aTemplateThatFailsBeforeItsLayersTellsNoLayers() {
    let seen = Locked<[String]>([])
    var options = TemplateOptions()
    options.decodeObserver = DecodeObserver(
      canvas: { _ in seen.withLock { $0.append("canvas") } }, layers: { _ in seen.withLock { $0.append("layers") } })
    let broken = Self.source.replacingOccurrences(of: "type: \"text\"", with: "type: \"texte\"")
    #expect(throws: TemplateError.self) { try Template.decode(broken, file: "broken.json5", options: options) }
    expectEqual(seen.withLock { $0 }, ["canvas"])
  }
}
