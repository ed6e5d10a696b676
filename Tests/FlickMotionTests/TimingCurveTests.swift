import FlickExpectations
import Testing

@testable import FlickMotion

@Suite struct TimingCurveTests {
  static let kinds: [TimingFunction] = [
    .back(.in), .back(.out), .back(.inOut), .anticipate(), .bounce(.in), .bounce(.out), .bounce(.inOut),
    .elastic(.in), .elastic(.out), .elastic(.inOut, amplitude: 1.5, period: 0.4), .easeInEaseOut, .default,
  ]

  @Test(arguments: kinds)
  func slopeIsTheDerivative(_ f: TimingFunction) {
    for i in 1..<40 {
      let x = Double(i) / 40 + 0.0031
      let h = 1e-6
      let fd = (f.progress(at: x + h) - f.progress(at: x - h)) / (2 * h)
      expectLess(abs(fd - f.slope(at: x)), 1e-4 * max(1, abs(fd)), "x = \(x)")
    }
  }

  @Test(arguments: kinds)
  func endsAreExact(_ f: TimingFunction) {
    expectEqual(f.progress(at: 0), 0)
    expectEqual(f.progress(at: 1), 1)
  }

  @Test func knownValues() {
    // Penner backOut(0.5) with s = 1.70158: 1 + 2.70158·(−0.5)³ + 1.70158·0.25 = 1.0876975
    expectLess(abs(TimingFunction.back(.out).progress(at: 0.5) - 1.0876975), 1e-9)
    expectLess(abs(TimingFunction.bounce(.out).progress(at: 0.5) - 0.765625), 1e-12)
    // elasticOut(0.25) = 1 + 2^−2.5·sin(7π/6)
    expectLess(abs(TimingFunction.elastic(.out).progress(at: 0.25) - (1 - 0.5 * 0.17677669529663687)), 1e-9)
  }

  @Test func steps() {
    let end = TimingFunction.steps(4)
    expectEqual(end.progress(at: 0.1), 0)
    expectEqual(end.progress(at: 0.26), 0.25)
    expectEqual(end.progress(at: 0.99), 0.75)
    let start = TimingFunction.steps(4, position: .jumpStart)
    expectEqual(start.progress(at: 0.1), 0.25)
    let none = TimingFunction.steps(5, position: .jumpNone)
    expectEqual(none.progress(at: 0.5), 0.5)
    let both = TimingFunction.steps(3, position: .jumpBoth)
    expectEqual(both.progress(at: 0.1), 0.25)
    expectEqual(end.slope(at: 0.3), 0)
  }

  @Test func bezierSlopeMatchesExactDerivative() {
    // Exact: y'(x) = (dy/ds)/(dx/ds) at the s solving x(s) = x, with the solver checked by bisection.
    let f = TimingFunction(0.42, 0, 0.58, 1)
    let y = TimingFunctionTests.reference(f, 0.3)
    expectLess(abs(f.progress(at: 0.3) - y), 1e-6)
    let h = 1e-5
    let fd = (TimingFunctionTests.reference(f, 0.3 + h) - TimingFunctionTests.reference(f, 0.3 - h)) / (2 * h)
    expectLess(abs(f.slope(at: 0.3) - fd), 1e-6)
  }

  @Test func tweenVelocity() {
    let t = BasicAnimation(from: 0.0, to: 200, duration: 2, timingFunction: .linear)
    expectEqual(t.velocity(at: 1), 100)
    expectEqual(t.velocity(at: 2), 0)
  }

  @Test func namedCurvesIncludeExtras() {
    for name in ["backOut", "anticipate", "bounceOut", "elasticInOut", "easeInEaseOut"] {
      #expect(TimingFunction.named[name] != nil, "\(name)")
    }
  }
}

@Suite struct CustomAnimationTests {
  @Test func stopsOnAFixedGridWhateverTheFrameRate() {
    let c = CustomAnimation<Double> { t, _ in (t * 10, t < 0.2503) }
    expectLess(abs(c.duration - 0.251), 1e-12)
    expectEqual(c.value(at: 5), c.value(at: c.duration))
    expectLess(abs(c.velocity(at: 0.1) - 10), 1e-9)
  }
}
