import FlickExpectations
import Testing

import FlickMotion

/// `constant` and `drag` spec forms: the template-only curves reachable from spec text
/// (`flick curve`, template `curve:` strings) and from ``AnimationSpec`` in Swift.
@Suite struct CurveSpecFormTests {
  @Test func constantHoldsAFractionOfTheTravel() throws {
    let end = try AnimationSpec(parsing: "constant").curve(from: 10.0, to: 110)
    expectEqual(end.duration, 0)
    expectEqual(end.value(at: 0), 110)
    expectEqual(end.value(at: 2), 110)
    expectEqual(end.velocity(at: 1), 0)
    let half = try AnimationSpec(parsing: "constant(0.5)").curve(from: 10.0, to: 110)
    expectEqual(half.value(at: 0.3), 60)
    let labelled = try AnimationSpec(parsing: "constant(value: 0)").curve(from: 10.0, to: 110)
    expectEqual(labelled.value(at: 0.3), 10)
  }

  @Test func dragSpecIsADragCurveThroughFractions() throws {
    let spec = try AnimationSpec(parsing: "drag(points: [0, 0.4, 1], curve: easeIn, duration: 0.5)")
    let curve = try spec.curve(from: 0.0, to: 200)
    let direct = try DragCurve(points: [0.0, 80, 200], duration: 0.5, timing: .easeIn)
    expectEqual(curve.duration, 0.5)
    for t in stride(from: 0.0, through: 0.6, by: 0.05) {
      expectLess(abs(curve.value(at: t) - direct.value(at: t)), 1e-12)
      expectLess(abs(curve.velocity(at: t) - direct.velocity(at: t)), 1e-9)
    }
    expectLess(abs(curve.velocity(before: 0.5) - direct.velocity(before: 0.5)), 1e-9)
    expectGreater(curve.velocity(before: 0.5), 0)
  }

  @Test func badDragSpecsSayWhy() {
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "drag(duration: 0.5)") }
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "drag(points: [0, 1], duration: 0)") }
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "drag(points: [], duration: 1)") }
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "constant(value: x)") }
    #expect(AnimationSpec.names.contains("constant"))
    #expect(AnimationSpec.names.contains("drag"))
  }
}
