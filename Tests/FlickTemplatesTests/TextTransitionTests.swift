import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Testing

/// Text changes with transitions (`set: { string | number }, transition: { kind, duration }`),
/// SwiftUI's numeric content transition, and `m:ss` duration formats.
@Suite struct TextTransitionTests {
  static func template(_ label: String, _ timeline: String, duration: Double = 2) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 160, height: 60, duration: \(duration), background: "#000000" },
        layers: [{ id: "label", size: [160, 60], position: [80, 30], fontFamily: "DejaVu Sans", fontSize: 28,
                   textColor: "#FFFFFF", alignment: "center", \(label) }],
        timeline: \(timeline) }
      """, file: "transition.json5")
  }

  static func transition(_ t: Template, at time: Double) -> TextTransition? {
    t.scene.renderTree(at: time).layer(id: "label")?.text?.transition
  }

  static func message(_ label: String, _ timeline: String) -> String {
    do {
      _ = try template(label, timeline)
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test func aStringChangePlaysOverItsDuration() throws {
    let t = try Self.template(
      #"string: "Follow""#,
      #"[{ at: 0.5, target: "label", set: { string: "Following" }, "#
        + #"transition: { kind: "fade", duration: 0.4, curve: "linear" } }]"#)
    #expect(Self.transition(t, at: 0.4) == nil)
    let mid = try #require(Self.transition(t, at: 0.7))
    expectEqual(mid.from, "Follow")
    expectEqual(mid.to, "Following")
    expectEqual(mid.kind, .fade)
    expectLess(abs(mid.progress - 0.5), 1e-9)
    expectEqual(t.scene.renderTree(at: 0.7).layer(id: "label")?.text?.string, "Following")
    expectEqual(Self.transition(t, at: 1.0)?.progress, 1)
    // The property tracks see it: `flick trace --property transitionProgress`.
    let traced = t.tracks.state(of: .transitionProgress, layerID: "label", at: 0.6)
    expectLess(abs(traced.value - 0.25), 1e-9)
    expectLess(abs(traced.velocity - 2.5), 1e-9)
    expectEqual(t.tracks.state(of: .transitionProgress, layerID: "label", at: 0.2).value, 1)
  }

  @Test func numbersRollUpOrDownByTheirChange() throws {
    let up = try Self.template(
      "number: 9", #"[{ at: 0.5, target: "label", set: { number: 10 }, transition: { kind: "roll", duration: 0.3 } }]"#)
    let u = try #require(Self.transition(up, at: 0.6))
    expectEqual(u.from, "9")
    expectEqual(u.to, "10")
    expectEqual(u.kind, .roll)
    #expect(!u.countsDown)
    let down = try Self.template(
      "number: 10", #"[{ at: 0.5, target: "label", set: { number: 9 }, transition: { duration: 0.3 } }]"#)
    let d = try #require(Self.transition(down, at: 0.6))
    expectEqual(d.kind, .roll)
    #expect(d.countsDown)
    // Strings that show numbers count by their value; `countsDown` overrides.
    let strings = try Self.template(
      #"string: "3:05""#,
      #"[{ at: 0.5, target: "label", set: { string: "2:59" }, transition: { duration: 0.3 } },"#
        + #" { at: 1, target: "label", set: { string: "Go" }, transition: { duration: 0.3, countsDown: true } }]"#)
    expectEqual(Self.transition(strings, at: 0.6)?.countsDown, true)
    expectEqual(Self.transition(strings, at: 1.1)?.from, "2:59")
    expectEqual(Self.transition(strings, at: 1.1)?.countsDown, true)
    // A number changed earlier by a set is what the next transition starts from.
    let chain = try Self.template(
      "number: 1",
      #"[{ at: 0.2, target: "label", set: { number: 2 } }, "#
        + #"{ at: 0.5, target: "label", set: { number: 3 }, transition: {} }]"#)
    expectEqual(Self.transition(chain, at: 0.6)?.from, "2")
  }

  @Test func kindNoneAndAnUnchangedTextPlayNothing() throws {
    let none = try Self.template(
      "number: 1", #"[{ at: 0.5, target: "label", set: { number: 2 }, transition: { kind: "none", duration: 1 } }]"#)
    #expect(Self.transition(none, at: 0.8) == nil)
    let same = try Self.template(
      "number: 1", #"[{ at: 0.5, target: "label", set: { number: 1.2 }, transition: { duration: 1 } }]"#)
    #expect(Self.transition(same, at: 0.8) == nil)
  }

  @Test func badTransitionsAreRefused() {
    #expect(
      Self.message("number: 1", #"[{ at: 0, target: "label", set: { number: 2 }, transition: { kind: "slide" } }]"#)
        .contains("expected one of: roll, fade, none"))
    #expect(
      Self.message("number: 1", #"[{ at: 0, target: "label", set: { number: 2 }, transition: { kind: "rol" } }]"#)
        .contains("did you mean 'roll'"))
    #expect(
      Self.message("number: 1", #"[{ at: 0, target: "label", set: { opacity: 0 }, transition: {} }]"#)
        .contains("'string' or 'number'"))
    #expect(
      Self.message("number: 1", #"[{ at: 0, target: "label", set: { number: 2 }, transition: { durration: 1 } }]"#)
        .contains("did you mean 'duration'"))
    #expect(
      Self.message("number: 1", #"[{ at: 0, target: "label", animate: { number: 2 }, transition: {} }]"#)
        .contains("'transition'"))
  }

  // MARK: - Pixels

  static func png(_ t: Template, at time: Double) throws -> [UInt8] {
    Array(try Renderer().render(t.scene.renderTree(at: time)).pngData())
  }

  @Test func aRollDrawsBothDigitsMidwayAndSettlesOnThePlainText() throws {
    let timeline = #"[{ at: 0.5, target: "label", set: { number: 10 }, transition: { kind: "roll", duration: 0.4 } }]"#
    let t = try Self.template("number: 9", timeline)
    let plain = try Self.template("number: 9", #"[{ at: 0.5, target: "label", set: { number: 10 } }]"#)
    // Before and after the transition the frames are those of the plain change.
    try expectEqual(Self.png(t, at: 0.4), Self.png(plain, at: 0.4))
    try expectEqual(Self.png(t, at: 1.0), Self.png(plain, at: 1.0))
    // Midway the frame is neither the old text nor the new one, and it is a pure function of time.
    let mid = try Self.png(t, at: 0.7)
    let before = try Self.png(plain, at: 0.4)
    let after = try Self.png(plain, at: 1.0)
    expectNotEqual(mid, before)
    expectNotEqual(mid, after)
    try expectEqual(mid, Self.png(t, at: 0.7))
    // A fade differs from a roll at the same progress.
    let fade = try Self.template("number: 9", timeline.replacingOccurrences(of: "roll", with: "fade"))
    try expectNotEqual(Self.png(fade, at: 0.7), mid)
  }

  @Test func rollingCharactersMoveVertically() throws {
    // "9" → "10" counting up, linear over 1 s: at 0.25 the old 9 has moved up; at 0.6 the new
    // digits, appearing, are still below their place.
    let t = try Self.template(
      "number: 9", #"[{ at: 0, target: "label", set: { number: 10 }, transition: { duration: 1, curve: "linear" } }]"#)
    let frame = try Renderer().render(t.scene.renderTree(at: 0.25))
    let later = try Renderer().render(t.scene.renderTree(at: 0.6))
    let still = try Renderer().render(try Self.template("number: 9", "[]").scene.renderTree(at: 0))
    func inkRows(_ f: Frame) -> (Int, Int) {
      var rows: [Int] = []
      for y in 0..<60 where (0..<160).contains(where: { f.rgba(x: $0, y: y).r > 24 }) { rows.append(y) }
      return (rows.first ?? -1, rows.last ?? -1)
    }
    let (top, _) = inkRows(frame)
    let (_, bottom) = inkRows(later)
    let (stillTop, stillBottom) = inkRows(still)
    expectLess(top, stillTop, "the old digit rolls up")
    expectGreater(bottom, stillBottom, "the new digits come from below")
  }

  // MARK: - Durations

  @Test func durationFormats() throws {
    try expectEqual(TextNumberFormat("%m:ss").string(for: 125), "2:05")
    try expectEqual(TextNumberFormat("m:ss").string(for: 59.6), "1:00")
    try expectEqual(TextNumberFormat("%m:ss").string(for: 3725), "62:05")
    try expectEqual(TextNumberFormat("h:mm:ss").string(for: 3725), "1:02:05")
    try expectEqual(TextNumberFormat("%.1m:ss left").string(for: 65.25), "1:05.3 left")
    try expectEqual(TextNumberFormat("%m:ss").string(for: -5), "-0:05")
    try expectEqual(TextNumberFormat("%m:ss").string(for: -0.2), "0:00")
    try expectEqual(TextNumberFormat("%+6m:ss").string(for: 5), " +0:05")
    try expectEqual(TextNumberFormat("%-6m:ss|").string(for: 5), "0:05  |")
    for bad in ["%m", "%m:s", "%h:ss", "mm:ss"] {
      #expect(throws: TextNumberFormat.Error.self, "\(bad)") { try TextNumberFormat(bad) }
    }
    let t = try Self.template(#"number: 90, format: "m:ss""#, "[]")
    expectEqual(t.scene.renderTree(at: 0).layer(id: "label")?.text?.string, "1:30")
  }
}
