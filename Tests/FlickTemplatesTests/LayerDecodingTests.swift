import FlickMotion
import FlickScene
import FlickTemplates
import Foundation
import Testing

@Suite struct LayerDecodingTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/layers")

  static func load(_ name: String) throws(TemplateError) -> Template {
    try Template.load(path: fixtures.appendingPathComponent(name).path)
  }

  @Test func decodesEveryBaseField() throws {
    let t = try Self.load("all-kinds.json5")
    let card = try #require(t.scene.layers.first)
    #expect(card.cornerRadius == 16 && card.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
    #expect(card.zPosition == 2 && !card.isHidden && !card.isDoubleSided && card.masksToBounds)
    #expect(card.transform.translation == Point(x: 4, y: -2) && card.transform.scale == Point(x: 1.1, y: 0.9))
    #expect(abs(card.transform.rotation - .pi / 2) < 1e-12 && card.transform.rotationY == 0.5)
    #expect(card.transform.perspective == 600)
    #expect(card.borderWidth == 2 && card.borderColor == Color(hex: "#11223380"))
    #expect(card.shadowOpacity == 0.3 && card.shadowRadius == 12 && card.shadowOffset == Point(x: 0, y: 6))
    #expect(card.shadowPath == .roundedRect(Rect(x: 0, y: 0, width: 200, height: 120), cornerRadius: 16))
    #expect(card.contents?.path == Self.fixtures.appendingPathComponent("checker.png").standardizedFileURL.path)
    #expect(card.contentsGravity == .resizeAspectFill)
    #expect(card.mask?.id == "cardMask" && card.mask?.backgroundColor == .black)
  }

  @Test func decodesShapeTextAndGradientKinds() throws {
    let t = try Self.load("all-kinds.json5")
    let tree = t.scene.renderTree(at: 0)
    let ring = try #require(tree.layer(id: "ring")?.shape)
    #expect(ring.fillColor == .clear && ring.strokeColor == Color(hex: "#22C55E") && ring.lineWidth == 8)
    #expect(ring.lineCap == .round && ring.lineJoin == .bevel && ring.miterLimit == 4)
    #expect(ring.lineDashPattern == [6, 3] && ring.lineDashPhase == 1)
    #expect(ring.strokeStart == 0.1 && ring.strokeEnd == 0.75 && ring.fillRule == .evenOdd)
    #expect(abs(ring.path.length - 2 * .pi * 40) < 0.1)
    // A 'path' key alone makes a shape layer.
    #expect(tree.layer(id: "svg")?.shape?.path == (try ShapePath(svgPathData: "M0 0 L10 0 L10 10 Z")))
    let title = try #require(tree.layer(id: "title")?.text)
    #expect(title.string == "Hello" && title.fontFamily == "Inter" && title.fontSize == 22)
    #expect(title.fontWeight == .semibold && title.fontStyle == .italic && title.alignment == .center)
    #expect(!title.isWrapped && title.lineSpacing == 4 && title.tracking == 1.5 && title.truncationMode == .end)
    #expect(tree.layer(id: "weight")?.text?.fontWeight == .bold)
    let sky = try #require(tree.layer(id: "sky")?.gradient)
    #expect(sky.kind == .radial && sky.colors.colors.count == 2 && sky.locations == [0.2, 0.9])
    #expect(sky.startPoint == Point(x: 0.5, y: 0.5) && sky.endPoint == Point(x: 1, y: 1))
  }

  @Test(arguments: [
    ("bad-kind-key.json5", ":4:62: layers[0].fillColor: 'fillColor' belongs to shape layers, but this is a text layer"),
    ("bad-svg.json5", "layers[0].path: invalid SVG path data: character 11: expected a number"),
    ("missing-image.json5", "layers[0].contents: image \"nope.png\": no such file"),
    ("mixed-kinds.json5", "layers[0]: cannot tell the layer's type: it has keys of text and gradient layers"),
    ("bad-locations.json5", "layers[0].locations: expected 2 locations, one per colour, found 1"),
  ])
  func badLayersNameTheProblem(file: String, message: String) throws {
    do {
      _ = try Self.load(file)
      Issue.record("\(file) decoded without an error")
    } catch {
      #expect(error.description.contains(message), "\(error.description)")
      #expect(error.description.contains(file))
    }
  }

  @Test func unknownKeysSuggestTheClosestLayerKey() throws {
    let text = "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }, layers: [ { id: 'a', shadowRadus: 3 } ] }"
    #expect(throws: TemplateError.self) { try Template.decode(text) }
    do {
      _ = try Template.decode(text)
    } catch {
      #expect(error.description.contains("did you mean 'shadowRadius'?"))
    }
  }

  @Test func pathHelpersRejectStrayKeys() {
    let text =
      "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }, layers: [ { id: 'a', path: { rect: [0, 0, 5, 5], radius: 3 } } ] }"
    do {
      _ = try Template.decode(text)
      Issue.record("decoded")
    } catch {
      #expect(error.description.contains("'radius' does not apply to a 'rect' shape"))
    }
  }

  @Test func anglesAcceptRadiansOrDegrees() throws {
    let text =
      "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }, layers: [ { id: 'a', transform: { rotation: 1.5, rotationX: '45deg' } } ] }"
    let layer = try #require(try Template.decode(text).scene.layers.first)
    #expect(layer.transform.rotation == 1.5 && abs(layer.transform.rotationX - .pi / 4) < 1e-12)
  }
}
