import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Testing

/// No silent traps: a text layer without a `size` sizes itself to its text, and a layer key that
/// names a property living elsewhere says where it lives.
@Suite struct SilentTrapTests {
  static func decode(_ layer: String) throws(TemplateError) -> Template {
    try Template.decode(
      "{ flick: 1, canvas: { width: 300, height: 100, duration: 1 }, layers: [\(layer)] }", file: "t.json5")
  }

  static func message(_ layer: String) -> String {
    do {
      _ = try decode(layer)
      return ""
    } catch {
      return error.description
    }
  }

  // MARK: - Text without a size

  @Test func aTextLayerWithoutSizeSizesItselfToItsText() throws {
    let font = #"fontFamily: "DejaVu Sans", fontSize: 20, position: [150, 50]"#
    let short = try Self.decode(#"{ id: "t", string: "Hi", "# + font + " }")
    let long = try Self.decode(#"{ id: "t", string: "Hi there", "# + font + " }")
    let a = short.scene.layers[0]
    let b = long.scene.layers[0]
    expectGreater(a.bounds.width, 10)
    expectGreater(a.bounds.height, 15)
    expectLess(a.bounds.height, 40)
    expectGreater(b.bounds.width, a.bounds.width)
    expectEqual(b.bounds.height, a.bounds.height)
    // It does not wrap unless told to, so a later longer text stays on one line.
    expectEqual(a.text?.isWrapped, false)
    let wrapped = try Self.decode(#"{ id: "t", string: "Hi", isWrapped: true, position: [0, 0] }"#)
    #expect(wrapped.scene.layers[0].text?.isWrapped == true && wrapped.scene.layers[0].bounds.width > 0)
    // A written size is kept, and wraps by default (isWrapped's default is true).
    let sized = try Self.decode(#"{ id: "t", string: "Hi", size: [100, 30] }"#)
    expectEqual(sized.scene.layers[0].bounds.size, Size(width: 100, height: 30))
    expectEqual(sized.scene.layers[0].text?.isWrapped, true)
    // A number is measured as it first shows.
    let number = try Self.decode(#"{ id: "t", number: 1234, format: "%.0f pts", fontSize: 20 }"#)
    expectGreater(number.scene.layers[0].bounds.width, a.bounds.width)
    // The bigger the font, the bigger the box.
    let big = try Self.decode(#"{ id: "t", string: "Hi", fontFamily: "DejaVu Sans", fontSize: 40 }"#)
    expectGreater(big.scene.layers[0].bounds.width, a.bounds.width * 1.8)
  }

  @Test func aSizedToFitTextIsPlacedByItsAnchorPoint() throws {
    let centred = try Self.decode(#"{ id: "t", string: "Hello", position: [150, 50] }"#)
    let frame = centred.scene.layers[0].frame
    expectLess(abs(frame.minX + frame.width / 2 - 150), 1e-9)
    expectLess(abs(frame.minY + frame.height / 2 - 50), 1e-9)
    let topLeft = try Self.decode(#"{ id: "t", string: "Hello", anchorPoint: [0, 0], position: [10, 20] }"#)
    #expect(topLeft.scene.layers[0].frame.minX == 10 && topLeft.scene.layers[0].frame.minY == 20)
  }

  // MARK: - Keys that live elsewhere

  @Test func transformKeysAtTheTopLevelPointIntoTransform() {
    let scale = Self.message(#"{ id: "a", size: [10, 10], scale: 2 }"#)
    #expect(scale.contains("'scale' is not a key of a layer"))
    #expect(scale.contains("transform: { scale: … }"))
    #expect(scale.contains("scaleXY"))
    #expect(Self.message(#"{ id: "a", rotation: 1 }"#).contains("transform: { rotation: … }"))
    #expect(Self.message(#"{ id: "a", "transform.scale": 2 }"#).contains("transform: { scale: … }"))
    #expect(Self.message(#"{ id: "a", scaleXY: [2, 2] }"#).contains("transform: { scale: … }"))
    #expect(Self.message(#"{ id: "a", translationX: 4 }"#).contains("transform: { translation: … }"))
    #expect(Self.message(#"{ id: "a", positionX: 4 }"#).contains("write 'position' on the layer instead"))
    #expect(Self.message(#"{ id: "a", bounds: [0, 0, 4, 4] }"#).contains("write 'size' on the layer instead"))
    // Inside transform, the timeline's names point to the transform's own key.
    #expect(Self.message(#"{ id: "a", transform: { scaleXY: 2 } }"#).contains("inside 'transform' it is 'scale'"))
    #expect(Self.message(#"{ id: "a", transform: { opacity: 1 } }"#).contains("write 'opacity' on the layer itself"))
    // An unknown key that names no property keeps its did-you-mean.
    #expect(Self.message(#"{ id: "a", opacty: 1 }"#).contains("did you mean 'opacity'"))
  }

  /// The whole class, from the catalogue: every property of the transform, by its name, its
  /// transform key and its key path, points into `transform` at the top level of a layer.
  @Test func everyTransformPropertyIsPointedToFromTheCatalogue() {
    for d in LayerPropertyDescriptor.catalogue {
      guard let place = Template.layerObjectPlace(of: d), place.inTransform else { continue }
      for written in Set([d.name, place.key, "transform." + place.key] + d.aliases) {
        let m = Self.message(#"{ id: "a", "\#(written)": 1 }"#)
        #expect(m.contains("transform: { \(place.key): … }"), "\(written): \(m)")
      }
    }
  }

  @Test func componentsPointTooAndSizeTheirTextToFit() throws {
    func template(_ instance: String) throws(TemplateError) -> Template {
      try Template.decode(
        """
        { flick: 1, canvas: { width: 300, height: 100, duration: 1 },
          components: { badge: { parameters: { text: { type: "string", default: "New" } },
            layer: { size: [80, 30], sublayers: [{ id: "label", string: "$text", fontSize: 15 }] },
            timeline: [{ at: 0.2, target: "label", set: { string: "Done" }, transition: { kind: "roll" } }] } },
          layers: [\(instance)] }
        """, file: "c.json5")
    }
    do {
      _ = try template(#"{ id: "b", use: "badge", scale: 2 }"#)
      Issue.record("an instance with 'scale' decoded")
    } catch {
      #expect(error.description.contains("transform: { scale: … }"), "\(error)")
    }
    let short = try template(#"{ id: "b", use: "badge", params: { text: "A" } }"#)
    let long = try template(#"{ id: "b", use: "badge", params: { text: "A longer label" } }"#)
    let width = { (t: Template) in t.scene.renderTree(at: 0).layer(id: "b/label")?.bounds.width ?? 0 }
    expectGreater(width(short), 0)
    expectGreater(width(long), width(short))
    // The component's own timeline rolls its text.
    expectEqual(short.scene.renderTree(at: 0.3).layer(id: "b/label")?.text?.transition?.from, "A")
  }
}
