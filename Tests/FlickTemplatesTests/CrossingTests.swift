import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// `when: { target, property, crosses, direction }`: an entry starts when a property crosses a
/// value, found on the compiled track (exact, the same at any frame rate), with errors for a
/// property that never crosses, a vector without a component, a later entry that would move the
/// crossing, and the same behaviour in components and under `--set`.
@Suite struct CrossingTests {
  /// `card` moves down from y 0 to 100 in one second, linearly (`move`); `timeline` comes after.
  static func template(fps: Int = 60, _ timeline: String, parameters: ParameterValues = ParameterValues()) throws
    -> Template
  {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: 4 },
        parameters: { level: { type: "number", default: 25 } },
        layers: [
          { id: "card", size: [40, 40], position: [100, 0], backgroundColor: "#000000" },
          { id: "dot", size: [10, 10], position: [20, 20], opacity: 0, backgroundColor: "#FF0000" },
        ],
        timeline: [
          { id: "move", target: "card", animate: { positionY: 100 }, curve: "linear", duration: 1 },
          \(timeline)
        ] }
      """, file: "when.json5", parameters: parameters)
  }

  /// Begin times of the animations of `dot`.
  static func dotBegins(_ t: Template) -> [Double] {
    t.scene.animations.filter { $0.layerID == "dot" }.map(\.beginTime)
  }

  static func error(_ timeline: String) -> String {
    do {
      _ = try template(timeline)
      return "no error"
    } catch let error as TemplateError {
      return error.description
    } catch {
      return "\(error)"
    }
  }

  @Test func startsWhereALinearTweenCrosses() throws {
    let t = try Self.template(
      #"{ when: { target: "card", property: "positionY", crosses: 25 }, target: "dot", set: { opacity: 1 } }"#)
    let begins = Self.dotBegins(t)
    expectEqual(begins.count, 1)
    expectLess(abs(begins[0] - 0.25), 2e-9, "\(begins)")
    #expect(t.crossings.count == 1 && t.crossings[0].isUp && t.crossings[0].path == "timeline[1]")
    // The same entry, at any frame rate, starts at the same instant (bit for bit).
    for fps in [24, 30, 120] {
      let other = try Self.template(
        fps: fps,
        #"{ when: { target: "card", property: "positionY", crosses: 25 }, target: "dot", set: { opacity: 1 } }"#)
      expectEqual(Self.dotBegins(other), begins)
    }
  }

  @Test func componentKeyPathsAndDelay() throws {
    let a = try Self.template(
      #"{ when: { target: "card", property: "position.y", crosses: 50 }, delay: 0.1, target: "dot", set: { opacity: 1 } }"#
    )
    expectLess(abs(Self.dotBegins(a)[0] - 0.6), 2e-9)
    let error = Self.error(
      #"{ when: { target: "card", property: "position", crosses: 50 }, target: "dot", set: { opacity: 1 } }"#)
    #expect(error.contains("timeline[1].when.property"), "\(error)")
    #expect(error.contains("'position' is a point: watch one component, 'position.x' or 'position.y'"), "\(error)")
    let typo = Self.error(
      #"{ when: { target: "card", property: "positonY", crosses: 50 }, target: "dot", set: { opacity: 1 } }"#)
    #expect(typo.contains("did you mean 'positionY'?"), "\(typo)")
    let key = Self.error(
      #"{ when: { target: "card", property: "positionY", cross: 50 }, target: "dot", set: { opacity: 1 } }"#)
    #expect(key.contains("did you mean 'crosses'?"), "\(key)")
  }

  @Test func aSpringsCrossingsGoBothWays() throws {
    // A bouncy spring from 100 to 200 overshoots 200, comes back below it and settles.
    let t = try Self.template(
      #"""
      { at: 1, target: "card", animate: { positionY: 200 }, spring: { response: 0.5, dampingRatio: 0.3 } },
      { when: { target: "card", property: "positionY", crosses: 200, direction: "down" }, target: "dot", set: { opacity: 1 } }
      """#)
    let begin = Self.dotBegins(t)[0]
    var tracks = t.tracks
    let y = { (time: Double) in tracks.value(of: .positionY, layerID: "card", at: time) }
    expectGreater(begin, 1)
    expectLess(abs(y(begin) - 200), 1e-6, "\(y(begin))")
    expectGreater(y(begin - 1e-4), 200)
    expectLess(y(begin + 1e-4), 200)
    // Going up it crossed 200 earlier, on the way to the overshoot.
    let up = try Self.template(
      #"""
      { at: 1, target: "card", animate: { positionY: 200 }, spring: { response: 0.5, dampingRatio: 0.3 } },
      { when: { target: "card", property: "positionY", crosses: 200, direction: "up" }, target: "dot", set: { opacity: 1 } }
      """#)
    expectLess(Self.dotBegins(up)[0], begin)
  }

  @Test func aJumpCrossesAtItsInstantAndAtStartsTheSearch() throws {
    let jump = try Self.template(
      #"""
      { at: 2, target: "card", set: { positionY: 300 } },
      { when: { target: "card", property: "positionY", crosses: 200 }, target: "dot", set: { opacity: 1 } }
      """#)
    expectEqual(Self.dotBegins(jump), [2])
    // Up to 100 by 1 s, back down to 0 from 1.5 to 2.5 s: from 0 the first crossing of 50 is up at
    // 0.5 s; with `at: 1.2` the search starts there and finds the way down at 2 s.
    let both = """
      { at: 1.5, target: "card", animate: { positionY: 0 }, curve: "linear", duration: 1 },
      """
    let first = try Self.template(
      both + #"{ when: { target: "card", property: "positionY", crosses: 50 }, target: "dot", set: { opacity: 1 } }"#)
    expectLess(abs(Self.dotBegins(first)[0] - 0.5), 2e-9)
    let later = try Self.template(
      both
        + #"{ at: 1.2, when: { target: "card", property: "positionY", crosses: 50 }, target: "dot", set: { opacity: 1 } }"#
    )
    expectLess(abs(Self.dotBegins(later)[0] - 2), 2e-9)
    #expect(later.crossings[0].isUp == false && later.crossings[0].searchFrom == 1.2)
  }

  @Test func neverCrossingIsALocatedError() throws {
    let error = Self.error(
      #"{ when: { target: "card", property: "positionY", crosses: 300 }, target: "dot", set: { opacity: 1 } }"#)
    #expect(error.hasPrefix("when.json5:9:"), "\(error)")
    #expect(
      error.contains("timeline[1].when.crosses: card.positionY never crosses 300 from 0 s on: it moves within 0…100"),
      "\(error)")
    let wrongWay = Self.error(
      #"{ when: { target: "card", property: "positionY", crosses: 50, direction: "down" }, target: "dot", set: { opacity: 1 } }"#
    )
    #expect(
      wrongWay.contains("never crosses 50 going down from 0 s on; it crosses it going up at 0.5 s"), "\(wrongWay)")
    // A property animated only below the entry has not moved yet when the entry compiles.
    let order = Self.error(
      #"""
      { when: { target: "dot", property: "opacity", crosses: 0.5 }, target: "card", set: { opacity: 0.5 } },
      { target: "dot", animate: { opacity: 1 }, duration: 1 }
      """#)
    #expect(order.contains("dot.opacity never crosses 0.5 from 0 s on: it stays at 0"), "\(order)")
  }

  @Test func aLaterEntryMayNotMoveTheCrossing() throws {
    let error = Self.error(
      #"""
      { when: { target: "card", property: "positionY", crosses: 50 }, target: "dot", set: { opacity: 1 } },
      { at: 0.2, target: "card", animate: { positionY: 0 }, duration: 0.2 }
      """#)
    #expect(
      error.contains(
        "timeline[2].animate.positionY: this animation of card.positionY starts at 0.2 s, but the entry at timeline[1] waits for card.positionY to cross 50"
      ), "\(error)")
    // Two entries that wait on each other's properties: the first cannot see the second's motion.
    let cycle = Self.error(
      #"""
      { when: { target: "dot", property: "opacity", crosses: 0.5 }, target: "card", animate: { positionX: 0 }, duration: 1 },
      { when: { target: "card", property: "positionX", crosses: 50 }, target: "dot", animate: { opacity: 1 }, duration: 1 }
      """#)
    #expect(
      cycle.contains(
        "timeline[1].when.crosses: dot.opacity never crosses 0.5 from 0 s on: it stays at 0 (only the animations listed above this entry count"
      ), "\(cycle)")
    // The waiting entry itself may take the crossed property over at the crossing.
    let t = try Self.template(
      #"{ when: { target: "card", property: "positionY", crosses: 50 }, target: "card", animate: { positionY: 0 }, duration: 0.5 }"#
    )
    var tracks = t.tracks
    expectLess(abs(tracks.value(of: .positionY, layerID: "card", at: 1) - 0), 1e-9)
    expectLess(abs(tracks.value(of: .positionY, layerID: "card", at: 0.5) - 50), 1e-6)
  }

  @Test func parametersAndAngles() throws {
    var values = ParameterValues()
    values.set("level", text: "75")
    let t = try Self.template(
      #"{ when: { target: "card", property: "positionY", crosses: "$level" }, target: "dot", set: { opacity: 1 } }"#,
      parameters: values)
    expectLess(abs(Self.dotBegins(t)[0] - 0.75), 2e-9)
    let turn = try Self.template(
      #"""
      { target: "card", animate: { rotation: "180deg" }, curve: "linear", duration: 2 },
      { when: { target: "card", property: "transform.rotation", crosses: "45deg" }, target: "dot", set: { opacity: 1 } }
      """#)
    expectLess(abs(Self.dotBegins(turn)[0] - 0.5), 2e-9)
  }

  @Test func worksInAComponent() throws {
    let t = try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: 3 },
        components: { meter: {
          parameters: { level: { type: "number", default: 60 } },
          layer: { id: "x", size: [200, 40], sublayers: [
            { id: "bar", size: [0, 10], position: [0, 20], anchorPoint: [0, 0.5] },
            { id: "lamp", size: [10, 10], position: [190, 20], opacity: 0 } ] },
          timeline: [
            { target: "bar", animate: { size: [200, 10] }, curve: "linear", duration: 2 },
            { when: { target: "bar", property: "size.width", crosses: "$level" }, target: "lamp", set: { opacity: 1 } } ] } },
        layers: [ { id: "m", use: "meter", params: { level: 150 }, position: [200, 150] } ] }
      """, file: "meter.json5")
    let lamp = t.scene.animations.filter { $0.layerID == "m/lamp" }
    #expect(lamp.count == 1 && abs(lamp[0].beginTime - 1.5) < 2e-9, "\(lamp.map(\.beginTime))")
    expectEqual(t.crossings.first?.layerID, "m/bar")
  }

  /// The search itself: a kink-free oscillation crossing the level twice inside one scan step
  /// is found through its extreme.
  @Test func anExtremeInsideOneStepIsFound() {
    let step = PropertyTracks.crossingScanStep
    // A parabola with its top at 0.3 s + step / 2, just above the level 1.
    let top = 0.3 + step / 2
    let read = { (t: Double, _: TrackLimit) -> (value: Double, velocity: Double) in
      let u = t - top
      return (1 + 1e-9 - u * u, -2 * u)
    }
    let found = PropertyTracks.firstCrossing(of: 1, direction: .up, from: 0, to: 1, breakpoints: [], read: read)
    #expect(found.crossing != nil && found.crossing!.time < top && found.crossing!.time > top - step)
  }
}
