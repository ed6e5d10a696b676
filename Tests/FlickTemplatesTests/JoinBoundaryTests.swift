import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Joins written at an exact boundary in decimal seconds, whose sum rounds a few ulps off
/// (0.7 + 0.1 = 0.7999999999999999, 0.21 / 0.7 = 0.30000000000000004): the new animation takes
/// over the motion arriving at the boundary — a tween's end, a key time, a repeat, an
/// autoreverse's turn, a `timeOffset`'s wrap — for every kind of new animation.
@Suite struct JoinBoundaryTests {
  /// The new animations tried at each boundary, at `t` seconds.
  static func next(at t: Double) -> [String] {
    [
      #"{ at: \#(t), target: "a", animate: { positionX: { to: 200, spring: {} } } }"#,
      #"{ at: \#(t), target: "a", animate: { positionX: { to: 200, curve: "easeInEaseOut", duration: 0.5 } } }"#,
      #"{ at: \#(t), target: "a", animate: { positionX: { decay: {} } } }"#,
      #"{ at: \#(t), group: [ { target: "a", animate: { positionX: { to: 200, spring: {} } } } ] }"#,
    ]
  }

  static func expectBoundary(
    _ first: String, at t: Double, arriving value: Double, _ velocity: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for next in next(at: t) {
      let template = try JoinTimingTests.template("[ \(first), \(next) ]", duration: 3)
      let (left, _) = JoinTimingTests.limits(template, at: t)
      expectLess(abs(left.value - value), 1e-9, "arriving at \(left.value)", sourceLocation: sourceLocation)
      JoinTimingTests.expectJoin(template, at: t, arriving: velocity, sourceLocation: sourceLocation)
    }
  }

  /// A tween ending at 0.7 + 0.1 s, the next animation at 0.8: it arrives with easeIn's end speed
  /// (1,724 u/s), and the next motion started at rest.
  @Test func tweenEnd() throws {
    let end = BasicAnimation(from: 0.0, to: 100, duration: 0.1, timingFunction: .easeIn).velocity(before: 0.1)
    expectGreater(end, 1700)
    try Self.expectBoundary(
      #"{ at: 0.7, target: "a", animate: { positionX: { to: 100, duration: 0.1, curve: "easeIn" } } }"#, at: 0.8,
      arriving: 100, end)
  }

  /// Key time 0.3 of 0.7 s reached at 0.21 s: the rising segment arrives at 100/0.21 u/s (it read
  /// the flat one after it, 0).
  @Test func keyTime() throws {
    try Self.expectBoundary(
      #"{ at: 0, target: "a", animate: { positionX: { keyframes: { values: [0, 100, 100], keyTimes: [0, 0.3, 1] }, duration: 0.7 } } }"#,
      at: 0.21, arriving: 100, 100 / 0.21)
  }

  /// A repeat boundary at 0.3 + 0.1 s: the end of the first run (100 at 1,000 u/s), not the
  /// start of the second (it read 2.8e-14).
  @Test func repeatBoundary() throws {
    try Self.expectBoundary(
      #"{ at: 0.3, target: "a", animate: { positionX: { to: 100, duration: 0.1, curve: "linear", repeatCount: 5 } } }"#,
      at: 0.4, arriving: 100, 1000)
  }

  /// The turn of an autoreverse at 0.3 + 0.1 s: the motion arriving at the turn.
  @Test func autoreverseTurn() throws {
    try Self.expectBoundary(
      #"{ at: 0.3, target: "a", animate: { positionX: { to: 100, duration: 0.1, curve: "linear", autoreverses: true, repeatCount: 2 } } }"#,
      at: 0.4, arriving: 100, 1000)
  }

  /// The wrap of `timeOffset: 0.5` at 0.5 s: the end of the active duration (100 at 100 u/s),
  /// not its start (it read 0).
  @Test func timeOffsetWrap() throws {
    try Self.expectBoundary(
      #"{ at: 0, target: "a", animate: { positionX: { to: 100, duration: 1, curve: "linear", timeOffset: 0.5 } } }"#,
      at: 0.5, arriving: 100, 100)
  }
}
