import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@Suite struct ShapePathTests {
  @Test func parsesAbsoluteAndRelativeCommandsWithImplicitRepeats() throws {
    let p = try ShapePath(svgPathData: "M10,10 h 20 v20 H10 z m 5 5 l1 1 2 2")
    expectEqual(
      p.elements,
      [
        .move(to: Point(x: 10, y: 10)), .line(to: Point(x: 30, y: 10)), .line(to: Point(x: 30, y: 30)),
        .line(to: Point(x: 10, y: 30)), .closeSubpath,
        .move(to: Point(x: 15, y: 15)), .line(to: Point(x: 16, y: 16)), .line(to: Point(x: 18, y: 18)),
      ])
  }

  @Test func parsesCompactNumbersAndExponents() throws {
    let p = try ShapePath(svgPathData: "M.5-1.5L1e1,2E-1")
    expectEqual(p.elements, [.move(to: Point(x: 0.5, y: -1.5)), .line(to: Point(x: 10, y: 0.2))])
  }

  @Test func curvesQuadsAndSmoothVariants() throws {
    let p = try ShapePath(svgPathData: "M0 0 C 0 10 10 10 10 0 S 20 -10 20 0 Q 25 5 30 0 T 40 0")
    expectEqual(p.elements.count, 5)
    // The S command reflects the previous control point (10, 10) about (10, 0).
    expectEqual(
      p.elements[2], .curve(to: Point(x: 20, y: 0), control1: Point(x: 10, y: -10), control2: Point(x: 20, y: -10)))
  }

  @Test func arcCommandDrawsAHalfCircle() throws {
    let p = try ShapePath(svgPathData: "M 0 50 A 50 50 0 0 1 100 50")
    // Half the circumference of a radius-50 circle.
    expectLess(abs(p.length - .pi * 50), 0.05)
    let top = p.controlPointBounds
    expectLess(top.minY, 1)
    expectGreater(top.minY, -25)
  }

  @Test func badPathDataNamesTheOffset() {
    #expect(throws: ShapePathError(offset: 0, message: "path data must start with a command such as 'M'")) {
      try ShapePath(svgPathData: "10 10")
    }
    #expect(throws: ShapePathError.self) { try ShapePath(svgPathData: "M 0 0 L 5") }
    #expect(throws: ShapePathError.self) { try ShapePath(svgPathData: "M 0 0 X 5 5") }
    #expect(throws: ShapePathError.self) { try ShapePath(svgPathData: "L 0 0") }
  }

  @Test func lengthsOfHelpers() {
    expectLess(abs(ShapePath.rect(Rect(x: 0, y: 0, width: 30, height: 20)).length - 100), 1e-9)
    let circle = ShapePath.ellipse(in: Rect(x: 0, y: 0, width: 100, height: 100))
    expectLess(abs(circle.length - .pi * 100), 0.1)
    let ring = ShapePath.arc(center: Point(x: 50, y: 50), radius: 40, startAngle: -.pi / 2, endAngle: 1.5 * .pi)
    expectLess(abs(ring.length - 2 * .pi * 40), 0.1)
  }

  @Test func trimmingHalfARingEndsOppositeItsStart() throws {
    let ring = ShapePath.arc(center: Point(x: 50, y: 50), radius: 40, startAngle: -.pi / 2, endAngle: 1.5 * .pi)
    let half = ring.trimmed(from: 0, to: 0.5)
    expectLess(abs(half.length - .pi * 40), 0.1)
    let end = try #require(half.currentPoint)
    expectLess(abs(end.x - 50), 0.05)
    expectLess(abs(end.y - 90), 0.05)
    #expect(ring.trimmed(from: 0.6, to: 0.4).isEmpty)
    expectEqual(ring.trimmed(from: 0, to: 1), ring)
  }

  @Test func roundedRectOnlyRoundsMaskedCorners() {
    let r = Rect(x: 0, y: 0, width: 100, height: 100)
    let some = ShapePath.roundedRect(r, cornerRadius: 20, corners: [.layerMinXMinYCorner])
    expectEqual(some.elements.first, .move(to: Point(x: 20, y: 0)))
    let curves = some.elements.filter { if case .curve = $0 { true } else { false } }
    expectEqual(curves.count, 1)
    expectLess(abs(some.length - (400 - 40 + .pi * 10)), 0.05)
  }
}
