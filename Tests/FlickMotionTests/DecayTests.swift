import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

@Suite struct DecayTests {
  @Test func popFinalValueAndDuration() {
    let d = DecayAnimation(from: 0.0, velocity: 1000, deceleration: 0.998, threshold: 1)
    // Closed form: duration = ln(5·1/1000 / (1000/1000)) / (1000·ln 0.998); distance = 499·(1 − 0.998^n).
    let expected = log(0.005) / (1000 * log(0.998))
    expectLess(abs(d.duration - expected), 1e-12)
    expectLess(abs(d.duration - 2.647), 0.0005)
    expectLess(abs(d.finalValue - 499 * (1 - 0.005)), 1e-9)
    expectLess(abs(d.finalValue - 496.5), 0.05)
    expectEqual(d.value(at: 10), d.finalValue)
    expectEqual(d.velocity(at: d.duration), 0)
  }

  @Test func matchesPopsPerMillisecondSum() {
    // Pop advances x += v_ms · d(1 − dⁿ)/(1 − d) per frame; at whole milliseconds that is Σ v_ms·dⁱ.
    let d = DecayAnimation(from: 5.0, velocity: -800, deceleration: 0.995, threshold: 0.1)
    var x = 5.0
    var v = -0.8
    for ms in 1...300 {
      v *= 0.995
      x += v
      expectLess(abs(d.value(at: Double(ms) / 1000) - x), 1e-9)
    }
  }

  @Test func velocityIsTheDerivative() {
    let d = DecayAnimation(from: Point(x: 0, y: 0), velocity: Point(x: 600, y: -300))
    for t in [0.0, 0.1, 0.5, 1.0] {
      let h = 1e-6
      let fd = (d.value(at: t + h) - d.value(at: max(0, t - h))).scaled(by: 1 / (t + h - max(0, t - h)))
      expectLess((fd - d.velocity(at: t)).magnitudeSquared.squareRoot(), 1e-3)
    }
  }

  @Test func rubberBandHandsOverContinuously() throws {
    let band = RubberBandDecay(from: 0, velocity: 2000, bounds: 0...300)
    let tc = try #require(band.crossingTime)
    expectLess(abs(band.value(at: tc) - 300), 1e-9)
    expectLess(abs(band.decay.velocity(at: tc) - band.velocity(at: tc)), 1e-9)
    expectLess(abs(band.value(at: tc - 1e-7) - band.value(at: tc + 1e-7)), 1e-3)
    expectGreater(band.value(at: tc + 0.05), 300)  // overshoots past the edge, then returns
    expectEqual(band.finalValue, 300)
    expectEqual(band.value(at: band.duration + 1), 300)
  }

  @Test func startOutsideBoundsSpringsBack() {
    let band = RubberBandDecay(from: -50, velocity: 0, bounds: 0...300)
    expectEqual(band.crossingTime, 0)
    expectEqual(band.finalValue, 0)
  }

  @Test func decayWithinBoundsIsPlainDecay() {
    let band = RubberBandDecay(from: 0, velocity: 100, bounds: 0...1000)
    #expect(band.crossingTime == nil)
    expectEqual(band.value(at: 0.3), band.decay.value(at: 0.3))
  }
}
