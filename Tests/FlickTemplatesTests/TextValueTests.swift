import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Testing

/// Text as a value: a text layer's `string` set and keyframed in the timeline, and `number`
/// shown through a `format`, animatable with any curve.
@Suite struct TextValueTests {
  static func template(_ label: String, _ timeline: String, duration: Double = 2) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 160, height: 60, duration: \(duration), background: "#000000" },
        layers: [{ id: "label", size: [160, 60], position: [80, 30], fontFamily: "DejaVu Sans", fontSize: 28,
                   textColor: "#FFFFFF", \(label) },
                 { id: "box", size: [10, 10], position: [5, 5] }],
        timeline: \(timeline) }
      """, file: "text.json5")
  }

  static func shown(_ t: Template, at time: Double) -> String? {
    t.scene.renderTree(at: time).layer(id: "label")?.text?.string
  }

  static func message(_ label: String, _ timeline: String = "[]") -> String {
    do {
      _ = try template(label, timeline)
      return ""
    } catch {
      return "\(error)"
    }
  }

  // MARK: - Formats

  @Test func formatsShowOneNumber() throws {
    try expectEqual(TextNumberFormat("%.0f").string(for: 3.49), "3")
    try expectEqual(TextNumberFormat("%.0f").string(for: 3.5), "4")
    try expectEqual(TextNumberFormat("%.1f%%").string(for: 12.345), "12.3%")
    try expectEqual(TextNumberFormat("+%d new").string(for: 2.5), "+3 new")
    try expectEqual(TextNumberFormat("%05.1f s").string(for: 3.14159), "003.1 s")
    // An overshoot just below zero rounds to 0, not -0.
    try expectEqual(TextNumberFormat("%.0f").string(for: -0.3), "0")
    try expectEqual(TextNumberFormat("%d").string(for: -0.3), "0")
    for bad in ["%s", "%@", "%.0f of %.0f", "count", "%", "%.99f", "%n"] {
      #expect(throws: TextNumberFormat.Error.self, "\(bad)") { try TextNumberFormat(bad) }
    }
  }

  @Test func textLayersDecodeANumberThroughTheirFormat() throws {
    let t = try Self.template(#"number: 1234.5, format: "%.1f pts""#, "[]")
    expectEqual(Self.shown(t, at: 0), "1234.5 pts")
    expectEqual(Self.shown(try Self.template("number: 7", "[]"), at: 0), "7")
    #expect(Self.message(#"number: 3, string: "3""#).contains("either a 'string' or a 'number'"))
    #expect(Self.message(#"string: "3", format: "%.0f""#).contains("'format' shows a 'number'"))
    #expect(Self.message(#"number: 3, format: "%s""#).contains("not a number conversion"))
    #expect(Self.message(#"number: 3, format: 3"#).contains("format"))
  }

  // MARK: - string in the timeline

  @Test func setChangesTheStringAtItsTime() throws {
    let t = try Self.template(#"string: "Follow""#, #"[{ at: 0.5, target: "label", set: { string: "Following" } }]"#)
    expectEqual(Self.shown(t, at: 0.49), "Follow")
    expectEqual(Self.shown(t, at: 0.5), "Following")
    expectEqual(Self.shown(t, at: 2), "Following")
    // And in an animate entry, with a delay.
    let a = try Self.template(
      #"string: "Follow""#,
      #"[{ at: 0.5, target: "label", animate: { string: { to: "Following", delay: 0.25 }, opacity: 0.5 } }]"#)
    expectEqual(Self.shown(a, at: 0.7), "Follow")
    expectEqual(Self.shown(a, at: 0.75), "Following")
  }

  @Test func keyframesOfStringsChangeAtTheirKeyTimes() throws {
    let t = try Self.template(
      #"string: "…""#,
      #"[{ at: 1, target: "label", animate: { string: { keyframes: { values: ["3", "2", "1", "Go"], keyTimes: [0, 0.25, 0.5, 0.75] }, duration: 1 } } }]"#
    )
    expectEqual(Self.shown(t, at: 0.99), "…")
    expectEqual(Self.shown(t, at: 1.0), "3")
    expectEqual(Self.shown(t, at: 1.3), "2")
    expectEqual(Self.shown(t, at: 1.6), "1")
    expectEqual(Self.shown(t, at: 1.8), "Go")
    expectEqual(Self.shown(t, at: 2.0), "Go")
    let even = try Self.template(
      #"string: "a""#, #"[{ target: "label", animate: { string: { keyframes: ["x", "y"] } }, duration: 1 }]"#)
    expectEqual(Self.shown(even, at: 0.25), "x")
    expectEqual(Self.shown(even, at: 0.75), "y")
  }

  @Test func stringErrorsSayWhatIsExpected() {
    #expect(Self.message(#"string: "a""#, #"[{ target: "box", set: { string: "b" } }]"#).contains("not a text layer"))
    #expect(Self.message(#"string: "a""#, #"[{ target: "label", set: { string: 3 } }]"#).contains("string"))
    #expect(
      Self.message(
        #"string: "a""#,
        #"[{ target: "label", animate: { string: { keyframes: { values: ["a", "b"], mode: "linear" } } } }]"#
      )
      .contains("discrete"))
    #expect(
      Self.message(#"string: "a""#, #"[{ target: "label", animate: { string: { spring: "bouncy" } } }]"#).contains(
        "spring"))
    #expect(Self.message(#"string: "a""#, #"[{ target: "box", animate: { number: 3 } }]"#).contains("text layer"))
  }

  @Test func autoreversedRepeatPlaysTheStringsBackwards() throws {
    let t = try Self.template(
      #"string: "A""#,
      #"[{ repeat: 1, autoreverses: true, group: [{ at: 0.2, target: "label", set: { string: "B" } }, { at: 0.4, target: "box", animate: { opacity: 0 }, duration: 0.2 }] }]"#
    )
    expectEqual(Self.shown(t, at: 0.1), "A")
    expectEqual(Self.shown(t, at: 0.5), "B")
    expectEqual(Self.shown(t, at: 0.9), "B")  // mirror at 0.6: 0.9 shows 0.3
    expectEqual(Self.shown(t, at: 1.15), "A")  // shows 0.05
  }

  // MARK: - number animates

  @Test func aCounterSpringsAndRoundsItsOvershoot() throws {
    let t = try Self.template(
      #"number: 3, format: "%.0f""#,
      #"[{ at: 0.2, target: "label", animate: { number: 4 }, curve: "spring(response: 0.5, dampingRatio: 0.4)" }]"#)
    let number = try #require(AnyLayerProperty.named("number"))
    var tracks = t.tracks
    let times = (0...60).map { Double($0) / 30 }
    let samples = tracks.trace(number, layerID: "label", at: times)
    let peak = samples.map { $0.value[0] }.max() ?? 0
    expectGreater(peak, 4.2, "the spring overshoots 4 (\(peak)) but not to where %.0f shows 5")
    expectLess(peak, 4.5, "the spring overshoots 4 (\(peak)) but not to where %.0f shows 5")
    #expect(samples.contains { $0.velocity[0] > 1 })
    var shown: [String] = []
    for (time, sample) in zip(times, samples) {
      let s = try #require(Self.shown(t, at: time))
      expectEqual(s, (try TextNumberFormat("%.0f")).string(for: sample.value[0]), "at \(time)")
      if shown.last != s { shown.append(s) }
    }
    expectEqual(shown, ["3", "4"])
    // A bigger jump overshoots visibly, as the format rounds it.
    let big = try Self.template(
      #"number: 0, format: "%.0f""#,
      #"[{ target: "label", animate: { number: 10 }, curve: "spring(response: 0.5, dampingRatio: 0.3)" }]"#)
    let strings = Set((0...60).compactMap { Self.shown(big, at: Double($0) / 30) })
    #expect(strings.contains { (Int($0) ?? 0) > 10 }, "\(strings.sorted())")
  }

  @Test func theRenderedTextChangesAndTheSameStringDrawsTheSame() throws {
    let t = try Self.template(
      #"number: 3, format: "%.0f""#,
      #"[{ at: 0.5, target: "label", animate: { number: 4 }, curve: "easeInEaseOut", duration: 0.5 }]"#)
    let renderer = Renderer()
    let before = try renderer.render(t.scene.renderTree(at: 0.2))
    let early = try renderer.render(t.scene.renderTree(at: 0.55))  // 3.0x: still "3"
    let after = try renderer.render(t.scene.renderTree(at: 1.5))
    expectEqual(Self.shown(t, at: 0.55), "3")
    expectEqual(before.pixels, early.pixels)
    expectNotEqual(before.pixels, after.pixels)
    // The text a number shows draws like the same string written directly.
    let written = try Self.template(#"string: "4""#, "[]")
    try expectEqual(renderer.render(written.scene.renderTree(at: 0)).pixels, after.pixels)
    // Contents that draw the same text are equal whatever number produced it.
    let a = try #require(t.scene.renderTree(at: 0.2).layer(id: "label")?.text)
    let b = try #require(t.scene.renderTree(at: 0.55).layer(id: "label")?.text)
    expectNotEqual(a.number, b.number)
    expectEqual(a, b)
    expectEqual(a.hashValue, b.hashValue)
  }
}
