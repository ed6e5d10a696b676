import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Foundation
import Testing

/// A template's spring from 10²⁰⁰ to −10²⁰⁰ moves like the same spring from 1 to −1, scaled
/// (its rest threshold is 0.1 % of its distance, which `magnitudeSquared.squareRoot()` made
/// infinite: the layer snapped to its target at once), as `flick curve` and Swift's
/// ``SpringAnimation`` do.
@Suite struct LargeValueSpringTests {
  static func x(_ from: String, _ to: String, at times: [Double]) throws -> [Double] {
    let scene = try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 200, duration: 3 },
        layers: [{ id: "a", size: [10, 10], position: [\(from), 0], backgroundColor: "#0000FF" }],
        timeline: [{ target: "a", animate: { positionX: \(to) }, curve: "spring(damping: 10)" }] }
      """, file: "t.json5"
    ).scene
    return times.map { scene.renderTree(at: $0).layer(id: "a")?.position.x ?? .nan }
  }

  @Test func springFarFromItsTargetMovesLikeTheUnitSpring() throws {
    let times = [0.0, 0.05, 0.2, 0.5]
    let unit = try Self.x("1", "-1", at: times)
    let big = try Self.x("1e200", "-1e200", at: times)
    for (u, b) in zip(unit, big) {
      expectLess(abs(b / 1e200 - u), 1e-9, "\(b) against \(u)")
    }
    #expect(unit[1] > -0.99, "the unit spring has not arrived at 0.05 s: \(unit[1])")
  }
}
