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
    #expect(try TextNumberFormat("%.0f").string(for: 3.49) == "3")
    #expect(try TextNumberFormat("%.0f").string(for: 3.5) == "4")
    #expect(try TextNumberFormat("%.1f%%").string(for: 12.345) == "12.3%")
    #expect(try TextNumberFormat("+%d new").string(for: 2.5) == "+3 new")
    #expect(try TextNumberFormat("%05.1f s").string(for: 3.14159) == "003.1 s")
    // An overshoot just below zero rounds to 0, not -0.
    #expect(try TextNumberFormat("%.0f").string(for: -0.3) == "0")
    #expect(try TextNumberFormat("%d").string(for: -0.3) == "0")
    for bad in ["%s", "%@", "%.0f of %.0f", "count", "%", "%.99f", "%n"] {
      #expect(throws: TextNumberFormat.Error.self, "\(bad)") { try TextNumberFormat(bad) }
    }
  }

  @Test func textLayersDecodeANumberThroughTheirFormat() throws {
    let t = try Self.template(#"number: 1234.5, format: "%.1f pts""#, "[]")
    #expect(Self.shown(t, at: 0) == "1234.5 pts")
    #expect(Self.shown(try Self.template("number: 7", "[]"), at: 0) == "7")
    #expect(Self.message(#"number: 3, string: "3""#).contains("either a 'string' or a 'number'"))
    #expect(Self.message(#"string: "3", format: "%.0f""#).contains("'format' shows a 'number'"))
    #expect(Self.message(#"number: 3, format: "%s""#).contains("not a number conversion"))
    #expect(Self.message(#"number: 3, format: 3"#).contains("format"))
  }

  // MARK: - string in the timeline

  @Test func setChangesTheStringAtItsTime() throws {
    let t = try Self.template(#"string: "Follow""#, #"[{ at: 0.5, target: "label", set: { string: "Following" } }]"#)
    #expect(Self.shown(t, at: 0.49) == "Follow")
    #expect(Self.shown(t, at: 0.5) == "Following")
    #expect(Self.shown(t, at: 2) == "Following")
    // And in an animate entry, with a delay.
    let a = try Self.template(
      #"string: "Follow""#,
      #"[{ at: 0.5, target: "label", animate: { string: { to: "Following", delay: 0.25 }, opacity: 0.5 } }]"#)
    #expect(Self.shown(a, at: 0.7) == "Follow")
    #expect(Self.shown(a, at: 0.75) == "Following")
  }

  @Test func keyframesOfStringsChangeAtTheirKeyTimes() throws {
    let t = try Self.template(
      #"string: "…""#,
      #"[{ at: 1, target: "label", animate: { string: { keyframes: { values: ["3", "2", "1", "Go"], keyTimes: [0, 0.25, 0.5, 0.75] }, duration: 1 } } }]"#
    )
    #expect(Self.shown(t, at: 0.99) == "…")
    #expect(Self.shown(t, at: 1.0) == "3")
    #expect(Self.shown(t, at: 1.3) == "2")
    #expect(Self.shown(t, at: 1.6) == "1")
    #expect(Self.shown(t, at: 1.8) == "Go")
    #expect(Self.shown(t, at: 2.0) == "Go")
    let even = try Self.template(
      #"string: "a""#, #"[{ target: "label", animate: { string: { keyframes: ["x", "y"] } }, duration: 1 }]"#)
    #expect(Self.shown(even, at: 0.25) == "x")
    #expect(Self.shown(even, at: 0.75) == "y")
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
    #expect(Self.shown(t, at: 0.1) == "A")
    #expect(Self.shown(t, at: 0.5) == "B")
    #expect(Self.shown(t, at: 0.9) == "B")  // mirror at 0.6: 0.9 shows 0.3
    #expect(Self.shown(t, at: 1.15) == "A")  // shows 0.05
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
    #expect(peak > 4.2 && peak < 4.5, "the spring overshoots 4 (\(peak)) but not to where %.0f shows 5")
    #expect(samples.contains { $0.velocity[0] > 1 })
    var shown: [String] = []
    for (time, sample) in zip(times, samples) {
      let s = try #require(Self.shown(t, at: time))
      #expect(s == (try TextNumberFormat("%.0f")).string(for: sample.value[0]), "at \(time)")
      if shown.last != s { shown.append(s) }
    }
    #expect(shown == ["3", "4"])
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
    #expect(Self.shown(t, at: 0.55) == "3")
    #expect(before.pixels == early.pixels)
    #expect(before.pixels != after.pixels)
    // The text a number shows draws like the same string written directly.
    let written = try Self.template(#"string: "4""#, "[]")
    #expect(try renderer.render(written.scene.renderTree(at: 0)).pixels == after.pixels)
    // Contents that draw the same text are equal whatever number produced it.
    let a = try #require(t.scene.renderTree(at: 0.2).layer(id: "label")?.text)
    let b = try #require(t.scene.renderTree(at: 0.55).layer(id: "label")?.text)
    #expect(a.number != b.number && a == b && a.hashValue == b.hashValue)
  }
}
