import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Testing

/// Issue 27: `spin: { property, to, duration, curve }` — the speed eases to `to` and holds; a later
/// spin, decay, spring or tween takes over the angle and speed (C¹), at any frame rate.
@Suite struct SpinTemplateTests {
  static let rotation = AnyLayerProperty.named("rotation")!

  static func template(fps: Int = 30, _ timeline: String, extra: String = "") throws -> Template {
    try HandOverKindTests.template(fps: fps, duration: 6, timeline)
  }

  static func message(_ timeline: String) -> String {
    do {
      _ = try template(timeline)
      return ""
    } catch {
      return "\(error)"
    }
  }

  /// Spin up, hold, spin down to rest: the speed eases and holds; the angle is continuous and
  /// the same bits at every frame rate (the samples at times common to all rates).
  @Test(arguments: HandOverKindTests.rates) func spinUpHoldAndStop(fps: Int) throws {
    let timeline = """
      [ { target: "a", spin: { property: "rotation", to: 3.49, duration: 1.2, curve: "easeInEaseOut" } },
        { at: 3, target: "a", spin: { to: 0, duration: 1.5, curve: "easeOut" } } ]
      """
    let t = try Self.template(fps: fps, timeline)
    var tracks = t.tracks
    let s = tracks.trace(Self.rotation, layerID: "a", at: [0, 0.6, 1.2, 2, 3, 4.5, 5.5])
    expectEqual(s[0].velocity[0], 0)
    expectLess(abs(s[1].velocity[0] - 3.49 / 2), 1e-9)
    #expect(s[2].velocity[0] == 3.49 && s[3].velocity[0] == 3.49 && s[4].velocity[0] == 3.49)
    #expect(s[5].velocity[0] == 0 && s[6].value[0] == s[5].value[0])
    // Angle held after the ramp: 3.49 rad/s × 1.8 s between 1.2 s and 3 s.
    expectLess(abs(s[4].value[0] - s[2].value[0] - 3.49 * 1.8), 1e-9)
    HandOverKindTests.expectC1(t, "rotation", at: 3, travel: 10)
    // Byte-identical whatever the rate: the same instants give the same bits as at 24 fps.
    var reference = try Self.template(fps: 24, timeline).tracks
    let common = (0...30).map { Double($0) / 6 }
    expectEqual(
      tracks.trace(Self.rotation, layerID: "a", at: common), reference.trace(Self.rotation, layerID: "a", at: common))
  }

  /// A decay, a spring and a tween after a spin take its angle and speed (the one hand-over rule).
  @Test(arguments: HandOverKindTests.rates) func othersTakeOver(fps: Int) throws {
    for later in [
      "animate: { rotation: { decay: { deceleration: 0.996 } } }",
      "animate: { rotation: { to: 5, spring: { stiffness: 120, damping: 14 } } }",
      "animate: { rotation: 10 }, curve: \"easeOut\", duration: 1",
      "spin: { to: -2, duration: 0.5 }",
    ] {
      let t = try Self.template(
        fps: fps,
        """
        [ { target: "a", spin: { to: 4, duration: 0.5, curve: "easeIn" } }, { at: \(4 * HandOverKindTests.sixth), target: "a", \(later) } ]
        """)
      HandOverKindTests.expectC1(t, "rotation", at: 4 * HandOverKindTests.sixth, travel: 10)
    }
  }

  /// A spin takes over a running motion's speed (here a tween's) and eases from it.
  @Test func spinStartsFromTheCurrentSpeed() throws {
    let t = try Self.template(
      """
      [ { target: "a", animate: { rotation: 6 }, curve: "linear", duration: 2 },
        { at: 1, target: "a", spin: { to: 0, duration: 1 } } ]
      """)
    HandOverKindTests.expectC1(t, "rotation", at: 1, travel: 6)
    var tracks = t.tracks
    expectLess(abs(tracks.trace(Self.rotation, layerID: "a", at: [1])[0].velocity[0] - 3), 1e-9)
  }

  /// Key-path aliases, degrees per second, and the kind the studio's timeline shows.
  @Test func aliasesDegreesAndOutline() throws {
    let t = try Self.template(
      "[ { target: \"a\", spin: { property: \"transform.rotation.z\", to: \"180deg\", duration: 0 } } ]")
    var tracks = t.tracks
    expectLess(abs(tracks.trace(Self.rotation, layerID: "a", at: [1])[0].value[0] - .pi), 1e-12)
    let outline = t.tracks.outline.first { $0.layerID == "a" && $0.property == "rotation" }
    expectEqual(outline?.segments.map(\.kind), ["spin"])
    #expect(outline?.segments.first?.end == nil)
  }

  /// In a component's timeline, with the speed and the bounds from parameters set from outside.
  @Test func inAComponentUnderSet() throws {
    func template(_ sets: [String]) throws -> Template {
      var values = ParameterValues()
      for s in sets { try values.set(s) }
      return try Template.decode(
        """
        { flick: 1, canvas: { width: 400, height: 300, fps: 30, duration: 3 },
          parameters: { rate: { type: "number", default: 2 }, edge: { type: "number", default: 50 } },
          components: { record: {
            parameters: { speed: { type: "number", default: 1 }, top: { type: "number", default: 0 } },
            layer: { id: "root", size: [100, 100], sublayers: [ { id: "disc", size: [80, 80], position: [50, 50] } ] },
            timeline: [
              { target: "disc", spin: { to: "$speed", duration: 0.5 } },
              { at: 1, target: "disc", drag: { property: "positionY", by: [0, 100], duration: 1,
                  resistance: { bounds: { y: ["$top", "$top"] } } } } ] } },
          layers: [ { id: "r", use: "record", params: { speed: "$rate", top: "$edge" } } ],
          timeline: [] }
        """, file: "record.json5", parameters: values)
    }
    for (sets, rate, edge) in [([String](), 2.0, 50.0), (["rate=5", "edge=40"], 5, 40)] {
      var tracks = try template(sets).tracks
      expectEqual(tracks.trace(Self.rotation, layerID: "r/disc", at: [2])[0].velocity[0], rate)
      // The finger ends 100 pt below 50: past the bound by 50 − edge + 100, D = 300 (the canvas height).
      let o = 50 - edge + 100
      let y = tracks.trace(AnyLayerProperty.named("positionY")!, layerID: "r/disc", at: [2])[0].value[0]
      expectLess(abs(y - (edge + (1 - 1 / (o * 0.55 / 300 + 1)) * 300)), 1e-9)
    }
  }

  @Test func errors() {
    let point = Self.message("[ { target: \"a\", spin: { property: \"position\", to: 3 } } ]")
    #expect(point.contains("a spin turns a number property"), "\(point)")
    let noTo = Self.message("[ { target: \"a\", spin: { duration: 1 } } ]")
    #expect(noTo.contains("a spin needs 'to'"), "\(noTo)")
    let bounce = Self.message("[ { target: \"a\", spin: { to: 1, curve: \"bounceOut\" } } ]")
    #expect(bounce.contains("cubic-Bézier"), "\(bounce)")
    let typo = Self.message("[ { target: \"a\", spin: { to: 1, duraton: 1 } } ]")
    #expect(typo.contains("did you mean 'duration'"), "\(typo)")
    let ranged = Self.message("[ { target: \"a\", spin: { property: \"opacity\", to: -0.5, duration: 1 } } ]")
    #expect(ranged.contains("stays within 0…1"), "\(ranged)")
    expectEqual(Self.message("[ { target: \"a\", spin: { property: \"opacity\", to: 0, duration: 1 } } ]"), "")
    let unknown = Self.message("[ { target: \"a\", spin: { property: \"rotaton\", to: 1 } } ]")
    #expect(unknown.contains("did you mean 'rotation'"), "\(unknown)")
  }
}
