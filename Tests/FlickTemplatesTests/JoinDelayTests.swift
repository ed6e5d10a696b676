import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// A curve spec's own `delay` and the hand-over: it happens when the curve starts.
@Suite struct JoinDelayTests {
  /// A curve spec's own `delay` leaves the property to what it was doing until the curve starts,
  /// and the curve takes over there (as an entry's `delay` does): before, the old tween ran on
  /// through the delay and the value jumped back 70 → 50 when the curve started.
  @Test(arguments: [
    #"{ at: 0.5, target: "a", animate: { positionX: { to: 0, curve: "easeOut(duration: 0.5, delay: 0.2)" } } }"#,
    #"{ at: 0.5, target: "a", animate: { positionX: { to: 0, curve: "spring(delay: 0.2)" } } }"#,
    #"{ at: 0.5, target: "a", animate: { positionX: { curve: "decay(delay: 0.2)" } } }"#,
    #"{ at: 0.5, curve: "spring(delay: 0.2)", group: [ { target: "a", animate: { positionX: 0 } } ] }"#,
  ])
  func curveDelayHandsOverWhenTheCurveStarts(next: String) throws {
    let t = try JoinTimingTests.template("[ \(JoinTimingTests.linear), \(next) ]")
    JoinTimingTests.expectJoin(t, at: 0.5, arriving: 100)
    JoinTimingTests.expectJoin(t, at: 0.7, arriving: 100)
    expectLess(abs(JoinTimingTests.limits(t, at: 0.7).right.value - 70), 1e-9)
    // Just after the curve starts it is still where the old motion left it, at its speed (it
    // jumped back to 50 at 0.70001 s).
    let after = JoinTimingTests.limits(t, at: 0.70001).right
    expectLess(abs(after.value - 70.001), 0.01, "\(after.value) at 0.70001 s")
    expectLess(abs(after.velocity - 100), 1, "\(after.velocity) u/s at 0.70001 s")
  }

  /// With a backwards fill the start value shows through the delay: the curve takes over at the
  /// entry's start and leaves the hold from rest, so the value never jumps.
  @Test func curveDelayWithABackwardsFillHoldsTheStartValue() throws {
    let t = try JoinTimingTests.template(
      """
      [ \(JoinTimingTests.linear),
        { at: 0.5, target: "a", animate: { positionX: { to: 0, curve: "spring(delay: 0.2, fill: both)" } } } ]
      """)
    let (l5, r5) = JoinTimingTests.limits(t, at: 0.5)
    expectLess(abs(r5.value - l5.value), 1e-9)
    let (l7, r7) = JoinTimingTests.limits(t, at: 0.7)
    expectLess(abs(l7.value - 50), 1e-9)
    expectLess(abs(r7.value - 50), 1e-9)
    expectLess(abs(l7.velocity), 1e-9)
    expectLess(abs(r7.velocity), 1e-9)
    // The curve leaves the hold from rest (it restarted at the 100 u/s handed over at 0.5 s).
    let after = JoinTimingTests.limits(t, at: 0.70001).right
    expectLess(abs(after.value - 50), 0.01, "\(after.value) at 0.70001 s")
    expectLess(abs(after.velocity), 1, "\(after.velocity) u/s at 0.70001 s")
  }
}
