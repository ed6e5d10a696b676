import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Testing

/// Characters without a glyph are found (Pango's unknown-glyph flag) and named; colour emoji
/// draw in colour from the emoji font the bootstrap installs.
@Suite struct GlyphCoverageTests {
  static func text(_ id: String, _ string: String, size: Double = 40) -> Layer {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: 380, height: 60), position: Point(x: 200, y: 50),
      content: .text(TextContent(string: string, fontFamily: "Inter", fontSize: size, textColor: .black)))
  }

  @Test func unassignedCharactersAreReportedWithTheirLayer() throws {
    // U+2FE0 and U+0378 are unassigned: no font has them.
    let title = Self.text("title", "Hello \u{2FE0} and \u{0378}\u{2FE0}")
    let parent = Layer(id: "card", sublayers: [Self.text("fine", "Plain text, ünïcödé — “quotes”"), title])
    let gaps = try Renderer().missingGlyphs(in: Raster.tree([parent], width: 400, height: 100))
    expectEqual(gaps, [MissingGlyphs(layerID: "title", characters: ["\u{2FE0}", "\u{0378}"])])
    expectEqual(gaps.first?.description.contains("layer 'title'"), true)
    expectEqual(gaps.first?.description.contains("U+2FE0"), true)
    expectEqual(gaps.first?.description.contains("U+0378"), true)
  }

  @Test func emojiSequencesAndWhitespaceAreCovered() throws {
    let layers = [Self.text("emoji", "Party 🎉 👩‍💻 👍🏽 ❤️ 🇫🇷\tdone\nnext")]
    try expectEqual(Renderer().missingGlyphs(in: Raster.tree(layers, width: 400, height: 100)), [])
  }

  @Test func emojiDrawInColour() throws {
    let frame = try Raster.render([Self.text("emoji", "🍊", size: 48)], width: 400, height: 100)
    var colourful = 0
    for y in 0..<frame.height {
      for x in 0..<frame.width {
        let p = frame.rgba(x: x, y: y)
        if Int(p.r) - Int(p.b) > 80 { colourful += 1 }  // orange, not a black-and-white outline
      }
    }
    expectGreater(colourful, 200)
  }
}
