import FlickExpectations
import FlickScene
import FlickTemplates
import FlickTestSupport
import Testing

/// Times a template compares besides starts take a sum of decimal seconds as the instant it is
/// a few ulps from, as every start does (`MediaTiming.hasReached`): the check that a property's
/// animations are listed in time order refused an entry written at 0.3 s listed after one placed
/// after motions of 0.1 s and 0.2 s ("starts at 0.3 s, before the one at … (0.30000000000000004
/// s)"), and an animator event at 0.3 s was refused while a scrub glide arriving at
/// 0.30000000000000004 was "still moving". At 24, 30, 60 and 120 fps, sums above and below.
@Suite struct ControlTimeBoundaryTemplateTests {
  static func template(_ timeline: String, fps: Int) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 200, fps: \(fps), duration: 3 },
        layers: [ { id: "a", size: [20, 20], position: [0, 100] } ],
        timeline: \(timeline) }
      """, file: "control-time.json5")
  }

  /// `set` of layer `a`'s `positionX` to `value`, as a timeline entry's keys.
  static func set(_ value: Double) -> String { #"target: "a", set: { positionX: \#(value) }"# }

  /// An entry placed after a motion of another property (its start is the sum) and one written at the frame's time
  /// begin at one instant, in either order of the list: both compile and the one listed later
  /// shows at that frame, as two entries written at one time do.
  @Test(arguments: BoundarySum.cases) func entriesAtOneInstantAreInOrderEitherWay(_ c: BoundarySum) throws {
    let placed = [
      #"{ id: "m", at: \#(c.lead), target: "a", animate: { opacity: { to: 0.5, duration: \#(c.last) } } }"#,
      "{ after: \"m\", \(Self.set(500)) }",
    ]
    let written = "{ at: \(c.time), \(Self.set(700)) }"
    for (timeline, shown) in [(placed + [written], 700.0), ([written] + placed, 500.0)] {
      let template = try Self.template("[ \(timeline.joined(separator: ", ")) ]", fps: c.fps)
      let x = try #require(template.scene.renderTree(at: c.time).layer(id: "a")?.position.x)
      expectEqual(x, shown, "\(c): the frame shows \(x)")
      expectEqual(JoinTimingTests.limits(template, at: c.time).right.value, shown, "\(c): the track")
    }
  }

  /// An animator's scrub glide from the first part's end lasting the last part arrives at the
  /// sum; an event written at the frame's time comes as it arrives and runs from its fraction.
  @Test(arguments: BoundarySum.cases) func anEventAtAGlidesArrivalComesAfterIt(_ c: BoundarySum) throws {
    let events = [
      #"{ at: 0, do: "start" }"#, "{ at: \(c.lead), do: \"pause\" }",
      #"{ at: \#(c.lead), do: "scrub", fraction: 0.5, duration: \#(c.last) }"#,
      "{ at: \(c.time), do: \"start\" }",
    ]
    let template = try Self.template(
      """
      [ { at: 0, animator: { duration: 10, curve: "linear", target: "a", animate: { positionX: 100 },
          events: [ \(events.joined(separator: ", ")) ] } } ]
      """, fps: c.fps)
    let x = try #require(template.scene.renderTree(at: c.time).layer(id: "a")?.position.x)
    expectLess(abs(x - 50), 1e-9, "\(c): the frame shows \(x), the glide arrives at 50")
    // Running from there at 100 u/s over the 10 s run: half way after 5 s.
    let later = try #require(template.scene.renderTree(at: c.time + 2.5).layer(id: "a")?.position.x)
    expectLess(abs(later - 75), 1e-6, "\(c): 2.5 s later \(later)")
  }
}
