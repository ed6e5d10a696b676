import FlickExpectations
import Testing

@testable import FlickMotion

/// A bounded decay starting outside its bounds keeps the velocity it is handed.
@Suite struct BoundedDecayHandoverTests {
  /// Started outside its bounds, the rubber band's spring leaves with the velocity handed over
  /// (it got it divided by Pop's start factor: 200 → 200.2 at 0.998, 205.2 at 0.95).
  @Test(arguments: [
    "decay(min: 0, max: 80)", "decay(min: 0, max: 80, deceleration: 0.95)", "decay(min: 100, max: 300)",
  ])
  func boundedDecayOutsideItsBoundsKeepsTheVelocity(spec: String) throws {
    let curve = try CurveBuilder(
      spec: try AnimationSpec(parsing: spec, options: .velocityFromHandoff),
      from: Handoff(value: 90.0, velocity: 200, time: 0), to: nil
    ).curve()
    expectLess(abs(curve.velocity(at: 0) - 200), 1e-9, "\(spec)")
  }
}
