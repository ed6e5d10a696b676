import FlickExpectations
import FlickScene
import FlickTemplates
import Testing

/// Two animations of one property that start at the same instant: the later one wins, and the
/// earlier one, which never shows, passes on no momentum. The later one takes the left limit's
/// velocity (the motion arriving), with the value the same-instant entries leave (a `set`'s).
@Suite struct SameInstantHandOverTests {
  /// `a` moves linearly from 0 to 100 over 1 s (100 u/s); at 0.5 s, `first` then `second`.
  static func template(_ first: String, _ second: String) throws -> Template {
    try JoinTimingTests.template(
      """
      [ { at: 0, target: "a", animate: { positionX: { to: 100, curve: "linear", duration: 1 } } },
        { at: 0.5, \(first) }, { at: 0.5, \(second) } ]
      """, duration: 3)
  }

  /// Animations that start at 0.5 s with a velocity of their own, and the value they show there.
  static let firsts: [(entry: String, value: Double)] = [
    (#"target: "a", animate: { positionX: 1000 }, curve: "linear", duration: 0.5"#, 50),
    (#"target: "a", animate: { positionX: { to: 1000, velocity: 5000 } }, spring: {}"#, 50),
    (#"target: "a", animate: { positionX: { decay: { velocity: 3000 } } }"#, 50),
    (#"target: "a", animate: { positionX: { keyframes: { values: [50, 1000] }, duration: 0.5 } }"#, 50),
    (#"target: "a", drag: { property: "positionX", by: [0, 600], duration: 0.5 }"#, 50),
    (#"target: "a", spin: { property: "positionX", to: 4000, duration: 0.2, curve: "linear" }"#, 50),
    (#"group: [ { target: "a", animate: { positionX: 1000 }, curve: "easeIn", duration: 0.5 } ]"#, 50),
    (#"sequence: [ { target: "a", animate: { positionX: 1000 }, curve: "linear", duration: 0.3 } ]"#, 50),
    (#"target: "a", set: { positionX: 300 }"#, 300),
    (#"target: "a", animate: { positionX: { from: 200, to: 1000 } }, curve: "linear", duration: 0.5"#, 200),
  ]

  /// Animations that take over the value and velocity they start with.
  static let seconds = [
    #"target: "a", animate: { positionX: 50 }, spring: {}"#,
    #"target: "a", animate: { positionX: { decay: {} } }"#,
    #"target: "a", animate: { positionX: 400 }, curve: "easeInEaseOut", duration: 0.5"#,
    #"target: "a", release: { property: "positionX", to: 20 }"#,
    #"target: "a", spin: { property: "positionX", to: 0, duration: 0.4 }"#,
    #"group: [ { target: "a", animate: { positionX: 50 }, spring: { response: 0.4, dampingRatio: 0.7 } } ]"#,
  ]

  @Test func theLaterEntryTakesTheArrivingVelocity() throws {
    for (first, value) in Self.firsts {
      for second in Self.seconds {
        let t = try Self.template(first, second)
        let (_, right) = JoinTimingTests.limits(t, at: 0.5)
        expectLess(abs(right.value - value), 1e-9, "\(first) then \(second): starts at \(right.value)")
        expectLess(abs(right.velocity - 100), 1e-6, "\(first) then \(second): starts at \(right.velocity) u/s")
      }
    }
  }

  /// The reviewer's case: a spring to 50 that replaces, at its first instant, a tween to 1000 moves
  /// as the spring alone (0.6 s: 30.84, not an overshoot to 66.85).
  @Test func aReplacedTweenLeavesTheSpringAlone() throws {
    func trace(_ timeline: String) throws -> Double {
      var tracks = try JoinTimingTests.template(timeline, duration: 2).tracks
      return tracks.trace(AnyLayerProperty.named("positionX")!, layerID: "a", at: [0.6], limit: .right)[0].value[0]
    }
    let both = try trace(
      #"[ { at: 0.5, target: "a", animate: { positionX: 1000 }, curve: "linear", duration: 0.5 }, { at: 0.5, target: "a", animate: { positionX: 50 }, spring: {} } ]"#
    )
    let alone = try trace(#"[ { at: 0.5, target: "a", animate: { positionX: 50 }, spring: {} } ]"#)
    expectEqual(both, alone)
  }
}
