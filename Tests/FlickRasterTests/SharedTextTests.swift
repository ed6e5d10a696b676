import FlickExpectations
import FlickMotion
import FlickScene
import Foundation
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
    expectEqual(frame.pixels, (try Renderer().render(Self.tree)).pixels)
    let drawn = shared.context.keptLayoutCount
    // "Hello" once for both colours; the hidden and the transparent texts are not drawn.
    expectEqual(drawn, 1)
    let gaps = try Renderer().missingGlyphs(in: Self.tree, sharing: shared)
    expectEqual(gaps, (try Renderer().missingGlyphs(in: Self.tree)))
    expectEqual(gaps.map(\.layerID), ["title", "echo", "ghost"])
    // The check reused the frame's layout and laid out only the two texts the frame skipped.
    expectEqual(shared.context.keptLayoutCount, drawn + 2)
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
    expectEqual(plain.keptLayoutCount, 0)
  }

  /// A title whose width animates (so the frame's instant and the check's lay out different
  /// sizes), a hidden text and a transparent one.
  static func scene(fontFiles: [String] = []) -> Scene {
    Scene(
      size: Size(width: 400, height: 60), fps: 10, duration: 1,
      layers: [
        text("title", "Hello \u{2FE0}", x: 100),
        text("ghost", "Ghost \u{0378}", x: 100, hidden: true),
        text("plain", "Plain text", x: 300, color: .clear),
      ],
      animations: [
        LayerAnimation(
          layerID: "title", property: .bounds,
          tween: BasicAnimation(
            from: Rect(x: 0, y: 0, width: 180, height: 40), to: Rect(x: 0, y: 0, width: 240, height: 40), duration: 1,
            timingFunction: .linear))
      ], fontFiles: fontFiles)
  }

  /// The layouts a helper made ahead (nil on a machine with one core, where there is no helper).
  static func laidOutAhead(
    _ scene: Scene, at times: [Double], glyphScale: Double? = nil, into shared: SharedText
  ) -> Int? {
    guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return nil }
    shared.startHelper()
    shared.layOutAhead(of: scene, at: times, glyphScale: glyphScale)
    shared.stopHelper()
    return shared.context.keptLayoutCount
  }

  /// Also with the glyphs rasterised ahead at the frame's scale, or at another one (then the
  /// frame rasterises its own).
  @Test(arguments: [(nil, 1.0), (1.0, 1.0), (2.0, 2.0), (3.0, 1.5)] as [(Double?, Double)])
  func theHelperShapesWhatTheFrameAndTheCheckUse(glyphScale: Double?, scale: Double) throws {
    let scene = Self.scene()
    let shared = SharedText()
    let ahead = Self.laidOutAhead(scene, at: [0.5, 0], glyphScale: glyphScale, into: shared)
    // The title at both widths, the hidden and the transparent text once each.
    if let ahead { expectEqual(ahead, 4) }
    let tree = scene.renderTree(at: 0.5)
    let frame = try Renderer(scale: scale).render(tree, sharing: shared)
    expectEqual(frame.pixels, (try Renderer(scale: scale).render(tree)).pixels)
    let first = scene.renderTree(at: 0)
    let gaps = try Renderer().missingGlyphs(in: first, sharing: shared)
    expectEqual(gaps, (try Renderer().missingGlyphs(in: first)))
    expectEqual(gaps.map(\.layerID), ["title", "ghost"])
    // Neither the frame nor the check had to shape anything more.
    if let ahead { expectEqual(shared.context.keptLayoutCount, ahead) }
  }

  /// The layers' model values shaped early: the title at its model width, the hidden and the
  /// transparent text. With the frame's instant and the check's after them, only the title at
  /// the width the animation gives it at 0.5 s is new, and the frame and the check shape nothing
  /// more.
  @Test func earlyTextIsShapedOnceAndServesTheFrameAndTheCheck() throws {
    guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return }
    let scene = Self.scene()
    let early = SharedText()
    early.startHelper()
    early.layOutEarly(scene)
    early.layOutAhead(of: scene, at: [])
    early.stopHelper()
    expectEqual(early.context.keptLayoutCount, 3)

    let shared = SharedText()
    shared.startHelper()
    shared.layOutEarly(scene)
    shared.layOutAhead(of: scene, at: [0.5, 0])
    shared.stopHelper()
    expectEqual(shared.context.keptLayoutCount, 4)
    let tree = scene.renderTree(at: 0.5)
    try expectEqual(Renderer().render(tree, sharing: shared).pixels, (try Renderer().render(tree)).pixels)
    let first = scene.renderTree(at: 0)
    try expectEqual(Renderer().missingGlyphs(in: first, sharing: shared), (try Renderer().missingGlyphs(in: first)))
    expectEqual(shared.context.keptLayoutCount, 4)
  }

  /// Text in four fonts (two sizes, a weight, a style) and one more text in the first: each font
  /// is shaped in one lane, two fonts in each, and the frame and the check draw and find what
  /// separate ones do.
  @Test func fontsAreSplitBetweenTwoLanesWithTheSamePixels() throws {
    guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return }
    func text(
      _ id: String, _ string: String, y: Double, size: Double = 24, weight: TextContent.FontWeight = .regular,
      style: TextContent.FontStyle = .normal
    ) -> Layer {
      Layer(
        id: id, bounds: Rect(x: 0, y: 0, width: 380, height: 40), position: Point(x: 200, y: y),
        content: .text(
          TextContent(string: string, fontFamily: "Inter", fontSize: size, fontWeight: weight, fontStyle: style)))
    }
    let scene = Scene(
      size: Size(width: 400, height: 260), fps: 10, duration: 1,
      layers: [
        text("a", "Regular \u{2FE0}", y: 25), text("b", "Larger", y: 70, size: 30),
        text("c", "Bold", y: 115, weight: .bold), text("d", "Italic", y: 160, style: .italic),
        text("e", "Regular again", y: 205),
      ])
    let shared = SharedText()
    shared.startHelper()
    shared.layOutEarly(scene)
    shared.layOutAhead(of: scene, at: [0])
    shared.stopHelper()
    expectEqual(shared.laneLayoutCounts, [3, 2])
    let tree = scene.renderTree(at: 0)
    try expectEqual(
      Renderer(scale: 2).render(tree, sharing: shared).pixels, (try Renderer(scale: 2).render(tree)).pixels)
    let gaps = try Renderer().missingGlyphs(in: tree, sharing: shared)
    expectEqual(gaps, (try Renderer().missingGlyphs(in: tree)))
    expectEqual(gaps.map(\.layerID), ["a"])
    expectEqual(shared.context.keptLayoutCount, 5)
  }

  /// Text in a rotated, scaled card that casts a shadow drawn from its content (card-swap's
  /// cards): the helpers also rasterise its glyphs under the frame's matrix and the shadow mask's
  /// reduced one, and the frame draws the same pixels as an unshared one.
  @Test(arguments: [1.0, 2.0]) func turnedTextInAShadowCastingCardDrawsTheSamePixels(scale: Double) throws {
    var card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 200, height: 120), position: Point(x: 150, y: 100),
      backgroundColor: Color(red: 0.9, green: 0.9, blue: 1, alpha: 0.8))
    card.transform = LayerTransform(scale: Point(x: 0.9, y: 0.9), rotation: 0.2)
    card.shadowOpacity = 0.5
    card.shadowRadius = 14
    card.shadowOffset = Point(x: 0, y: 6)
    card.sublayers = [
      Self.text("title", "Hello \u{2FE0}", x: 100),
      Layer(
        id: "small", bounds: Rect(x: 0, y: 0, width: 180, height: 30), position: Point(x: 100, y: 90),
        content: .text(TextContent(string: "Smaller", fontFamily: "Inter", fontSize: 14))),
    ]
    let scene = Scene(size: Size(width: 300, height: 200), fps: 10, duration: 1, layers: [card])
    let shared = SharedText()
    _ = Self.laidOutAhead(scene, at: [0], glyphScale: scale, into: shared)
    let tree = scene.renderTree(at: 0)
    let frame = try Renderer(scale: scale).render(tree, sharing: shared)
    expectEqual(frame.pixels, (try Renderer(scale: scale).render(tree)).pixels)
  }

  /// Stopped before the frame's instant is given (the still failed), the helper leaves the rest
  /// of the early text: what it made is used, the frame shapes the rest, and the pixels are the
  /// same.
  @Test func earlyTextLeftWhenTheHelperStopsIsShapedByTheFrame() throws {
    let scene = Self.scene()
    let shared = SharedText()
    shared.startHelper()
    shared.layOutEarly(scene)
    shared.stopHelper()
    expectLessOrEqual(shared.context.keptLayoutCount, 3)
    let tree = scene.renderTree(at: 1)
    try expectEqual(Renderer().render(tree, sharing: shared).pixels, (try Renderer().render(tree)).pixels)
  }

  @Test func earlyTextWithFontFilesOrWithoutTextGivesTheHelperNothing() throws {
    guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return }
    for scene in [
      Self.scene(fontFiles: ["/nonexistent/flick-test-font.ttf"]),
      Scene(size: Size(width: 40, height: 40), fps: 10, duration: 1, layers: [Layer(id: "box")]),
    ] {
      let shared = SharedText()
      shared.startHelper()
      shared.layOutEarly(scene)
      shared.stopHelper()
      expectEqual(shared.context.keptLayoutCount, 0)
    }
  }

  @Test func aHelperGivenNothingEndsAndTheFrameShapesItsOwnText() throws {
    let shared = SharedText()
    shared.startHelper()
    shared.stopHelper()
    expectEqual(shared.context.keptLayoutCount, 0)
    let tree = Self.scene().renderTree(at: 1)
    try expectEqual(Renderer().render(tree, sharing: shared).pixels, (try Renderer().render(tree)).pixels)
  }

  @Test func textWithFontFilesOfItsOwnIsLeftToTheFrame() throws {
    // The helper neither registers the file (the frame reports its errors) nor shapes the text.
    let scene = Self.scene(fontFiles: ["/nonexistent/flick-test-font.ttf"])
    if let ahead = Self.laidOutAhead(scene, at: [0], into: SharedText()) { expectEqual(ahead, 0) }
  }
}
