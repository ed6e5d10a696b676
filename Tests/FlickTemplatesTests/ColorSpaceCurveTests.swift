import FlickExpectations
import FlickMotion
import Testing

@testable import FlickTemplates

/// `ColorSpaceCurve` keeps a colour animation's timing and moves it through another space.
@Suite struct ColorSpaceCurveTests {
  static let blue = Color(red: 0, green: 0, blue: 1)
  static let green = Color(red: 0, green: 1, blue: 0)

  static func tween(_ f: TimingFunction = .linear) -> AnyAnimationCurve<Color> {
    AnyAnimationCurve(BasicAnimation(from: blue, to: green, duration: 1, timingFunction: f))
  }

  @Test func endpointsAndTimingAreKeptAndTheMiddleIsInTheSpace() {
    for space in ColorSpace.allCases {
      let c = ColorSpaceCurve(Self.tween(.easeInEaseOut), from: Self.blue, to: Self.green, in: space)
      expectLess((c.value(at: 0) - Self.blue).magnitudeSquared, 1e-10)
      expectLess((c.value(at: 1) - Self.green).magnitudeSquared, 1e-10)
      let p = c.progress(at: 0.3)
      expectLess(abs(p - TimingFunction.easeInEaseOut.progress(at: 0.3)), 1e-9)
      let expected = space.color(
        from: space.components(of: Self.blue)
          + (space.components(of: Self.green) - space.components(of: Self.blue)).scaled(by: p))
      expectLess((c.value(at: 0.3) - expected).magnitudeSquared, 1e-18)
    }
    // sRGB passes through the dull (0, 0.5, 0.5); OKLab stays brighter.
    let srgb = ColorSpaceCurve(Self.tween(), from: Self.blue, to: Self.green, in: .sRGB).value(at: 0.5)
    let oklab = ColorSpaceCurve(Self.tween(), from: Self.blue, to: Self.green, in: .oklab).value(at: 0.5)
    expectLess(abs(srgb.green - 0.5), 1e-12)
    expectLess(abs(srgb.blue - 0.5), 1e-12)
    expectGreater(oklab.green, 0.6)
    expectGreater(oklab.blue, 0.6)
  }

  @Test func velocityIsTheDerivativeOfTheValue() {
    let c = ColorSpaceCurve(Self.tween(.easeInEaseOut), from: Self.blue, to: Self.green, in: .oklab)
    for t in [0.2, 0.5, 0.8] {
      let h = 1e-5
      let numeric = (c.value(at: t + h) - c.value(at: t - h)).scaled(by: 1 / (2 * h))
      expectLess((c.velocity(at: t) - numeric).magnitudeSquared, 1e-8)
    }
  }

  @Test func decodesTheThreeNames() throws {
    let names = ["sRGB": ColorSpace.sRGB, "linear": .linearSRGB, "oklab": .oklab]
    for (name, space) in names {
      let node = TemplateNode(value: try JSON5Parser.parse("\"\(name)\""), path: "colorSpace", file: "t")
      try expectEqual(node.colorSpace(), space)
    }
    let bad = TemplateNode(value: try JSON5Parser.parse("\"okLab\""), path: "colorSpace", file: "t")
    #expect(throws: TemplateError.self) { try bad.colorSpace() }
  }
}
