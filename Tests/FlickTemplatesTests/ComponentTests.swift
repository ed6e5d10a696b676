import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// Components: a `components` definition, `use:` instances with `params`, ids qualified as
/// `instance/inner`, each instance's timeline played as a group (`at`, `repeat`, `autoreverses`,
/// `autoplay`) and again with `{ play: id }`. Every test compares the expansion with the same
/// scene written out by hand, or checks the motion through the tracks.
@Suite struct ComponentTests {
  static func decode(_ text: String) throws(TemplateError) -> Template { try Template.decode(text, file: "c.json5") }

  static func message(_ text: String) -> String {
    do {
      _ = try decode(text)
      return ""
    } catch {
      return error.description
    }
  }

  /// The two scenes draw the same layer trees at every frame time (and `extra` times).
  static func expectSameScenes(
    _ a: Scene, _ b: Scene, extra: [Double] = [], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectEqual(a.layers, b.layers, sourceLocation: sourceLocation)
    expectEqual(a.animations.count, b.animations.count, sourceLocation: sourceLocation)
    expectEqual(a.duration, b.duration, sourceLocation: sourceLocation)
    let times = (0...Int(a.duration * 60)).map { Double($0) / 60 } + extra
    for t in times where a.renderTree(at: t) != b.renderTree(at: t) {
      Issue.record("the trees differ at \(t) s", sourceLocation: sourceLocation)
      return
    }
  }

  static let pill = """
    pill: {
      description: "A pill with a knob that slides across and back.",
      parameters: {
        label: { type: "string" },
        width: { type: "number", default: 120, minimum: 60 },
        on: { type: "integer", minimum: 0, maximum: 1, default: 0 },
      },
      layer: { id: "ignored", size: ["$width", 40], cornerRadius: 20, backgroundColor: "$accent", sublayers: [
        { id: "knob", size: [32, 32], position: ["$(20 + (width - 40) * on)", 20], backgroundColor: "#FFFFFF" },
        { id: "text", string: "${label}!", fontSize: 14, size: [80, 20], position: ["$(width / 2)", 20] } ] },
      timeline: [ { id: "slide", sequence: [
        { target: "knob", animate: { positionX: "$(width - 20 - (width - 40) * on)" }, curve: "easeInEaseOut", duration: 0.5 },
        { target: "knob", animate: { positionX: "$(20 + (width - 40) * on)" }, spring: { response: 0.4, dampingRatio: 0.7 } } ] } ],
    }
    """

  /// The sequence `pill` plays, written out for a knob `id` of a pill `width` wide in state `on`.
  static func slide(_ id: String, width: Double, on: Double) -> String {
    let home = 20 + (width - 40) * on
    let away = width - 20 - (width - 40) * on
    return """
      { target: "\(id)", animate: { positionX: \(away) }, curve: "easeInEaseOut", duration: 0.5 },
      { target: "\(id)", animate: { positionX: \(home) }, spring: { response: 0.4, dampingRatio: 0.7 } }
      """
  }

  static func handPill(
    _ id: String, label: String, width: Double, on: Double, position: String, accent: String = "#22C55E"
  )
    -> String
  {
    """
    { id: "\(id)", size: [\(width), 40], cornerRadius: 20, backgroundColor: "\(accent)", sublayers: [
        { id: "\(id)/knob", size: [32, 32], position: [\(20 + (width - 40) * on), 20], backgroundColor: "#FFFFFF" },
        { id: "\(id)/text", string: "\(label)!", fontSize: 14, size: [80, 20], position: [\(width / 2), 20] } ],
      position: \(position) }
    """
  }

  @Test func expansionEqualsTheSceneWrittenByHand() throws {
    let components = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: "auto" },
        parameters: { accent: { type: "color", default: "#22C55E" }, second: { type: "string", default: "B" } },
        components: { \(Self.pill) },
        layers: [
          { id: "a", use: "pill", params: { label: "A" }, position: [100, 100] },
          { id: "b", use: "pill", params: { label: "$second", width: 160, on: 1 }, position: [200, 200], at: 1 },
        ],
        timeline: [ { at: 2.5, play: "a" }, { after: "a/slide", target: "b", animate: { opacity: 0.5 }, duration: 0.25 } ] }
      """)
    let hand = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: "auto" },
        layers: [
          \(Self.handPill("a", label: "A", width: 120, on: 0, position: "[100, 100]")),
          \(Self.handPill("b", label: "B", width: 160, on: 1, position: "[200, 200]")),
        ],
        timeline: [
          { group: [ { sequence: [ \(Self.slide("a/knob", width: 120, on: 0)) ] } ] },
          { at: 1, group: [ { sequence: [ \(Self.slide("b/knob", width: 160, on: 1)) ] } ] },
          { at: 2.5, group: [ { id: "slide", sequence: [ \(Self.slide("a/knob", width: 120, on: 0)) ] } ] },
          { after: "slide", target: "b", animate: { opacity: 0.5 }, duration: 0.25 },
        ] }
      """)
    Self.expectSameScenes(components.scene, hand.scene, extra: [0.25, 1.25, 2.75])
    // The knob really moves, twice for a (at 0 and 2.5 s), once for b (at 1 s).
    let x = { (id: String, t: Double) in TimelineTests.x(components.scene, id, t) }
    expectEqual(x("a/knob", 0), 20)
    expectEqual(x("a/knob", 0.5), 100)
    expectEqual(x("a/knob", 3), 100)
    expectEqual(x("b/knob", 1), 140)
    expectEqual(x("b/knob", 1.5), 20)
    expectEqual(components.componentInstances.map(\.id), ["a", "b"])
    expectEqual(components.componentInstances[1].parameterValues["label"]?.kind, .string("B"))
  }

  @Test func repeatAndAutoreversesLoopTheInstanceAndThePlay() throws {
    let components = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: "auto" },
        parameters: { accent: { type: "color", default: "#22C55E" } },
        components: { \(Self.pill) },
        layers: [ { id: "a", use: "pill", params: { label: "A" }, repeat: 2, autoreverses: true },
                  { id: "b", use: "pill", params: { label: "B" }, autoplay: false } ],
        timeline: [ { at: 0.5, play: "b", repeat: 3 } ] }
      """)
    let hand = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: "auto" },
        layers: [ \(Self.handPill("a", label: "A", width: 120, on: 0, position: "[0, 0]")),
                  \(Self.handPill("b", label: "B", width: 120, on: 0, position: "[0, 0]")) ],
        timeline: [
          { repeat: 2, autoreverses: true, group: [ { id: "slide", sequence: [ \(Self.slide("a/knob", width: 120, on: 0)) ] } ] },
          { at: 0.5, repeat: 3, group: [ { id: "slide2", sequence: [ \(Self.slide("b/knob", width: 120, on: 0)) ] } ] },
        ] }
      """.replacingOccurrences(of: "position: [0, 0] }", with: "}"))
    Self.expectSameScenes(components.scene, hand.scene)
    expectEqual(components.scene.animations.filter { $0.layerID == "b/knob" }.count, 6)
  }

  @Test func nestedComponentsQualifyIdsAndPassParametersDown() throws {
    let template = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: "auto" },
        parameters: { accent: { type: "color", default: "#0A84FF" } },
        components: {
          \(Self.pill),
          list: {
            parameters: { first: { type: "string" }, accent: { type: "color", default: "#FF9F0A" } },
            size: [200, 120],
            layers: [
              { id: "one", use: "pill", params: { label: "$first" }, position: [100, 30] },
              { id: "two", use: "pill", params: { label: "${first} 2", on: 1 }, position: [100, 90], after: "intro" },
            ],
            timeline: [ { id: "intro", target: "one", animate: { opacity: 0.5 }, duration: 0.5 } ],
          },
        },
        layers: [ { id: "list", use: "list", params: { first: "Wi-Fi" }, position: [200, 150] } ],
        timeline: [ { at: 3, target: "list/two/knob", animate: { opacity: 0 }, duration: 0.25 } ] }
      """)
    let hand = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: "auto" },
        layers: [ { id: "list", size: [200, 120], position: [200, 150], sublayers: [
          \(Self.handPill("list/one", label: "Wi-Fi", width: 120, on: 0, position: "[100, 30]", accent: "#0A84FF")),
          \(Self.handPill("list/two", label: "Wi-Fi 2", width: 120, on: 1, position: "[100, 90]", accent: "#0A84FF")),
        ] } ],
        timeline: [
          { group: [
            { group: [ { sequence: [ \(Self.slide("list/one/knob", width: 120, on: 0)) ] } ] },
            { id: "intro", target: "list/one", animate: { opacity: 0.5 }, duration: 0.5 },
            { after: "intro", group: [ { sequence: [ \(Self.slide("list/two/knob", width: 120, on: 1)) ] } ] },
          ] },
          { at: 3, target: "list/two/knob", animate: { opacity: 0 }, duration: 0.25 },
        ] }
      """)
    Self.expectSameScenes(template.scene, hand.scene)
    // The pill sees the template's accent, not the list's parameter of the same name (lexical scope).
    expectEqual(template.scene.layers[0].sublayers[0].backgroundColor, Color(hex: "#0A84FF"))
    expectEqual(template.componentInstances.map(\.id), ["list", "list/one", "list/two"])
  }

  @Test func aComponentParameterShadowsTheTemplatesOfTheSameName() throws {
    let template = try Self.decode(
      """
      { flick: 1, canvas: { width: 100, height: 100, duration: 1 },
        parameters: { color: { type: "color", default: "#FF0000" }, size: { type: "number", default: 10 } },
        components: { dot: { parameters: { color: { type: "color", default: "#00FF00" } },
                              layer: { size: ["$size", "$size"], backgroundColor: "$color" } } },
        layers: [ { id: "d", use: "dot" }, { id: "e", use: "dot", params: { color: "$color" } } ] }
      """)
    expectEqual(template.scene.layers[0].backgroundColor, Color(hex: "#00FF00"))
    expectEqual(template.scene.layers[0].bounds.size, Size(width: 10, height: 10))
    expectEqual(template.scene.layers[1].backgroundColor, Color(hex: "#FF0000"))
  }

  @Test func theInstanceOverridesTheRootsGeometry() throws {
    let template = try Self.decode(
      """
      { flick: 1, canvas: { width: 100, height: 100, duration: 1 },
        components: { dot: { layer: { size: [10, 10], position: [5, 5], opacity: 0.5, backgroundColor: "#00FF00" } } },
        layers: [ { id: "d", use: "dot", position: [50, 60], size: [20, 20], transform: { rotation: "90deg" } } ] }
      """)
    let d = template.scene.layers[0]
    expectEqual(d.position, Point(x: 50, y: 60))
    expectEqual(d.bounds.size, Size(width: 20, height: 20))
    expectEqual(d.opacity, 0.5)
    expectLess(abs(d.transform.rotation - .pi / 2), 1e-12)
  }

  /// Value and velocity carry over both ways: the main timeline retargets a knob the
  /// component's spring is moving, and a play takes over a knob the main timeline moves.
  @Test func motionHandsOverBetweenTheComponentAndTheMainTimeline() throws {
    var template = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: 4 },
        components: { mover: { layer: { size: [300, 40], sublayers: [ { id: "knob", size: [20, 20], position: [0, 20] } ] },
          timeline: [ { target: "knob", animate: { positionX: 200 }, spring: { response: 0.6, dampingRatio: 0.8 } } ] } },
        layers: [ { id: "m", use: "mover" }, { id: "n", use: "mover", autoplay: false } ],
        timeline: [
          { at: 0.3, target: "m/knob", animate: { positionX: 50 }, spring: { response: 0.5, dampingRatio: 0.9 } },
          { at: 1, target: "n/knob", animate: { positionX: 100 }, curve: "linear", duration: 1 },
          { at: 1.5, play: "n" },
        ] }
      """)
    let x = AnyLayerProperty.named("positionX")!
    for (id, t) in [("m/knob", 0.3), ("n/knob", 1.5)] {
      let left = template.tracks.trace(x, layerID: id, at: [t], limit: .left)[0]
      let right = template.tracks.trace(x, layerID: id, at: [t], limit: .right)[0]
      expectLess(abs(left.value[0] - right.value[0]), 1e-9, "\(id) value at \(t)")
      expectLess(abs(left.velocity[0] - right.velocity[0]), 1e-6, "\(id) velocity at \(t)")
      expectGreater(abs(right.velocity[0]), 10, "\(id) is moving at \(t)")
    }
    // n's linear tween moves at 100 pt/s when the play's spring takes over.
    let n = template.tracks.trace(x, layerID: "n/knob", at: [1.5], limit: .right)[0]
    expectLess(abs(n.velocity[0] - 100), 1e-6)
  }

  @Test func anInstanceCanStartAfterAnEntryOfTheMainTimeline() throws {
    let template = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: "auto" },
        components: { fader: { layer: { size: [10, 10] }, timeline: [ { id: "fade", target: "fader", animate: { opacity: 0 }, duration: 0.5 } ] } },
        layers: [ { id: "box", size: [10, 10] }, { id: "f", use: "fader", after: "intro", delay: 0.25 } ],
        timeline: [ { id: "intro", target: "box", animate: { positionX: 100 }, duration: 1, curve: "linear" },
                    { after: "f/fade", target: "box", animate: { opacity: 0 }, duration: 0.5 } ] }
      """.replacingOccurrences(of: "target: \"fader\"", with: "target: \"dot\"")
        .replacingOccurrences(
          of: "layer: { size: [10, 10] }", with: "layer: { size: [10, 10], sublayers: [{ id: \"dot\", size: [4, 4] }] }"
        ))
    let fade = try #require(template.scene.animations.first { $0.layerID == "f/dot" })
    expectEqual(fade.beginTime, 1.25)
    expectEqual(template.scene.animations.last?.layerID, "box")
    expectEqual(template.scene.animations.last?.beginTime, 1.75)
  }

  @Test func anInstanceCanStartWithANestedEntryAndPlaysCanBeNamed() throws {
    let template = try Self.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: "auto" },
        components: { blink: { layer: { size: [10, 10], sublayers: [{ id: "dot", size: [4, 4] }] },
                               timeline: [ { target: "dot", animate: { opacity: 0 }, duration: 0.5 } ] } },
        layers: [ { id: "box", size: [10, 10] }, { id: "b", use: "blink", with: "inner", delay: 0.1 } ],
        timeline: [ { at: 1, group: [ { id: "inner", at: 0.5, target: "box", animate: { opacity: 0 }, duration: 1 } ] },
                    { id: "again", at: 3, play: "b" },
                    { after: "again", target: "box", animate: { opacity: 1 }, duration: 0.5 } ] }
      """)
    let dots = template.scene.animations.filter { $0.layerID == "b/dot" }.map(\.beginTime)
    #expect(dots.count == 2 && TimelineTests.near(dots[0], 1.6, 1e-12) && dots[1] == 3, "\(dots)")
    expectEqual(template.scene.animations.last?.beginTime, 3.5)
  }

  /// `params` on a play substitute the component's timeline again: the switch flips back, and a
  /// parameter the play does not give keeps the instance's value (travel 20), not its default.
  @Test func aPlayWithParamsFlipsTheSwitchBack() throws {
    let toggle = """
      toggle: { parameters: { on: { type: "integer", minimum: 0, maximum: 1, default: 0 }, travel: { type: "number", default: 10 } },
        layer: { size: [51, 31], sublayers: [ { id: "knob", size: [27, 27], position: ["$(15.5 + travel * on)", 15.5] } ] },
        timeline: [ { target: "knob", animate: { positionX: "$(15.5 + travel - travel * on)" }, curve: "easeOut", duration: 0.3 } ] }
      """
    let template = try Self.decode(
      """
      { flick: 1, canvas: { width: 100, height: 100, duration: "auto" }, components: { \(toggle) },
        layers: [ { id: "t", use: "toggle", at: 0.5, params: { travel: 20 } } ],
        timeline: [ { at: 1.5, play: "t", params: { on: 1 } }, { at: 2.5, play: "t", params: { on: 0 } } ] }
      """)
    let hand = try Self.decode(
      """
      { flick: 1, canvas: { width: 100, height: 100, duration: "auto" },
        layers: [ { id: "t", size: [51, 31], sublayers: [ { id: "t/knob", size: [27, 27], position: [15.5, 15.5] } ] } ],
        timeline: [
          { at: 0.5, group: [ { target: "t/knob", animate: { positionX: 35.5 }, curve: "easeOut", duration: 0.3 } ] },
          { at: 1.5, group: [ { target: "t/knob", animate: { positionX: 15.5 }, curve: "easeOut", duration: 0.3 } ] },
          { at: 2.5, group: [ { target: "t/knob", animate: { positionX: 35.5 }, curve: "easeOut", duration: 0.3 } ] },
        ] }
      """)
    Self.expectSameScenes(template.scene, hand.scene)
    expectEqual(TimelineTests.x(template.scene, "t/knob", 2), 15.5)
    expectEqual(TimelineTests.x(template.scene, "t/knob", 3), 35.5)
    let typo = Self.message(
      """
      { flick: 1, canvas: { width: 100, height: 100, duration: "auto" }, components: { \(toggle) },
        layers: [ { id: "t", use: "toggle" } ], timeline: [ { at: 1.5, play: "t", params: { of: 1 } } ] }
      """)
    #expect(
      typo.contains("timeline[0].params.of: component 'toggle' has no parameter 'of'; did you mean 'on'?"), "\(typo)")
  }

  @Test func templatesWithoutComponentsDecodeAsBefore() throws {
    // Without instances the expansion hands back the very layers and timeline it was given
    // (the goldens check the frames too), and no bundled template but the two that show
    // components off (settings-toggles, swipe-deck) has any.
    let withComponents: Set = ["settings-toggles.json5", "swipe-deck.json5"]
    for url in FixturePaths.json5Files(in: FixturePaths.templates) where !withComponents.contains(url.lastPathComponent)
    {
      let template = try Template.load(path: url.path)
      #expect(template.componentInstances.isEmpty, "\(url.lastPathComponent)")
      let doc = TemplateNode(document: try JSON5Parser.parse(String(contentsOf: url, encoding: .utf8)), file: url.path)
      let expanded = try Template.expandComponents(
        [:], layers: doc.member("layers"), timeline: doc.member("timeline"), in: doc, values: [:],
        budget: ExpansionBudget(limit: 1 << 30))
      expectEqual(expanded.layers?.value, doc.member("layers")?.value, "\(url.lastPathComponent)")
      expectEqual(expanded.timeline?.value, doc.member("timeline")?.value, "\(url.lastPathComponent)")
      expectEqual(expanded.timeline?.path, "timeline")
      #expect(expanded.instances.isEmpty)
    }
    // Without components the written timeline keeps its paths.
    #expect(
      Self.message(
        """
        { flick: 1, canvas: { width: 10, height: 10, duration: 1 }, layers: [{ id: "a" }],
          timeline: [ { target: "a", animate: { opacity: 0 } }, { target: "b", animate: { opacity: 0 } } ] }
        """
      ).contains("timeline[1].target: no layer with id 'b'"))
  }

  // MARK: - Errors

  @Test func errorsNameTheInstanceAndTheDefinition() {
    let m = Self.message(
      """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        components: { row: { parameters: { size: { type: "number", default: 12 } },
                             layer: { sublayers: [ { id: "t", string: "x", fontSize: "$label" } ] } } },
        layers: [ { id: "a" }, { id: "r", use: "row" } ] }
      """)
    #expect(
      m.contains("layers[1] (use \"row\") → components.row.layer.sublayers[0].fontSize: unknown parameter '$label'"),
      "\(m)")
    let typed = Self.message(
      """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        components: { row: { parameters: { size: { type: "string", default: "big" } },
                             layer: { sublayers: [ { id: "t", string: "x", fontSize: "$size" } ] } } },
        layers: [ { id: "a" }, { id: "r", use: "row" } ] }
      """)
    #expect(
      typed.contains(":3:80: layers[1] (use \"row\") → components.row.layer.sublayers[0].fontSize: expected a number"),
      "\(typed)")
    #expect(typed.contains("value from parameter 'size'"), "\(typed)")
    let timeline = Self.message(
      """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        components: { row: { layer: { sublayers: [ { id: "knob" } ] }, timeline: [ { target: "nob", animate: { opacity: 0 } } ] } },
        layers: [ { id: "r", use: "row" } ] }
      """)
    #expect(
      timeline.contains(
        "layers[0] (use \"row\") → components.row.timeline[0].target: no layer with id 'nob' in the component; did you mean 'knob'?"
      ), "\(timeline)")
  }

  @Test func aComponentUsedAMillionTimesFailsFast() {
    let m = Self.message(
      """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        components: {
          dot: { layer: { size: [1, 1] } },
          row: { layers: [ \((0..<1000).map { "{ id: \"d\($0)\", use: \"dot\" }" }.joined(separator: ", ")) ] },
        },
        layers: [ \((0..<1000).map { "{ id: \"r\($0)\", use: \"row\" }" }.joined(separator: ", ")) ] }
      """)
    #expect(m.contains("more than 10000 component instances"), "\(m)")
    #expect(m.contains("row → dot"), "\(m)")
  }

  @Test func nestingDeeperThanTheLimitIsAnError() {
    let names = (0...ComponentTestsDepth.count).map { "c\($0)" }
    let definitions = names.enumerated().map { i, name in
      i == names.count - 1
        ? "\(name): { layer: { size: [1, 1] } }"
        : "\(name): { layers: [ { id: \"x\", use: \"\(names[i + 1])\" } ] }"
    }
    let m = Self.message(
      """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        components: { \(definitions.joined(separator: ", ")) },
        layers: [ { id: "root", use: "c0" } ] }
      """)
    #expect(m.contains("components are nested deeper than 16 levels"), "\(m)")
  }

  @Test func aSmallerLimitIsHonoured() throws {
    var options = TemplateOptions()
    options.limits.maximumComponentInstances = 2
    let text = """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        components: { dot: { layer: { size: [1, 1] } } },
        layers: [ { id: "a", use: "dot" }, { id: "b", use: "dot" }, { id: "c", use: "dot" } ] }
      """
    #expect(throws: TemplateError.self) { try Template.decode(text, options: options) }
    options.limits.maximumComponentInstances = 3
    try expectEqual(Template.decode(text, options: options).componentInstances.count, 3)
  }
}

/// How deep the nesting test goes (one past the limit).
enum ComponentTestsDepth {
  static let count = 17
}
