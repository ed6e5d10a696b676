import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import FlickTestSupport
import Testing

/// Every way a template places an entry at a sum of decimal seconds shows the entry at the frame
/// of that instant: `after` a tween at 0.1 lasting 0.2 starts at 0.30000000000000004, and the
/// frame at 0.3 s (frame 18 at 60 fps) showed the value from before it. Sums that round below the
/// frame time (0.1 + 0.7 = 0.7999999999999999) show there too; at 24, 30, 60 and 120 fps.
@Suite struct EntryStartBoundaryTemplateTests {
  /// Sums a few ulps above and below their frame's time, at 24, 30, 60 and 120 fps.
  typealias Case = BoundarySum
  static let cases = BoundarySum.cases

  /// An entry of layer `a` that starts with a jump, and its value and velocity at its start.
  struct Jump {
    var name: String
    var body: String
    var value: Double
    var velocity: Double
  }

  /// Layer `a` is at 50 when each of them starts (the motions before it end there).
  static let jumps = [
    Jump(name: "set", body: #"target: "a", set: { positionX: 500 }"#, value: 500, velocity: 0),
    Jump(
      name: "from", body: #"target: "a", animate: { positionX: { from: 500, to: 600, duration: 1, curve: "linear" } }"#,
      value: 500, velocity: 100),
    Jump(
      name: "decay", body: #"target: "a", animate: { positionX: { decay: {}, velocity: 900 } }"#, value: 50,
      velocity: 900),
    Jump(
      name: "animator",
      body:
        #"animator: { duration: 1, curve: "linear", target: "a", animate: { positionX: 600 }, events: [ { at: 0, do: "start" } ] }"#,
      value: 50, velocity: 550),
  ]

  /// A tween of `a` to 50 lasting `duration` seconds, as a timeline entry's keys.
  static func move(_ duration: Double) -> String {
    #"target: "a", animate: { positionX: { to: 50, duration: \#(duration), curve: "linear" } }"#
  }

  /// The timelines placing `jump` at the sum of `c.parts`, by name.
  static func timelines(_ c: Case, _ jump: Jump) -> [(String, String)] {
    let p = c.parts
    // `after`: a motion at the first part lasting the second, then each next one after it.
    var after = [#"{ id: "m1", at: \#(p[0]), \#(move(p[1])) }"#]
    for (i, d) in p.enumerated().dropFirst(2) { after.append(#"{ id: "m\#(i)", after: "m\#(i - 1)", \#(move(d)) }"#) }
    after.append(#"{ after: "m\#(p.count - 1)", \#(jump.body) }"#)
    // Steps of a sequence from 0, motions or delays.
    let steps = p.map { "{ \(move($0)) }" }.joined(separator: ", ")
    let delays = p.map { "{ delay: \($0) }" }.joined(separator: ", ")
    // Groups inside groups, each `at` its part.
    var nested = "{ at: \(p[p.count - 1]), \(jump.body) }"
    for d in p.dropLast().reversed() { nested = "{ at: \(d), group: [ \(nested) ] }" }
    // An entry's `delay` after a group placed at the other parts.
    var delayed = "{ delay: \(p[p.count - 1]), \(jump.body) }"
    for d in p.dropLast().reversed() { delayed = "{ at: \(d), group: [ \(delayed) ] }" }
    let lead = #"{ at: 0, \#(move(0.01)) }"#
    return [
      ("after", "[ \(after.joined(separator: ", ")) ]"),
      ("sequence", "[ { sequence: [ \(steps), { \(jump.body) } ] } ]"),
      ("sequence delays", "[ \(lead), { sequence: [ \(delays), { \(jump.body) } ] } ]"),
      ("nested at", "[ \(lead), \(nested) ]"),
      ("delay", "[ \(lead), \(delayed) ]"),
      ("at", "[ \(lead), { at: \(c.sum), \(jump.body) } ]"),
    ]
  }

  static func template(_ timeline: String, fps: Int) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 200, fps: \(fps), duration: 3 },
        layers: [ { id: "a", size: [20, 20], position: [0, 100] } ],
        timeline: \(timeline) }
      """, file: "entry-start.json5")
  }

  /// The frame shows the entry at its start, and the track (what `flick trace` prints and
  /// hand-overs read) has its value and velocity there.
  @Test(arguments: cases) func entriesStartAtTheFrame(_ c: Case) throws {
    for jump in Self.jumps {
      for (name, timeline) in Self.timelines(c, jump) {
        let what = "\(jump.name) by \(name), \(c)"
        let template = try Self.template(timeline, fps: c.fps)
        let x = try #require(template.scene.renderTree(at: c.time).layer(id: "a")?.position.x)
        expectLess(abs(x - jump.value), 1e-9, "\(what): frame shows \(x)")
        let right = JoinTimingTests.limits(template, at: c.time).right
        expectLess(abs(right.value - jump.value), 1e-9, "\(what): track \(right.value)")
        // The velocity the entry starts with (a hand-over's, a decay's from Pop's formula).
        let start = JoinTimingTests.limits(template, at: c.sum).right.velocity
        expectLess(abs(right.velocity - start), 1e-6, "\(what): track \(right.velocity) u/s, \(start) at its start")
      }
    }
  }
}
