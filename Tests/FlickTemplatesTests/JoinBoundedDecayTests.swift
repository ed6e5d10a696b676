import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// A bounded decay (`decay: { min, max }`) taking over a moving value.
@Suite struct JoinBoundedDecayTests {
  /// A bounded decay that starts outside its bounds springs to the bound with the velocity it was
  /// handed (it got it divided by Pop's start factor: 200 → 200.2 u/s at 0.998, 205.2 at 0.95).
  @Test(arguments: [
    #"{ at: 0.45, target: "a", animate: { positionX: { decay: { min: 0, max: 80 } } } }"#,
    #"{ at: 0.45, target: "a", animate: { positionX: { decay: { min: 0, max: 80, deceleration: 0.95 } } } }"#,
    #"{ at: 0.45, target: "a", animate: { positionX: { decay: { min: 100, max: 300, deceleration: 0.99 } } } }"#,
  ])
  func boundedDecayStartingOutsideKeepsTheVelocity(next: String) throws {
    let tween = #"{ at: 0, target: "a", animate: { positionX: { to: 100, curve: "linear", duration: 0.5 } } }"#
    JoinTimingTests.expectJoin(try JoinTimingTests.template("[ \(tween), \(next) ]"), at: 0.45, arriving: 200)
  }
}
