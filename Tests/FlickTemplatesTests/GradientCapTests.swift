import FlickExpectations
import FlickScene
import Testing

@testable import FlickTemplates

/// A gradient has at most ``TemplateLimits/maximumGradientStops`` colours, wherever colours are
/// written (a gradient layer, the canvas background, a `colors` value the timeline animates to):
/// a layer of 100,000 conic stops took 11–16 s to draw one 512² still. The array's size is
/// checked before any colour is decoded, and the error points at it.
@Suite struct GradientCapTests {
  static func colors(_ n: Int) -> String {
    "[" + (0..<n).map { $0 % 2 == 0 ? "\"#F00\"" : "\"#00F\"" }.joined(separator: ", ") + "]"
  }

  static func error(_ text: String) -> TemplateError? {
    do {
      _ = try Template.decode(text, file: "g.json5")
      return nil
    } catch {
      return error as? TemplateError
    }
  }

  static let canvas = "canvas: { width: 64, height: 64, duration: 1 }"

  @Test func aGradientLayerOfTooManyColoursIsRefusedAtItsColours() throws {
    let cap = TemplateLimits.maximumGradientStops
    expectEqual(cap, 1024)
    let fits = try Template.decode(
      "{ flick: 1, \(Self.canvas),\n layers: [ { id: \"g\", kind: \"conic\", colors: \(Self.colors(cap)), size: [64, 64] } ] }"
    )
    expectEqual(fits.scene.layers[0].gradient?.colors.colors.count, cap)
    let e = try #require(
      Self.error(
        "{ flick: 1, \(Self.canvas),\n layers: [ { id: \"g\", kind: \"conic\", colors: \(Self.colors(cap + 1)), size: [64, 64] } ] }"
      ))
    expectEqual(e.file, "g.json5")
    expectEqual(e.path, "layers[0].colors")
    expectEqual(e.line, 2)
    expectEqual(e.column, 46)
    expectEqual(e.message, "a gradient has at most 1024 colours, found 1025; use fewer stops")
  }

  @Test func theBackgroundAndAnimatedColoursAreCappedToo() throws {
    let background = try #require(
      Self.error(
        "{ flick: 1, canvas: { width: 64, height: 64, duration: 1, background: { colors: \(Self.colors(1025)) } } }"))
    expectEqual(background.path, "canvas.background.colors")
    let animated = try #require(
      Self.error(
        """
        { flick: 1, \(Self.canvas), layers: [ { id: "g", colors: ["#F00", "#00F"], size: [64, 64] } ],
          timeline: [ { target: "g", animate: { colors: \(Self.colors(1025)) }, duration: 1 } ] }
        """))
    expectEqual(animated.path, "timeline[0].animate.colors")
    #expect(animated.message.hasPrefix("a gradient has at most 1024 colours, found 1025"), "\(animated.message)")
  }
}
