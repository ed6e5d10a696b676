import FlickExpectations
import FlickMotion
import Testing

@Suite struct TimingFunctionTests {
  /// Reference: solve x(s) = x by plain bisection to machine precision, then evaluate y(s) from
  /// the Bernstein form — independent of the solver's polynomial form and Newton steps.
  static func reference(_ f: TimingFunction, _ x: Double) -> Double {
    func bernstein(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
      let u = 1 - s
      return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if bernstein(f.c1.x, f.c2.x, mid) < x { lo = mid } else { hi = mid }
    }
    return bernstein(f.c1.y, f.c2.y, (lo + hi) / 2)
  }

  @Test(arguments: [
    TimingFunction.easeIn, .easeOut, .easeInEaseOut, .default, TimingFunction(0.68, -0.55, 0.27, 1.55),
  ])
  func matchesBisectionReference(_ f: TimingFunction) {
    for i in 0...100 {
      let x = Double(i) / 100
      expectLess(abs(f.progress(at: x) - Self.reference(f, x)), 1e-9, "x = \(x)")
    }
  }

  @Test func knownPoints() {
    // easeInEaseOut is symmetric: y(0.5) = 0.5 exactly, and y(1 - x) = 1 - y(x).
    expectLess(abs(TimingFunction.easeInEaseOut.progress(at: 0.5) - 0.5), 1e-12)
    let y = TimingFunction.easeInEaseOut.progress(at: 0.25)
    expectLess(abs(TimingFunction.easeInEaseOut.progress(at: 0.75) - (1 - y)), 1e-12)
    // Value computed independently (bisection in high precision): easeInEaseOut(0.25) = 0.129162…
    expectLess(abs(y - 0.12916193), 1e-6)
    expectEqual(TimingFunction.linear.progress(at: 0.3), 0.3)
    expectEqual(TimingFunction.easeIn.progress(at: 0), 0)
    expectEqual(TimingFunction.easeIn.progress(at: 1), 1)
  }

  @Test func tweenIsAPureFunctionOfTime() {
    let tween = BasicAnimation(
      from: Point(x: 0, y: 10), to: Point(x: 200, y: 10), duration: 2, timingFunction: .easeInEaseOut)
    expectEqual(tween.value(at: -1), Point(x: 0, y: 10))
    expectEqual(tween.value(at: 1).x, 100)
    expectEqual(tween.value(at: 2), Point(x: 200, y: 10))
    expectEqual(tween.value(at: 9), Point(x: 200, y: 10))
    let x = tween.value(at: 0.5).x
    expectLess(abs(x - 200 * Self.reference(.easeInEaseOut, 0.25)), 1e-9)
  }
}
