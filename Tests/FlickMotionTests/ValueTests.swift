import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

@Suite struct ValueTests {
  @Test func integerValueAnimatesExactlyAndRoundsOnWrite() {
    let s = BasicAnimation(from: IntegerValue(0), to: IntegerValue(10), duration: 1, timingFunction: .linear)
    expectEqual(s.value(at: 0.26).rawValue, 2.6)
    expectEqual(s.value(at: 0.26).rounded, 3)
    expectEqual(IntegerValue(rawValue: -2.5).rounded, -3)
  }

  @Test func transformRotatesThroughAFullTurn() {
    let a = BasicAnimation(
      from: Transform.identity, to: Transform(rotation: Vector3(x: 0, y: 0, z: 2 * .pi)), duration: 1,
      timingFunction: .linear)
    let half = a.value(at: 0.5)
    expectLess(abs(half.rotation.z - .pi), 1e-12)
    let p = half.apply(to: Vector3(x: 10, y: 0, z: 0))
    expectLess(abs(p.x + 10), 1e-9)
    expectLess(abs(p.y), 1e-9)
    expectEqual(half.scale, .one)
  }

  @Test func transformMatrixComposition() {
    let t = Transform(translation: Vector3(x: 5, y: 6, z: 0), scale: Vector3(x: 2, y: 3, z: 1))
    expectEqual(t.apply(to: Vector3(x: 1, y: 1, z: 0)), Vector3(x: 7, y: 9, z: 0))
    let skew = Transform(skew: Point(x: .pi / 4, y: 0))
    let q = skew.apply(to: Vector3(x: 0, y: 2, z: 0))
    expectLess(abs(q.x - 2), 1e-12)
    let persp = Transform(translation: Vector3(x: 0, y: 0, z: 250), perspective: -1.0 / 500)
    let r = persp.apply(to: Vector3(x: 100, y: 0, z: 0))
    expectLess(abs(r.x - 200), 1e-9)  // halfway to the eye: twice as big
  }

  @Test(arguments: ColorSpace.allCases)
  func colorSpacesRoundTrip(_ space: ColorSpace) {
    // OKLab's published matrices carry 10 digits, so its round trip is good to ~1e-6 (invisible: 1/255 ≈ 4e-3).
    for c in [Color(red: 0.2, green: 0.7, blue: 0.1, alpha: 0.5), .white, .black, Color(red: 1, green: 0, blue: 0.5)] {
      let back = space.color(from: space.components(of: c))
      expectLess(abs(back.red - c.red), 1e-5)
      expectLess(abs(back.green - c.green), 1e-5)
      expectLess(abs(back.blue - c.blue), 1e-5)
      expectEqual(back.alpha, c.alpha)
    }
  }

  @Test func oklabKnownValuesAndMidpoints() {
    let white = ColorSpace.oklab.components(of: .white)
    expectLess(abs(white.x - 1), 1e-6)
    expectLess(abs(white.y), 1e-6)
    expectLess(abs(white.z), 1e-6)
    func mid(_ space: ColorSpace) -> Color {
      ColorSpaceAnimation(in: space, from: .black, to: .white) { a, b in
        BasicAnimation(from: a, to: b, duration: 1, timingFunction: .linear)
      }.value(at: 0.5)
    }
    expectEqual(mid(.sRGB).red, 0.5)
    expectLess(abs(mid(.linearSRGB).red - 0.7353569830524495), 1e-9)  // encoded(0.5)
    expectGreater(mid(.oklab).red, 0.35)
    expectLess(mid(.oklab).red, 0.42)  // L = 0.5 → about 0.389
  }

  @Test func colorVelocityMatchesFiniteDifference() {
    let a = ColorSpaceAnimation(
      in: .oklab, from: Color(red: 1, green: 0, blue: 0), to: Color(red: 0, green: 0, blue: 1)
    ) { a, b in
      SpringAnimation(from: a, to: b, parameters: .popDefault)
    }
    let h = 1e-6
    let fd = (a.value(at: 0.1 + h) - a.value(at: 0.1 - h)).scaled(by: 1 / (2 * h))
    expectLess((fd - a.velocity(at: 0.1)).magnitudeSquared.squareRoot(), 1e-4)
  }

  @Test func clampAndRounding() {
    let s = SpringAnimation(from: 0.0, to: 100, parameters: SpringParameters(stiffness: 300, damping: 5))
    let peak = (0..<200).map { s.value(at: Double($0) / 200) }.max() ?? 0
    expectGreater(peak, 100)
    let clamped = s.clamped(.end)
    #expect((0..<200).allSatisfy { clamped.value(at: Double($0) / 200) <= 100 })
    let rounded = s.clamped(.none, roundingFactor: 0.5)
    expectEqual(rounded.value(at: 0.05).truncatingRemainder(dividingBy: 0.5), 0)
    let down = SpringAnimation(
      from: Point(x: 100, y: 0), to: Point(x: 0, y: 0), parameters: SpringParameters(stiffness: 300, damping: 5)
    ).clamped(.end)
    #expect((0..<200).allSatisfy { down.value(at: Double($0) / 200).x >= 0 })
  }

  @Test func edgeInsetsAndVectorsAnimate() {
    let a = BasicAnimation(
      from: EdgeInsets.zero, to: EdgeInsets(top: 10, left: 20, bottom: 30, right: 40), duration: 1,
      timingFunction: .linear)
    expectEqual(a.value(at: 0.5), EdgeInsets(top: 5, left: 10, bottom: 15, right: 20))
    let v = SpringAnimation(from: Vector4.zero, to: Vector4(x: 1, y: 2, z: 3, w: 4))
    expectEqual(v.finalValue, Vector4(x: 1, y: 2, z: 3, w: 4))
  }
}
