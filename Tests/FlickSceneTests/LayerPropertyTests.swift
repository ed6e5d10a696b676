import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@Suite struct LayerPropertyTests {
  @Test func everyIssueNameIsInTheCatalogueWithItsValueType() {
    let expected: [String: String] = [
      "position": "point", "bounds": "rect", "size": "size", "rotation": "number", "rotationX": "number",
      "rotationY": "number", "scaleXY": "point", "translationXY": "point", "opacity": "number",
      "backgroundColor": "color", "cornerRadius": "number", "borderWidth": "number", "borderColor": "color",
      "shadowColor": "color", "shadowOpacity": "number", "shadowRadius": "number", "shadowOffset": "point",
      "strokeStart": "number", "strokeEnd": "number", "lineWidth": "number", "fillColor": "color",
      "strokeColor": "color", "fontSize": "number", "tracking": "number", "textColor": "color", "colors": "colors",
    ]
    for (name, type) in expected {
      expectEqual(AnyLayerProperty.named(name)?.valueTypeName, type, "\(name)")
    }
    #expect(AnyLayerProperty.named("nope") == nil)
    expectEqual(Set(AnyLayerProperty.names).count, AnyLayerProperty.all.count)
  }

  @Test func kindPropertiesOnlyApplyToTheirKind() throws {
    let ring = Layer(id: "r", content: .shape(ShapeContent(path: .rect(.zero))))
    let plain = Layer(id: "p")
    let strokeEnd = try #require(AnyLayerProperty.named("strokeEnd"))
    #expect(strokeEnd.applies(to: ring))
    #expect(!strokeEnd.applies(to: plain))
    expectEqual(AnyLayerProperty.named("opacity")?.applies(to: plain), true)
    var edited = ring
    LayerProperty.strokeEnd.write(&edited, 0.25)
    expectEqual(LayerProperty.strokeEnd.read(edited), 0.25)
    var untouched = plain
    LayerProperty.strokeEnd.write(&untouched, 0.25)
    expectEqual(untouched, plain)
  }

  @Test func writesReachTheTransformAndContent() {
    var layer = Layer(id: "g", content: .gradient(GradientContent(colors: [.black, .white])))
    LayerProperty.rotationY.write(&layer, 1)
    LayerProperty.scaleXY.write(&layer, Point(x: 2, y: 3))
    LayerProperty.colors.write(&layer, [.white, .black])
    expectEqual(layer.transform.rotationY, 1)
    expectEqual(layer.transform.scale, Point(x: 2, y: 3))
    expectEqual(layer.gradient?.colors.colors, [.white, .black])
  }

  @Test func colorListsInterpolateStopByStop() {
    let a: ColorList = [.black, .white]
    let b: ColorList = [.white, .black]
    let mid = a.interpolated(to: b, amount: 0.5)
    expectEqual(mid.colors, [Color(red: 0.5, green: 0.5, blue: 0.5), Color(red: 0.5, green: 0.5, blue: 0.5)])
  }

  @Test func thresholdsAreAboutHalfAPointOrOneColourStep() {
    expectEqual(LayerProperty<Point>.position.threshold, 0.5)
    expectEqual(LayerProperty<Color>.fillColor.threshold, 1.0 / 255)
    expectLessOrEqual(LayerProperty<Double>.rotation.threshold * 100, 0.5)
  }

  /// A text layer's string reads as its index through the given indices, not by searching the
  /// list: a layer's list of every string it shows was searched at each text change with a
  /// transition (n changes to distinct strings: O(n²)). The indices here disagree with the list
  /// on purpose, so a search would read 1 where the look-up reads 7; without indices the list
  /// is searched.
  @Test func aStringReadsItsIndexThroughTheIndicesNotTheList() {
    var layer = Layer(id: "t", content: .text(TextContent(string: "x")))
    LayerProperty.string(choosingFrom: ["a", "b"]).write(&layer, 1)
    expectEqual(layer.text?.string, "b")
    expectEqual(LayerProperty.string(choosingFrom: ["a", "b"], indices: ["a": 0, "b": 7]).read(layer), 7)
    expectEqual(LayerProperty.string(choosingFrom: ["a", "b"], indices: ["a": 0]).read(layer), 0)
    expectEqual(LayerProperty.string(choosingFrom: ["a", "b"]).read(layer), 1)
  }
}
