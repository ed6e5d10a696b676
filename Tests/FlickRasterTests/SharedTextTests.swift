import FlickMotion
import FlickScene
import Testing

@testable import FlickRaster

/// A still's frame and glyph check share one shaping of each text (``SharedText``): the frame's
/// pixels and the check's answer are those of a separate frame and check, and the check lays out
/// only what the frame did not draw.
@Suite struct SharedTextTests {
  static func text(_ id: String, _ string: String, x: Double, color: Color = .black, hidden: Bool = false) -> Layer {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: 180, height: 40), position: Point(x: x, y: 30), isHidden: hidden,
      content: .text(TextContent(string: string, fontFamily: "Inter", fontSize: 24, textColor: color)))
  }

  static let tree = Raster.tree(
    [
      text("title", "Hello \u{2FE0}", x: 100),
      // The same text in another colour: one layout serves both.
      text("echo", "Hello \u{2FE0}", x: 300, color: Raster.red),
      // Not drawn: only the check lays it out, and still reports it.
      text("ghost", "Ghost \u{0378}", x: 100, hidden: true),
      text("plain", "Plain text", x: 300, color: .clear),
    ], width: 400, height: 60)

  @Test func frameAndCheckMatchTheSeparateOnes() throws {
    let shared = SharedText()
    let frame = try Renderer().render(Self.tree, sharing: shared)
    #expect(frame.pixels == (try Renderer().render(Self.tree)).pixels)
    let drawn = shared.context.keptLayoutCount
    // "Hello" once for both colours; the hidden and the transparent texts are not drawn.
    #expect(drawn == 1)
    let gaps = try Renderer().missingGlyphs(in: Self.tree, sharing: shared)
    #expect(gaps == (try Renderer().missingGlyphs(in: Self.tree)))
    #expect(gaps.map(\.layerID) == ["title", "echo", "ghost"])
    // The check reused the frame's layout and laid out only the two texts the frame skipped.
    #expect(shared.context.keptLayoutCount == drawn + 2)
  }

  @Test func keptLayoutsAreReusedWhateverTheColour() throws {
    let context = TextContext(ownFontMap: false, keepsLayouts: true)
    let size = Size(width: 180, height: 40)
    let black = TextContent(string: "Same", fontFamily: "Inter", fontSize: 24, textColor: .black)
    var red = black
    red.textColor = Raster.red
    var bigger = black
    bigger.fontSize = 30
    let first = try #require(context.layout(black, size: size))
    #expect(context.layout(red, size: size) === first)
    #expect(context.layout(bigger, size: size) !== first)
    #expect(context.layout(black, size: Size(width: 90, height: 40)) !== first)
    // Without keeping, every call shapes anew.
    let plain = TextContext(ownFontMap: false)
    #expect(plain.layout(black, size: size) !== plain.layout(black, size: size))
    #expect(plain.keptLayoutCount == 0)
  }
}
