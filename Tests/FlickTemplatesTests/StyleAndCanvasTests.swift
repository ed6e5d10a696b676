import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

@Suite struct StyleAndCanvasTests {
  @Test func stylesApplyInOrderAndTheLayerWins() throws {
    let t = try Template.decode(
      """
      { flick: 1,
        parameters: { accent: { type: "color", default: "#112233" } },
        styles: { card: { size: [100, 60], cornerRadius: 12, backgroundColor: "$accent" }, faded: { opacity: 0.5, cornerRadius: 4 } },
        canvas: { width: 200, height: 200, duration: 1 },
        layers: [
          { id: "a", style: "card" },
          { id: "b", style: ["card", "faded"], cornerRadius: 30, sublayers: [{ id: "c", style: "faded" }] },
        ] }
      """)
    let a = t.scene.layers[0]
    expectEqual(a.bounds.size, Size(width: 100, height: 60))
    expectEqual(a.cornerRadius, 12)
    expectEqual(a.backgroundColor, Color(hex: "#112233"))
    let b = t.scene.layers[1]
    expectEqual(b.cornerRadius, 30)
    expectEqual(b.opacity, 0.5)
    expectEqual(b.sublayers.first?.opacity, 0.5)
    expectEqual(b.sublayers.first?.cornerRadius, 4)
  }

  @Test func anErrorInAStyleSaysSo() {
    do {
      _ = try Template.decode(
        "{ flick: 1, styles: { card: { opacity: 2 } }, canvas: { width: 9, height: 9, duration: 1 }, layers: [{ id: 'a', style: 'card' }] }",
        file: "t.json5")
      Issue.record("accepted opacity 2")
    } catch {
      expectEqual(
        error.description,
        "t.json5:1:40: layers[0] (style \"card\") → styles.card.opacity: expected a number in 0…1, found 2 "
          + "(value from style 'card')")
    }
  }

  /// A style no layer uses has each value the value alone decides checked (a catalogue
  /// property, a transform); the rest waits for a layer, whose keys complete the style.
  @Test(arguments: [
    ("opacity: 2", "styles.spare.opacity: expected a number in 0…1, found 2"),
    ("shadowColor: '#12'", "styles.spare.shadowColor: "),
    ("position: [1]", "styles.spare.position: "),
    ("transform: { rotation: 'x' }", "styles.spare.transform.rotation: "),
  ])
  func anUnusedStylesValuesAreChecked(_ property: String, _ expected: String) {
    do {
      _ = try Template.decode(
        "{ flick: 1, styles: { spare: { \(property) } }, canvas: { width: 9, height: 9, duration: 1 }, "
          + "layers: [{ id: 'a' }] }",
        file: "t.json5")
      Issue.record("accepted \(property)")
    } catch {
      #expect(error.description.contains(expected), "\(error.description)")
      #expect(error.description.hasSuffix("(in style 'spare', which no layer uses)"), "\(error.description)")
    }
  }

  /// Values whose check needs the layer's other keys load as before in a style no layer uses: a
  /// tint without a picture, text and shape keys without a string or a path.
  @Test func anUnusedStyleNeedsNoLayerToBeComplete() throws {
    let t = try Template.decode(
      """
      { flick: 1,
        styles: { tint: { contentsTint: "#ff0000" }, label: { fontSize: 20, textColor: "#fff" },
                  outline: { fillColor: "#f00", lineWidth: 2, transform: { rotation: 0.5 } } },
        canvas: { width: 9, height: 9, duration: 1 },
        layers: [{ id: "a" }] }
      """)
    expectEqual(t.scene.layers.count, 1)
  }

  @Test func automaticDurationEndsWithTheLastAnimation() throws {
    let t = try Template.decode(
      """
      { flick: 1, canvas: { width: 10, height: 10, fps: 30, duration: "auto", background: "transparent" },
        layers: [{ id: "a" }],
        timeline: [{ target: "a", property: "cornerRadius", to: 4, at: 0.25, duration: 0.5 },
                   { target: "a", property: "opacity", to: 0, at: 0.5, duration: 1.25 }] }
      """)
    #expect(t.automaticDuration)
    // The last animation settles at 1.75 s, between frames 52 and 53 (30 fps): frame 53 is the
    // first to show it settled and the last one, so the scene lasts 54 frames.
    expectEqual(t.scene.duration, 54.0 / 30)
    expectEqual(t.scene.frameCount, 54)
    expectEqual(t.scene.backgroundColor, .clear)
  }

  @Test func gradientBackgroundIsALayerUnderEverything() throws {
    let t = try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 100, duration: 1,
          background: { colors: ["#000000", "#FFFFFF"], startPoint: [0, 0], endPoint: [1, 0] } },
        layers: [{ id: "a" }],
        timeline: [{ target: "background", animate: { colors: ["#FF0000", "#0000FF"] }, curve: "linear", duration: 1 }] }
      """)
    expectEqual(t.scene.backgroundColor, .clear)
    expectEqual(t.scene.layers.map(\.id), ["background", "a"])
    let background = try #require(t.scene.layers.first)
    expectEqual(background.bounds, Rect(x: 0, y: 0, width: 200, height: 100))
    expectEqual(background.position, Point(x: 100, y: 50))
    expectEqual(
      t.scene.renderTree(at: 1).layer(id: "background")?.gradient?.colors,
      ColorList([Color(hex: "#FF0000")!, Color(hex: "#0000FF")!]))
  }

  @Test func schemaKeyIsAccepted() throws {
    let t = try Template.decode(
      "{ $schema: '../Templates/schema.json', flick: 1, canvas: { width: 10, height: 10, duration: 1 } }")
    expectEqual(t.scene.size, Size(width: 10, height: 10))
  }
}
