import FlickExpectations
import FlickMotion
import Testing

/// `InterpolationMap`: values between and beyond the stops, exact one-sided slopes, eased gaps,
/// and the errors of a bad map; `ColorSpace.derivative(at:along:)` against the conversion.
@Suite struct InterpolationMapTests {
  @Test func valuesBetweenStops() throws {
    let m = try InterpolationMap(input: [0, 10, 30], output: [0, 100, 0])
    expectEqual(m.value(at: 0), 0)
    expectEqual(m.value(at: 5), 50)
    expectEqual(m.value(at: 10), 100)
    expectEqual(m.value(at: 20), 50)
    expectEqual(m.value(at: 30), 0)
  }

  @Test func slopesAreOneSidedAtStops() throws {
    let m = try InterpolationMap(input: [0, 10, 30], output: [0, 100, 0])
    expectEqual(m.slope(at: 10, side: .below), 10)
    expectEqual(m.slope(at: 10, side: .above), -5)
    expectEqual(m.slope(at: 0, side: .below), 0)  // clamped below the first stop
    expectEqual(m.slope(at: 0, side: .above), 10)
    expectEqual(m.slope(at: 30, side: .below), -5)
    expectEqual(m.slope(at: 30, side: .above), 0)
  }

  @Test func extrapolation() throws {
    let extend = try InterpolationMap(
      input: [0, 10], output: [0, 100], extrapolateLeft: .extend, extrapolateRight: .extend)
    expectEqual(extend.value(at: -5), -50)
    expectEqual(extend.value(at: 15), 150)
    expectEqual(extend.slope(at: 15, side: .above), 10)
    expectEqual(extend.constantAbove, .infinity)
    let identity = try InterpolationMap(input: [0, 10], output: [0, 100], extrapolateLeft: .identity)
    expectEqual(identity.value(at: -7), -7)
    expectEqual(identity.slope(at: -7, side: .below), 1)
    expectEqual(identity.value(at: 12), 100)
    expectEqual(identity.constantAbove, 10)
    // An eased end extends with the slope it ends with: easeOut arrives flat, so it holds.
    let eased = try InterpolationMap(input: [0, 10], output: [0, 100], timing: [.easeOut], extrapolateRight: .extend)
    expectLess(abs(eased.value(at: 20) - 100), 1e-9)
  }

  @Test func easedGapsUseTheCurveAndItsSlope() throws {
    let m = try InterpolationMap(input: [0, 4], output: [Point(x: 0, y: 0), Point(x: 8, y: -4)], timing: [.easeIn])
    let u = 0.25
    let p = TimingFunction.easeIn.progress(at: u)
    expectEqual(m.value(at: 1), Point(x: 8 * p, y: -4 * p))
    let s = TimingFunction.easeIn.slope(at: u) / 4
    expectEqual(m.slope(at: 1, side: .above), Point(x: 8 * s, y: -4 * s))
  }

  @Test func sideOfAMovingInput() {
    expectEqual(InterpolationSide(rate: 3, leftLimit: false), .above)
    expectEqual(InterpolationSide(rate: 3, leftLimit: true), .below)
    expectEqual(InterpolationSide(rate: -3, leftLimit: false), .below)
    expectEqual(InterpolationSide(rate: -3, leftLimit: true), .above)
  }

  @Test func badMapsAreErrors() {
    func message(_ build: () throws -> Void) -> String {
      do {
        try build()
        return ""
      } catch {
        return (error as? MotionError)?.message ?? "not a MotionError"
      }
    }
    #expect(message { _ = try InterpolationMap(input: [1], output: [1.0]) }.contains("at least 2"))
    #expect(message { _ = try InterpolationMap(input: [0, 1], output: [1.0]) }.contains("one output per input"))
    #expect(message { _ = try InterpolationMap(input: [0, 0], output: [1.0, 2]) }.contains("must increase"))
    #expect(
      message {
        _ = try InterpolationMap(input: Array(0...64).map(Double.init), output: Array(repeating: 0.0, count: 65))
      }
      .contains("at most 64"))
    #expect(
      message {
        _ = try InterpolationMap(input: [0, 1, 2], output: [0.0, 1, 2], timing: [.linear, .easeIn, .easeOut])
      }
      .contains("one per gap"))
    #expect(
      message { _ = try InterpolationMap(input: [0, 1], output: [Point.zero, .zero], extrapolateLeft: .identity) }
        .contains("number"))
  }

  @Test(arguments: ColorSpace.allCases) func colourDerivativeMatchesTheConversion(_ space: ColorSpace) {
    let v = space.components(of: Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.8))
    let dv = Vector4(x: 0.03, y: -0.02, z: 0.05, w: -0.1)
    let d = space.derivative(at: v, along: dv)
    let h = 1e-6
    let plus = space.color(from: v + dv.scaled(by: h))
    let minus = space.color(from: v - dv.scaled(by: h))
    let numeric = (plus - minus).scaled(by: 1 / (2 * h))
    expectLess(abs(d.red - numeric.red), 1e-6)
    expectLess(abs(d.green - numeric.green), 1e-6)
    expectLess(abs(d.blue - numeric.blue), 1e-6)
    expectLess(abs(d.alpha - numeric.alpha), 1e-9)
  }
}
