import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Foundation
import Testing

/// `colorSpace` on an animate entry, on one property, and as the template's default.
@Suite struct ColorSpaceTemplateTests {
  static func scene(_ timeline: String, extra: String = "") throws -> Scene {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 200, duration: 2 }, \(extra)
        layers: [{ id: "a", size: [100, 100], position: [100, 100], backgroundColor: "#0000FF" }],
        timeline: \(timeline) }
      """, file: "t.json5"
    ).scene
  }

  static func color(_ s: Scene, at t: Double) -> Color { s.renderTree(at: t).layer(id: "a")?.backgroundColor ?? .clear }

  static func message(_ timeline: String, extra: String = "") -> String {
    do {
      _ = try scene(timeline, extra: extra)
      return ""
    } catch {
      return "\(error)"
    }
  }

  static let oklabMid = ColorSpace.oklab.color(
    from: ColorSpace.oklab.components(of: Color(red: 0, green: 0, blue: 1)).scaled(by: 0.5)
      + ColorSpace.oklab.components(of: Color(red: 0, green: 1, blue: 0)).scaled(by: 0.5))

  @Test func blueToGreenInOKLabIsNotTealAtTheMidpoint() throws {
    let srgb = Self.color(
      try Self.scene(##"[{ target: "a", animate: { backgroundColor: "#00FF00" }, curve: "linear", duration: 1 }]"##),
      at: 0.5)
    expectLess(abs(srgb.green - 0.5), 1e-9)
    expectLess(abs(srgb.blue - 0.5), 1e-9)  // teal, unchanged
    let entry = Self.color(
      try Self.scene(
        ##"[{ target: "a", animate: { backgroundColor: "#00FF00" }, curve: "linear", duration: 1, colorSpace: "oklab" }]"##
      ),
      at: 0.5)
    expectLess((entry - Self.oklabMid).magnitudeSquared, 1e-12)
    expectGreater(entry.green, 0.6)
    expectGreater(entry.blue, 0.6)
    let own = Self.color(
      try Self.scene(
        ##"[{ target: "a", animate: { backgroundColor: { to: "#00FF00", colorSpace: "oklab" } }, curve: "linear", duration: 1 }]"##
      ),
      at: 0.5)
    expectLess((own - Self.oklabMid).magnitudeSquared, 1e-12)
    let byDefault = Self.color(
      try Self.scene(
        ##"[{ target: "a", animate: { backgroundColor: "#00FF00" }, curve: "linear", duration: 1 }]"##,
        extra: ##"colorSpace: "oklab","##),
      at: 0.5)
    expectLess((byDefault - Self.oklabMid).magnitudeSquared, 1e-12)
    // An entry overrides the default.
    let back = Self.color(
      try Self.scene(
        ##"[{ target: "a", animate: { backgroundColor: "#00FF00" }, curve: "linear", duration: 1, colorSpace: "sRGB" }]"##,
        extra: ##"colorSpace: "oklab","##), at: 0.5)
    expectLess((back - srgb).magnitudeSquared, 1e-18)
  }

  @Test func linearLightIsBrighterThanSRGBHalfway() throws {
    let c = Self.color(
      try Self.scene(
        ##"[{ target: "a", animate: { backgroundColor: "#00FF00" }, curve: "linear", duration: 1, colorSpace: "linear" }]"##
      ),
      at: 0.5)
    let expected = 1.055 * pow(0.5, 1 / 2.4) - 0.055  // sRGB encoding of linear 0.5
    expectLess(abs(c.green - expected), 1e-9)
    expectLess(abs(c.blue - expected), 1e-9)
  }

  @Test func springKeepsItsTimingAndEndsOnTheTarget() throws {
    let s = try Self.scene(
      ##"[{ target: "a", animate: { backgroundColor: "#00FF00" }, curve: "spring(response: 0.4, dampingRatio: 0.6)", colorSpace: "oklab" }]"##
    )
    let end = Self.color(s, at: 1.9)
    expectLess(abs(end.green - 1), 1e-3)
    expectLess(abs(end.blue), 1e-3)
    // Continuous: the value just after the start is near blue.
    let early = Self.color(s, at: 0.001)
    expectGreater(early.blue, 0.99)
  }

  @Test func keyframesOfValuesRunInTheSpace() throws {
    let s = try Self.scene(
      ##"[{ target: "a", animate: { backgroundColor: { keyframes: { values: ["#0000FF", "#00FF00", "#FF0000"] }, duration: 1, colorSpace: "oklab" } } }]"##
    )
    let mid = Self.color(s, at: 0.25)
    expectLess((mid - Self.oklabMid).magnitudeSquared, 1e-9)
    let end = Self.color(s, at: 1)
    expectLess(abs(end.red - 1), 1e-6)
    expectLess(abs(end.green), 1e-6)
    expectLess(abs(end.blue), 1e-6)
  }

  @Test func errorsNameTheProblem() {
    #expect(
      Self.message(##"[{ target: "a", animate: { opacity: { to: 0, colorSpace: "oklab" } } }]"##).contains(
        "applies to colour properties"))
    #expect(
      Self.message(##"[{ target: "a", animate: { backgroundColor: "#00FF00" }, colorSpace: "okLab" }]"##).contains(
        "oklab"))
    #expect(Self.message("[]", extra: ##"colorSpace: "hsl","##).contains("colorSpace"))
    // An entry's colorSpace leaves its other properties alone.
    expectEqual(
      Self.message(##"[{ target: "a", animate: { opacity: 0, backgroundColor: "#00FF00" }, colorSpace: "oklab" }]"##),
      "")
  }
}
