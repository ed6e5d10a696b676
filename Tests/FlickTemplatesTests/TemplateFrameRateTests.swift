import FlickExpectations
import FlickScene
import FlickTemplates
import Foundation
import Testing

/// The scene's frame rate is decided once, as the template is decoded: the canvas's `fps`, or
/// the rate the options give (`flick render --fps`, a manifest's `fps`).
@Suite struct TemplateFrameRateTests {
  static let text = #"{ flick: 1, canvas: { width: 64, height: 48, fps: 30, duration: 2 }, layers: [] }"#

  @Test func theOptionsRateReplacesTheCanvasRate() throws {
    try expectEqual(Template.decode(Self.text).scene.fps, 30)
    var options = TemplateOptions()
    options.fps = 25
    let scene = try Template.decode(Self.text, options: options).scene
    expectEqual(scene.fps, 25)
    expectEqual(scene.frameCount, 50)
    expectEqual(scene.time(ofFrame: 5), 0.2)
  }

  /// The canvas's own `fps` is still checked when the options replace it.
  @Test func anInvalidCanvasRateIsRefusedEvenWhenReplaced() {
    var options = TemplateOptions()
    options.fps = 25
    let bad = Self.text.replacingOccurrences(of: "fps: 30", with: "fps: 0")
    #expect(throws: TemplateError.self) { try Template.decode(bad, options: options) }
  }
}
