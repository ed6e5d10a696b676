import FlickExpectations
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
    expectEqual(card.cornerRadius, 16)
    expectEqual(card.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
    expectEqual(card.zPosition, 2)
    #expect(!card.isHidden)
    #expect(!card.isDoubleSided)
    #expect(card.masksToBounds)
    expectEqual(card.transform.translation, Point(x: 4, y: -2))
    expectEqual(card.transform.scale, Point(x: 1.1, y: 0.9))
    expectLess(abs(card.transform.rotation - .pi / 2), 1e-12)
    expectEqual(card.transform.rotationY, 0.5)
    expectEqual(card.transform.perspective, 600)
    expectEqual(card.borderWidth, 2)
    expectEqual(card.borderColor, Color(hex: "#11223380"))
    expectEqual(card.shadowOpacity, 0.3)
    expectEqual(card.shadowRadius, 12)
    expectEqual(card.shadowOffset, Point(x: 0, y: 6))
    expectEqual(card.shadowPath, .roundedRect(Rect(x: 0, y: 0, width: 200, height: 120), cornerRadius: 16))
    expectEqual(card.contents?.path, Self.fixtures.appendingPathComponent("checker.png").standardizedFileURL.path)
    expectEqual(card.contentsGravity, .resizeAspectFill)
    expectEqual(card.mask?.id, "cardMask")
    expectEqual(card.mask?.backgroundColor, .black)
  }

  @Test func decodesShapeTextAndGradientKinds() throws {
    let t = try Self.load("all-kinds.json5")
    let tree = t.scene.renderTree(at: 0)
    let ring = try #require(tree.layer(id: "ring")?.shape)
    expectEqual(ring.fillColor, .clear)
    expectEqual(ring.strokeColor, Color(hex: "#22C55E"))
    expectEqual(ring.lineWidth, 8)
    expectEqual(ring.lineCap, .round)
    expectEqual(ring.lineJoin, .bevel)
    expectEqual(ring.miterLimit, 4)
    expectEqual(ring.lineDashPattern, [6, 3])
    expectEqual(ring.lineDashPhase, 1)
    expectEqual(ring.strokeStart, 0.1)
    expectEqual(ring.strokeEnd, 0.75)
    expectEqual(ring.fillRule, .evenOdd)
    expectLess(abs(ring.path.length - 2 * .pi * 40), 0.1)
    // A 'path' key alone makes a shape layer.
    expectEqual(tree.layer(id: "svg")?.shape?.path, (try ShapePath(svgPathData: "M0 0 L10 0 L10 10 Z")))
    let title = try #require(tree.layer(id: "title")?.text)
    expectEqual(title.string, "Hello")
    expectEqual(title.fontFamily, "Inter")
    expectEqual(title.fontSize, 22)
    expectEqual(title.fontWeight, .semibold)
    expectEqual(title.fontStyle, .italic)
    expectEqual(title.alignment, .center)
    #expect(!title.isWrapped)
    expectEqual(title.lineSpacing, 4)
    expectEqual(title.tracking, 1.5)
    expectEqual(title.truncationMode, .end)
    expectEqual(tree.layer(id: "weight")?.text?.fontWeight, .bold)
    let sky = try #require(tree.layer(id: "sky")?.gradient)
    expectEqual(sky.kind, .radial)
    expectEqual(sky.colors.colors.count, 2)
    expectEqual(sky.locations, [0.2, 0.9])
    expectEqual(sky.startPoint, Point(x: 0.5, y: 0.5))
    expectEqual(sky.endPoint, Point(x: 1, y: 1))
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
    expectEqual(layer.transform.rotation, 1.5)
    expectLess(abs(layer.transform.rotationX - .pi / 4), 1e-12)
  }

  /// Cairo walks every dash of a curve: 0.11-point dashes round a 10⁶-point curve took 14 s. A
  /// pattern that makes more than a million dashes along its path is refused; a long pattern on
  /// the same path, and a fine one on a short path, are drawn.
  @Test func dashPatternsTinyAgainstTheirPathAreRefused() throws {
    func shape(_ path: String, _ dashes: String) -> String {
      "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }, layers: [ { id: 'a', path: '\(path)', "
        + "strokeColor: '#fff', lineDashPattern: \(dashes) } ] }"
    }
    let curve = "M -1e6 32 C 1e6 -1e6 1e6 1e6 -1e6 -1e6 Z"
    do {
      _ = try Template.decode(shape(curve, "[0.11, 0.11]"))
      Issue.record("decoded")
    } catch {
      #expect(error.description.contains("lineDashPattern"), "\(error)")
      #expect(error.description.contains("dashes along this path; up to 1000000 are drawn"), "\(error)")
    }
    _ = try Template.decode(shape(curve, "[8, 8]"))
    _ = try Template.decode(shape("M 0 0 L 100 0", "[0.01, 0.01]"))
  }
}
