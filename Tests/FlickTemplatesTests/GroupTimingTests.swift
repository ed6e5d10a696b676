import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Testing

/// Issue 27: motion once on a group — `{ spring | curve, duration, group: [ … ] }` is the timing
/// of every entry inside that gives none of its own. Each check compares with the same timeline
/// written out entry by entry, through the property tracks (what `flick trace` reads).
@Suite struct GroupTimingTests {
  static func template(_ timeline: String, extra: String = "", set: [String] = []) throws -> Template {
    var values = ParameterValues()
    for s in set { try values.set(s) }
    return try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, fps: 30, duration: 3 },
        parameters: { d: { type: "number", default: 0.5 }, b: { type: "number", default: 0.3 } },
        \(extra)
        layers: [ { id: "a", size: [40, 40], position: [100, 100] }, { id: "b", size: [40, 40], position: [100, 200] },
                  { id: "c", size: [40, 40], position: [100, 250] } ],
        timeline: \(timeline) }
      """, file: "group-timing.json5", parameters: values)
  }

  static func message(_ timeline: String, extra: String = "") -> String {
    do {
      _ = try template(timeline, extra: extra)
      return ""
    } catch {
      return "\(error)"
    }
  }

  /// Every track's value and velocity at 61 instants.
  static func samples(_ t: Template, layers: [String] = ["a", "b", "c"]) -> [[Double]] {
    var tracks = t.tracks
    let times = (0...60).map { Double($0) * 0.05 }
    var out: [[Double]] = []
    for id in layers {
      for name in ["positionX", "opacity", "rotation"] {
        for s in tracks.trace(AnyLayerProperty.named(name)!, layerID: id, at: times) {
          out.append(s.value + s.velocity)
        }
      }
    }
    return out
  }

  @Test func aGroupsSpringIsTheDefaultOfItsEntries() throws {
    let grouped = try Self.template(
      """
      [ { at: 0.1, spring: { response: 0.4, dampingRatio: 0.6 }, group: [
          { target: "a", animate: { positionX: 300 } },
          { target: "b", property: "positionX", to: 250 },
          { target: "c", animate: { positionX: 200 }, curve: "easeIn", duration: 0.3 } ] } ]
      """)
    let written = try Self.template(
      """
      [ { at: 0.1, group: [
          { target: "a", animate: { positionX: 300 }, spring: { response: 0.4, dampingRatio: 0.6 } },
          { target: "b", property: "positionX", to: 250, spring: { response: 0.4, dampingRatio: 0.6 } },
          { target: "c", animate: { positionX: 200 }, curve: "easeIn", duration: 0.3 } ] } ]
      """)
    expectEqual(Self.samples(grouped), Self.samples(written))
    // Without the group's spring the entries are 0.4 s tweens: not the same motion.
    let plain = try Self.template(
      """
      [ { at: 0.1, group: [ { target: "a", animate: { positionX: 300 } }, { target: "b", property: "positionX", to: 250 },
          { target: "c", animate: { positionX: 200 }, curve: "easeIn", duration: 0.3 } ] } ]
      """)
    expectNotEqual(Self.samples(grouped), Self.samples(plain))
  }

  /// A curve and duration on the group; an entry's own duration keeps the group's curve, an
  /// own spring drops the group's duration (a spring's length is its own), a property's own
  /// motion wins over both; `set` and `link` are unaffected.
  @Test func curveAndDurationKeyByKey() throws {
    let grouped = try Self.template(
      """
      [ { curve: "easeOut", duration: 0.8, group: [
          { target: "a", animate: { positionX: 300, opacity: { to: 0.2, curve: "linear" } } },
          { target: "b", animate: { positionX: 250 }, duration: 0.3 },
          { target: "c", animate: { positionX: 50 }, spring: { bounciness: 10 } },
          { target: "c", set: { rotation: 1 } } ] } ]
      """)
    let written = try Self.template(
      """
      [ { group: [
          { target: "a", animate: { positionX: 300, opacity: { to: 0.2, curve: "linear" } }, curve: "easeOut", duration: 0.8 },
          { target: "b", animate: { positionX: 250 }, curve: "easeOut", duration: 0.3 },
          { target: "c", animate: { positionX: 50 }, spring: { bounciness: 10 } },
          { target: "c", set: { rotation: 1 } } ] } ]
      """)
    expectEqual(Self.samples(grouped), Self.samples(written))
  }

  /// Nested groups: the inner group's timing overrides the outer's for its entries.
  @Test func innerGroupsOverride() throws {
    let grouped = try Self.template(
      """
      [ { curve: "easeIn", duration: 0.6, group: [
          { target: "a", animate: { positionX: 300 } },
          { at: 0.2, spring: { stiffness: 300, damping: 20 }, group: [ { target: "b", animate: { positionX: 250 } } ] },
          { at: 0.3, curve: "linear", group: [ { target: "c", animate: { positionX: 0 } } ] } ] } ]
      """)
    let written = try Self.template(
      """
      [ { group: [
          { target: "a", animate: { positionX: 300 }, curve: "easeIn", duration: 0.6 },
          { at: 0.2, target: "b", animate: { positionX: 250 }, spring: { stiffness: 300, damping: 20 } },
          { at: 0.3, target: "c", animate: { positionX: 0 }, curve: "linear", duration: 0.6 } ] } ]
      """)
    expectEqual(Self.samples(grouped), Self.samples(written))
  }

  /// Releases, drags and spins take the group's timing too; parameters work under `--set`.
  @Test func releasesDragsAndSpinsUnderSet() throws {
    let timeline = """
      [ { curve: "easeInEaseOut", duration: "$d", group: [
          { id: "d", target: "a", drag: { property: "positionX", by: [0, 80] } },
          { target: "b", spin: { property: "rotation", to: 3 } } ] },
        { after: "d", spring: { duration: 0.6, bounce: "$b" }, group: [ { target: "a", release: { property: "positionX", to: 100 } } ] } ]
      """
    let written = """
      [ { group: [
          { id: "d", target: "a", drag: { property: "positionX", by: [0, 80], curve: "easeInEaseOut", duration: 0.9 } },
          { target: "b", spin: { property: "rotation", to: 3, curve: "easeInEaseOut", duration: 0.9 } } ] },
        { after: "d", target: "a", release: { property: "positionX", to: 100, spring: { duration: 0.6, bounce: 0.1 } } } ]
      """
    let a = try Self.template(timeline, set: ["d=0.9", "b=0.1"])
    let b = try Self.template(written)
    expectEqual(Self.samples(a), Self.samples(b))
    expectNotEqual(Self.samples(a), Self.samples(try Self.template(timeline)))
  }

  /// Inside a component's timeline; a group around a `play` leaves the component's own timing.
  @Test func inComponents() throws {
    let component = """
      components: { knob: { layer: { id: "root", size: [40, 40], sublayers: [ { id: "k", size: [20, 20] } ] },
        timeline: [ { curve: "easeOut", duration: 0.7, group: [ { target: "k", animate: { opacity: 0.25 } } ] } ] } },
      """
    let withInstance = try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, fps: 30, duration: 3 }, \(component)
        layers: [ { id: "n", use: "knob", autoplay: false } ],
        timeline: [ { spring: {}, group: [ { at: 1, play: "n" } ] } ] }
      """, file: "c.json5")
    var tracks = withInstance.tracks
    let opacity = AnyLayerProperty.named("opacity")!
    // easeOut over 0.7 s from 1 at 1 s: half-way in time is past half-way in value, and it ends at 1.7 s.
    let mid = tracks.trace(opacity, layerID: "n/k", at: [1.35])[0].value[0]
    expectLess(mid, 0.625)
    expectGreater(mid, 0.25)
    expectEqual(tracks.trace(opacity, layerID: "n/k", at: [1.7])[0].value[0], 0.25)
  }

  @Test func whatCannotApplyIsSaid() {
    let springDrag = Self.message(
      "[ { spring: {}, duration: 0.5, group: [ { target: \"a\", drag: { property: \"positionX\", by: [0, 50] } } ] } ]")
    #expect(springDrag.contains("'duration' cannot apply"), "\(springDrag)")
    let drag = Self.message(
      "[ { spring: {}, group: [ { target: \"a\", drag: { property: \"positionX\", by: [0, 50], duration: 0.5 } } ] } ]")
    #expect(drag.contains("the group's 'spring'"), "\(drag)")
    #expect(drag.contains("cannot pace a drag"), "\(drag)")
    let own = Self.message(
      "[ { spring: {}, group: [ { target: \"a\", animate: { positionX: 10 }, duration: 0.4 } ] } ]")
    #expect(own.contains("this 'duration' cannot go with the group's motion"), "\(own)")
    let release = Self.message(
      "[ { spring: {}, group: [ { target: \"a\", release: { property: \"positionX\" } } ] } ]")
    #expect(
      release.contains("the group's 'spring' (a spring) needs an end value, and this release has none"), "\(release)")
    let keyframes = Self.message("[ { keyframes: { values: [0, 1] }, group: [] } ]")
    #expect(keyframes.contains("'keyframes' does not apply"), "\(keyframes)")
    // Did-you-mean: a misspelt timing key on a group.
    let typo = Self.message("[ { sprng: {}, group: [] } ]")
    #expect(typo.contains("did you mean 'spring'"), "\(typo)")
  }
}
