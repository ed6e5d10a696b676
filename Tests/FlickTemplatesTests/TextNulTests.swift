import FlickExpectations
import FlickMotion
import FlickScene
import Foundation
import Testing

@testable import FlickTemplates

/// A NUL character in a text string is refused where the template holds it: Pango read the text
/// up to the NUL, so `"A\u0000B"` drew exactly "A" and the render succeeded. Every string of the
/// template is checked once parameters and components are substituted.
@Suite struct TextNulTests {
  static let canvas = "canvas: { width: 64, height: 64, duration: 1 }"
  static let text = "{ id: 't', size: [60, 20], string: 'A\\u0000B' }"

  static func error(_ text: String, parameters: ParameterValues = ParameterValues()) -> TemplateError? {
    do {
      _ = try Template.decode(text, file: "t.json5", parameters: parameters)
      return nil
    } catch {
      return error
    }
  }

  static func expectRefused(_ e: TemplateError?, path: String, _ what: String) {
    #expect(e?.message.contains("NUL character") == true, "\(what): \(String(describing: e))")
    expectEqual(e?.path, path, "\(what)")
    #expect((e?.line ?? 0) > 0, "located: \(String(describing: e))")
  }

  @Test func aTextStringWithANulIsRefused() {
    Self.expectRefused(
      Self.error("{ flick: 1, \(Self.canvas), layers: [\(Self.text)] }"), path: "layers[0].string", "string")
    // Anywhere else too: a layer id, a font family, a number format.
    Self.expectRefused(
      Self.error("{ flick: 1, \(Self.canvas), layers: [{ id: 'a\\u0000', size: [4, 4] }] }"), path: "layers[0].id",
      "id")
    Self.expectRefused(
      Self.error(
        "{ flick: 1, \(Self.canvas), layers: [{ id: 't', size: [60, 20], string: 'A', fontFamily: 'Sans\\u0000x' }] }"),
      path: "layers[0].fontFamily", "font family")
  }

  @Test func aTextChangeOrTransitionWithANulIsRefused() {
    let layers = "layers: [{ id: 't', size: [60, 20], string: 'A' }]"
    for (timeline, path) in [
      ("{ at: 0.5, target: 't', set: { string: 'B\\u0000C' } }", "timeline[0].set.string"),
      (
        "{ at: 0.5, target: 't', set: { string: 'B\\u0000C' }, transition: { kind: 'roll', duration: 0.3 } }",
        "timeline[0].set.string"
      ),
    ] {
      Self.expectRefused(
        Self.error("{ flick: 1, \(Self.canvas), \(layers), timeline: [\(timeline)] }"), path: path, timeline)
    }
  }

  @Test func aParameterOrComponentValueWithANulIsRefusedWhereItIsUsed() {
    let template =
      "{ flick: 1, parameters: { title: { type: 'string', default: 'A' } }, \(Self.canvas), "
      + "layers: [{ id: 't', size: [60, 20], string: '$title' }, { id: 'u', size: [60, 20], string: 'x ${title} y' }] }"
    var set = ParameterValues()
    set.set("title", text: "A\u{0}B")  // as --set, or a batch data file's cell, gives it
    let e = Self.error(template, parameters: set)
    Self.expectRefused(e, path: "layers[0].string", "--set")
    #expect(
      e?.message.contains("title") == true || "\(String(describing: e))".contains("title"), "\(String(describing: e))")
    let component =
      "{ flick: 1, \(Self.canvas), components: { label: { parameters: { s: { type: 'string', default: 'A\\u0000B' } }, "
      + "layer: { id: 'x', size: [60, 20], string: '$s' } } }, layers: [{ id: 'c', use: 'label' }] }"
    #expect(
      Self.error(component)?.message.contains("NUL character") == true, "\(String(describing: Self.error(component)))")
    // Without the NUL, each loads.
    var fine = ParameterValues()
    fine.set("title", text: "AB")
    #expect(Self.error(template, parameters: fine).map { "\($0)" } == nil)
  }
}
