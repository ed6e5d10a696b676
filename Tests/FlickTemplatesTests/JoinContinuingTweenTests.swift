import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// A tween that continues a moving value keeps its end value and the curve's own end velocity
/// (a linear continuation ended at 175 u/s instead of its own 150, an easeIn one at 186.2
/// instead of 258.6, and a repeated autoreversing group reached 400 u/s every second run).
@Suite struct JoinContinuingTweenTests {
  @Test(arguments: [("linear", 100.0, 150.0), ("linear", 200, 100), ("easeIn", 100, 150 * (1 / 0.58))])
  func continuedTweenEndsWithItsOwnVelocity(curve: String, firstTo: Double, own: Double) throws {
    let t = try JoinTimingTests.template(
      """
      [ { at: 0, target: "a", animate: { positionX: { to: \(firstTo), curve: "linear", duration: 1 } } },
        { at: 0.5, target: "a", animate: { positionX: { to: 200, curve: "\(curve)", duration: 1 } } } ]
      """)
    JoinTimingTests.expectJoin(t, at: 0.5, arriving: firstTo)
    let end = JoinTimingTests.limits(t, at: 1.5).left
    expectLess(abs(end.velocity - own), 1e-6, "ends at \(end.velocity) u/s, its own \(own)")
    expectLess(abs(end.value - 200), 1e-9)
  }

  @Test func repeatedAutoreversingGroupKeepsItsSpeed() throws {
    let t = try JoinTimingTests.template(
      """
      [ { at: 0, repeat: "forever", autoreverses: true, group: [
          { target: "a", animate: { positionX: { to: 100, curve: "linear", duration: 0.5 } } } ] } ]
      """, duration: 4)
    // Each run arrives at its end with linear's own 200 u/s (every second run reached 400).
    for k in 1...6 {
      let v = JoinTimingTests.limits(t, at: Double(k) * 0.5).left.velocity
      expectLess(abs(abs(v) - 200), 1e-6, "run \(k) ends at \(v) u/s")
    }
  }
}
