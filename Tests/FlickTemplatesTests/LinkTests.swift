import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// `link` entries: a property as a function of another property at the same time (or of time),
/// value by the map, velocity by the chain rule, read from the tracks (what `flick trace`
/// prints) and rendered by the scene (the same numbers), with hand-overs out of a link that
/// keep value and velocity at 24, 30, 60 and 120 fps.
@Suite struct LinkTests {
  /// `a` moves along x from 100 to 300 in one second, linearly; `timeline` comes after that.
  static func template(fps: Int = 60, duration: Double = 4, _ timeline: String) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: \(duration) },
        layers: [
          { id: "a", size: [40, 40], position: [100, 100] },
          { id: "b", size: [40, 40], position: [200, 200], backgroundColor: "#000000" },
          { id: "c", size: [40, 40], position: [300, 300] },
        ],
        timeline: [
          { id: "move", target: "a", animate: { positionX: 300 }, curve: "linear", duration: 1 },
          \(timeline)
        ] }
      """, file: "links.json5")
  }

  static func sample(_ t: Template, _ layer: String, _ property: String, at time: Double, limit: TrackLimit = .right)
    -> TraceSample
  {
    var tracks = t.tracks
    return tracks.trace(AnyLayerProperty.named(property)!, layerID: layer, at: [time], limit: limit)[0]
  }

  /// The rendered layer at `time` (the scene's animations, not the tracks).
  static func rendered(_ t: Template, _ layer: String, at time: Double) -> Layer {
    t.scene.renderTree(at: time).layer(id: layer)!
  }

  @Test func valueIsTheMapOfTheSource() throws {
    let t = try Self.template(
      #"{ at: 0, target: "b", link: { rotation: { from: "a.positionX", input: [100, 300], output: ["0deg", "90deg"] } } }"#
    )
    for time in [0.0, 0.25, 0.5, 0.75, 1.0, 2.0] {
      let x = 100 + 200 * min(time, 1)
      let expected = (x - 100) / 200 * .pi / 2
      expectLess(abs(Self.sample(t, "b", "rotation", at: time).value[0] - expected), 1e-12)
      // The render path gives the same value as the tracks.
      expectLess(abs(Self.rendered(t, "b", at: time).transform.rotation - expected), 1e-12)
    }
  }

  @Test func velocityIsTheChainRule() throws {
    let t = try Self.template(
      #"{ at: 0, target: "b", link: { rotation: { from: "a.positionX", input: [100, 300], output: ["0deg", "90deg"] } } }"#
    )
    // d rotation / dt = (π/2 / 200 pt) · 200 pt/s.
    expectLess(abs(Self.sample(t, "b", "rotation", at: 0.5).velocity[0] - .pi / 2), 1e-9)
    // At the end of the source's motion: the left limit still moves, the right one has stopped.
    expectLess(abs(Self.sample(t, "b", "rotation", at: 1, limit: .left).velocity[0] - .pi / 2), 1e-9)
    expectEqual(Self.sample(t, "b", "rotation", at: 1).velocity[0], 0)
  }

  @Test func velocityGoesThroughTheCurveBetweenStops() throws {
    let t = try Self.template(
      #"""
      { at: 0, target: "b", link: { opacity: { from: "a.positionX", input: [100, 300], output: [0, 1], curve: "easeIn" } } }
      """#)
    let u = 0.25  // at 0.25 s the source is a quarter of the way
    expectLess(abs(Self.sample(t, "b", "opacity", at: 0.25).value[0] - TimingFunction.easeIn.progress(at: u)), 1e-12)
    let expected = TimingFunction.easeIn.slope(at: u) / 200 * 200
    expectLess(abs(Self.sample(t, "b", "opacity", at: 0.25).velocity[0] - expected), 1e-9)
  }

  @Test func clampExtendAndIdentity() throws {
    // The source goes 100 → 300; the stops cover only 150 … 250.
    func link(_ extra: String) throws -> Template {
      try Self.template(
        #"{ at: 0, target: "b", link: { positionY: { from: "a.positionX", input: [150, 250], output: [0, 50]\#(extra) } } }"#
      )
    }
    let clamp = try link("")
    expectEqual(Self.sample(clamp, "b", "positionY", at: 0.1).value[0], 0)
    expectEqual(Self.sample(clamp, "b", "positionY", at: 0.1).velocity[0], 0)
    expectEqual(Self.sample(clamp, "b", "positionY", at: 0.9).value[0], 50)
    let extend = try link(#", extrapolate: "extend""#)
    expectLess(abs(Self.sample(extend, "b", "positionY", at: 0.1).value[0] - -15), 1e-9)  // x = 120
    expectLess(abs(Self.sample(extend, "b", "positionY", at: 0.9).value[0] - 65), 1e-9)  // x = 280
    expectLess(abs(Self.sample(extend, "b", "positionY", at: 0.9).velocity[0] - 100), 1e-9)  // 0.5 · 200 pt/s
    let identity = try link(#", extrapolateLeft: "identity", extrapolateRight: "clamp""#)
    expectLess(abs(Self.sample(identity, "b", "positionY", at: 0.1).value[0] - 120), 1e-9)
    expectLess(abs(Self.sample(identity, "b", "positionY", at: 0.1).velocity[0] - 200), 1e-9)
    expectEqual(Self.sample(identity, "b", "positionY", at: 0.9).value[0], 50)
  }

  @Test func slopeAtAStopIsTakenFromTheSideTheSourceComesFrom() throws {
    // A kink at x = 200 (reached at 0.5 s): slope 0.1 below, 1 above.
    let t = try Self.template(
      #"{ at: 0, target: "b", link: { positionY: { from: "a.positionX", input: [100, 200, 300], output: [0, 10, 110] } } }"#
    )
    expectLess(abs(Self.sample(t, "b", "positionY", at: 0.5, limit: .left).velocity[0] - 20), 1e-9)
    expectLess(abs(Self.sample(t, "b", "positionY", at: 0.5, limit: .right).velocity[0] - 200), 1e-9)
  }

  @Test func timeAsTheSource() throws {
    let t = try Self.template(
      #"{ at: 0, target: "b", link: { opacity: { from: "time", input: [1, 3], output: [1, 0] } } }"#)
    expectEqual(Self.sample(t, "b", "opacity", at: 0.5).value[0], 1)
    expectLess(abs(Self.sample(t, "b", "opacity", at: 2).value[0] - 0.5), 1e-12)
    expectLess(abs(Self.sample(t, "b", "opacity", at: 2).velocity[0] - -0.5), 1e-12)
    expectLess(abs(Self.rendered(t, "b", at: 2).opacity - 0.5), 1e-12)
  }

  @Test func pointAndColourOutputs() throws {
    let t = try Self.template(
      #"""
      { at: 0, target: "b", link: {
          position: { from: "a.positionX", input: [100, 300], output: [[0, 0], [100, 50]] },
          backgroundColor: { from: "a.positionX", input: [100, 300], output: ["#0000ff", "#00ff00"], colorSpace: "oklab" } } }
      """#)
    let p = Self.sample(t, "b", "position", at: 0.5)
    #expect(abs(p.value[0] - 50) < 1e-9 && abs(p.value[1] - 25) < 1e-9)
    #expect(abs(p.velocity[0] - 100) < 1e-9 && abs(p.velocity[1] - 50) < 1e-9)
    // The colour goes through OKLab: the midpoint is OKLab's, and the velocity is the exact
    // derivative (checked here against a central difference of the values).
    let mid = ColorSpace.oklab.color(
      from: ColorSpace.oklab.components(of: Color(red: 0, green: 0, blue: 1))
        .interpolated(to: ColorSpace.oklab.components(of: Color(red: 0, green: 1, blue: 0)), amount: 0.5))
    let c = Self.sample(t, "b", "backgroundColor", at: 0.5)
    #expect(
      abs(c.value[0] - mid.red) < 1e-12 && abs(c.value[1] - mid.green) < 1e-12 && abs(c.value[2] - mid.blue) < 1e-12)
    let h = 1e-5
    let before = Self.sample(t, "b", "backgroundColor", at: 0.5 - h).value
    let after = Self.sample(t, "b", "backgroundColor", at: 0.5 + h).value
    for i in 0..<4 {
      expectLess(abs(c.velocity[i] - (after[i] - before[i]) / (2 * h)), 1e-5, "component \(i)")
    }
  }

  @Test func linksOfLinks() throws {
    let t = try Self.template(
      #"""
      { at: 0, target: "b", link: { positionX: { from: "a.positionX", input: [100, 300], output: [0, 100] } } },
      { at: 0, target: "c", link: { rotation: { from: "b.positionX", input: [0, 100], output: [0, 2] } } }
      """#)
    expectLess(abs(Self.sample(t, "c", "rotation", at: 0.5).value[0] - 1), 1e-12)
    expectLess(abs(Self.sample(t, "c", "rotation", at: 0.5).velocity[0] - 2), 1e-9)  // 0.02 · 0.5 · 200
    expectLess(abs(Self.rendered(t, "c", at: 0.5).transform.rotation - 1), 1e-12)
  }

  @Test func oneComponentMayFollowAnother() throws {
    // positionY follows positionX of the same layer: two parts of one state, no cycle.
    let t = try Self.template(
      #"{ at: 0, target: "a", link: { positionY: { from: "positionX", input: [100, 300], output: [100, 0] } } }"#)
    let p = Self.sample(t, "a", "position", at: 0.5)
    #expect(abs(p.value[0] - 200) < 1e-9 && abs(p.value[1] - 50) < 1e-9)
    expectLess(abs(p.velocity[1] - -100), 1e-9)
  }

  @Test func aLinkReadsAnimationsOfItsSourceListedAfterIt() throws {
    // The link is listed first; the source's release comes later in the file.
    let t = try Self.template(
      #"""
      { at: 0, target: "b", link: { rotation: { from: "a.positionX", input: [100, 500], output: [0, 4], extrapolate: "extend" } } },
      { after: "move", target: "a", release: { property: "positionX", to: 350 } }
      """#)
    let x = Self.sample(t, "a", "positionX", at: 1.3).value[0]
    expectLess(abs(Self.sample(t, "b", "rotation", at: 1.3).value[0] - (x - 100) / 100), 1e-12)
    expectLess(abs(Self.rendered(t, "b", at: 1.3).transform.rotation - (x - 100) / 100), 1e-12)
  }

  @Test(arguments: HandOverTests.rates) func handOverOutOfALinkKeepsValueAndVelocity(fps: Int) throws {
    let join = Double(fps / 2) / Double(fps)  // half a second, on the frame grid
    let t = try Self.template(
      fps: fps,
      #"""
      { at: 0, target: "b", link: { rotation: { from: "a.positionX", input: [100, 300], output: ["-12deg", "12deg"], curve: "easeInEaseOut" } } },
      { at: \#(join), target: "b", animate: { rotation: 0 }, spring: { bounciness: 8, speed: 12 } }
      """#)
    HandOverTests.expectContinuous(t, "b", "rotation", at: join, travel: 0.4)
    // The spring starts from the linked value and the linked velocity.
    let left = Self.sample(t, "b", "rotation", at: join, limit: .left)
    let x = 100 + 200 * join
    let u = (x - 100) / 200
    expectLess(abs(left.value[0] - (-12 + 24 * TimingFunction.easeInEaseOut.progress(at: u)) * .pi / 180), 1e-12)
    expectLess(abs(left.velocity[0] - 24 * .pi / 180 * TimingFunction.easeInEaseOut.slope(at: u)), 1e-9)
    // The frame after the join shows the spring in the scene too.
    let rendered = Self.rendered(t, "b", at: join + 1 / Double(fps)).transform.rotation
    expectLess(abs(rendered - Self.sample(t, "b", "rotation", at: join + 1 / Double(fps)).value[0]), 1e-12)
  }

  @Test(arguments: HandOverTests.rates) func releaseOutOfALinkKeepsTheLinkedVelocity(fps: Int) throws {
    let join = Double(fps / 4) / Double(fps)
    let t = try Self.template(
      fps: fps,
      #"""
      { at: 0, target: "b", link: { positionY: { from: "a.positionX", input: [100, 300], output: [200, 0] } } },
      { at: \#(join), target: "b", release: { property: "positionY", decay: {} } }
      """#)
    HandOverTests.expectContinuous(t, "b", "positionY", at: join, travel: 200)
    expectLess(abs(Self.sample(t, "b", "positionY", at: join, limit: .left).velocity[0] - -200), 1e-9)
  }

  @Test func anAutoreversedLinkMayNotChangeUnderItsReplay() throws {
    // The repeat plays the linked rotation backwards from 1 s as the tracks had it; a later
    // entry moving the source inside that second would make the replay disagree with it.
    let error = #expect(throws: TemplateError.self) {
      _ = try Self.template(
        #"""
        { at: 1.5, group: [
            { target: "b", link: { rotation: { from: "c.positionX", input: [300, 400], output: [0, 1] } } },
            { target: "b", animate: { opacity: 0.5 }, duration: 1 } ], autoreverses: true },
        { at: 2, target: "c", animate: { positionX: 400 }, duration: 0.2 }
        """#)
    }
    expectEqual(
      error?.description.contains(
        "c.positionX starts at 2 s, but b.rotation follows it through a link and the entry at timeline[1] already took over that value at 2.5 s"
      ), true, "\(String(describing: error))")
    // Listed above the repeat, the same motion is fine: the replay reads it.
    let t = try Self.template(
      #"""
      { at: 2, target: "c", animate: { positionX: 400 }, duration: 0.2 },
      { at: 1.5, group: [
          { target: "b", link: { rotation: { from: "c.positionX", input: [300, 400], output: [0, 1] } } },
          { target: "b", animate: { opacity: 0.5 }, duration: 1 } ], autoreverses: true }
      """#)
    expectLess(abs(Self.sample(t, "b", "rotation", at: 2.3).value[0] - 1), 1e-12)  // forward, after the move
    expectLess(abs(Self.sample(t, "b", "rotation", at: 2.7).value[0] - 1), 1e-12)  // the replay of 2.3 s
    expectLess(abs(Self.sample(t, "b", "rotation", at: 3.4).value[0] - 0), 1e-12)  // the replay of 1.6 s
  }

  @Test func traceShowsLinkedProperties() throws {
    let t = try Self.template(
      #"{ at: 0, target: "b", link: { rotation: { from: "a.positionX", input: [100, 300], output: [0, 1] } } }"#)
    var tracks = t.tracks
    let samples = tracks.trace(AnyLayerProperty.named("rotation")!, layerID: "b", at: [0, 0.5, 1])
    expectEqual(samples.map(\.value), [[0], [0.5], [1]])
    expectLess(abs(samples[1].velocity[0] - 1), 1e-12)
  }

  @Test func linkedAnimationEndsWhenItsSourceSettles() throws {
    let auto = try Template.decode(
      """
      { flick: 1, canvas: { width: 100, height: 100, duration: "auto" },
        layers: [{ id: "a", size: [10, 10] }, { id: "b", size: [10, 10] }],
        timeline: [
          { at: 0, target: "b", link: { opacity: { from: "a.positionX", input: [0, 100], output: [0, 1] } } },
          { at: 0.5, target: "a", animate: { positionX: 100 }, duration: 1.5 },
        ] }
      """, file: "auto.json5")
    // It settles at 2 s: the last of its 121 frames (60 fps) is at 2 s.
    expectEqual(auto.scene.duration, TimelineTests.autoEnd(2))
    expectEqual(auto.scene.frameCount, 121)
  }

  @Test func aLinkMayBeginAfterTheScene() throws {
    let t = try Self.template(
      #"""
      { at: 2, targets: ["b", "c"], link: { rotation: { from: "a.positionX", input: [100, 300], output: [0, 1] } } }
      """#)
    expectEqual(Self.sample(t, "b", "rotation", at: 1.9).value[0], 0)
    expectEqual(Self.sample(t, "c", "rotation", at: 2).value[0], 1)
  }

  @Test func aLinkLeavesEveryOtherAnimationAsItWas() throws {
    // card-swap as bundled, and with a link added: every frame of every other layer and
    // property renders the same (and the bundled goldens pin card-swap itself).
    let path = FixturePaths.templates.appendingPathComponent("card-swap.json5").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let end = try #require(text.range(of: "\n  ],\n}", options: .backwards))
    let linked = text.replacingCharacters(
      in: end.lowerBound..<end.lowerBound,
      with: "\n"
        + #"    { at: 0, target: "heading", link: { opacity: { from: "c1.positionX", input: [480, 900], output: [1, 0.3] } } },"#
    )
    let plain = try Template.decode(text, file: path)
    let withLink = try Template.decode(linked, file: path)
    expectEqual(withLink.scene.animations.count, plain.scene.animations.count + 1)
    var changed = 0
    for frame in 0..<plain.scene.frameCount {
      let t = plain.scene.time(ofFrame: frame)
      var a = plain.scene.renderTree(at: t).layers
      var b = withLink.scene.renderTree(at: t).layers
      let heading = try #require(a.firstIndex { $0.id == "heading" })
      if b[heading].opacity != a[heading].opacity { changed += 1 }
      a[heading].opacity = 0
      b[heading].opacity = 0
      expectEqual(a, b, "frame \(frame)")
    }
    expectGreater(changed, 0)  // the link does something
  }

  /// A link in a component's timeline reads the instance's own layer: `from: "knob.positionX"` in
  /// the instance `b` is `b/knob`, never another instance's knob nor a template layer `knob`.
  @Test func linkInAComponentReadsItsOwnInstance() throws {
    let text = """
      { flick: 1, canvas: { width: 400, height: 200, fps: 60, duration: 2 },
        components: { toggle: {
          parameters: { on: { type: "integer", minimum: 0, maximum: 1, default: 0 } },
          layer: { size: [60, 30], sublayers: [
            { id: "fill", size: [60, 30], position: [30, 15] },
            { id: "knob", size: [20, 20], position: ["$(15 + 30 * on)", 15] } ] },
          timeline: [
            { at: 0, target: "fill", link: { opacity: { from: "knob.positionX", input: [15, 45], output: [0, 1] } } },
            { target: "knob", animate: { positionX: "$(45 - 30 * on)" }, curve: "linear", duration: 1 } ] } },
        layers: [
          { id: "knob", size: [10, 10], position: [300, 150] },
          { id: "a", use: "toggle", position: [100, 50] },
          { id: "b", use: "toggle", params: { on: 1 }, position: [100, 150], at: 0.5 },
        ] }
      """
    let t = try Template.decode(text, file: "links.json5")
    // a's knob runs 15 → 45 from 0 to 1 s; b's runs 45 → 15 from 0.5 to 1.5 s.
    for time in [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0] {
      let a = 15 + 30 * min(max(time, 0), 1)
      let b = 45 - 30 * min(max(time - 0.5, 0), 1)
      expectLess(abs(Self.sample(t, "a/fill", "opacity", at: time).value[0] - (a - 15) / 30), 1e-9, "a at \(time)")
      expectLess(abs(Self.sample(t, "b/fill", "opacity", at: time).value[0] - (b - 15) / 30), 1e-9, "b at \(time)")
      expectLess(
        abs(Double(Self.rendered(t, "b/fill", at: time).opacity) - (b - 15) / 30), 1e-6, "b rendered at \(time)")
    }
    // The velocity follows the instance's knob too (b's falls at 1/s while it moves).
    expectLess(abs(Self.sample(t, "b/fill", "opacity", at: 1).velocity[0] + 1), 1e-9)
    // A component's timeline cannot link from a template layer it does not own.
    let foreign = text.replacingOccurrences(of: #"from: "knob.positionX""#, with: #"from: "a.positionX""#)
    do {
      _ = try Template.decode(foreign, file: "links.json5")
      Issue.record("a link from a template layer inside a component compiled")
    } catch {
      #expect(error.description.contains("no layer with id 'a' in the component"), "\(error.description)")
    }
  }
}

/// The schema's link objects list exactly the keys the compiler reads.
@Suite struct LinkSchemaTests {
  @Test func linkObjectsMatchTheCompiler() throws {
    let root = try SchemaTests.validator().root
    func keys(_ def: String) -> Set<String> {
      guard case .object(let members)? = root["$defs"]?[def]?["properties"]?.kind else { return [] }
      return Set(members.map(\.key))
    }
    expectEqual(keys("link"), Set(AnyLayerProperty.names))
    expectEqual(keys("colorLink"), Set(LinkWriter.linkKeys))
    for type in ["number", "angle", "point", "size", "rect", "colors"] {
      expectEqual(keys(type + "Link"), Set(LinkWriter.linkKeys).subtracting(["colorSpace"]), "\(type)Link")
    }
    expectEqual(
      keys("linkEntry"), Set(TimelineCompiler.placementKeys + ["link"] + TimelineCompiler.EntryKind.link.extraKeys))
  }
}

/// A hostile graph of links stays cheap to check and to evaluate: every layer of one level links
/// to every layer of the level above, at different times (a read meets one link per name).
@Suite struct LinkBoundsTests {
  @Test func aWideGraphOfLinksCompilesAndEvaluates() throws {
    let levels = 8, width = 10
    var layers: [String] = []
    var entries: [String] = []
    for level in 0..<levels {
      for i in 0..<width {
        layers.append(#"{ id: "n\#(level)_\#(i)", size: [4, 4] }"#)
        guard level > 0 else { continue }
        for j in 0..<width {
          entries.append(
            #"{ at: \#(Double(j) / 100), target: "n\#(level)_\#(i)", link: { positionX: { from: "n\#(level - 1)_\#(j).positionX", input: [0, 1], output: [0, 1], extrapolate: "identity" } } }"#
          )
        }
      }
    }
    entries.append(#"{ at: 0, target: "n0_9", animate: { positionX: 50 }, duration: 1, curve: "linear" }"#)
    let t = try Template.decode(
      """
      { flick: 1, canvas: { width: 100, height: 100, duration: 1 },
        layers: [\(layers.joined(separator: ", "))],
        timeline: [\(entries.joined(separator: ",\n"))] }
      """, file: "wide.json5")
    expectEqual(t.scene.animations.count, (levels - 1) * width * width + 1)
    // From 0.09 s on, every layer follows the last layer of the level above: n0_9 moves 50 pt/s.
    var tracks = t.tracks
    let last = tracks.trace(AnyLayerProperty.named("positionX")!, layerID: "n7_0", at: [0.5])[0]
    #expect(abs(last.value[0] - 25) < 1e-9 && abs(last.velocity[0] - 50) < 1e-9)
    expectLess(abs(t.scene.renderTree(at: 0.5).layer(id: "n7_0")!.position.x - 25), 1e-9)
  }
}
