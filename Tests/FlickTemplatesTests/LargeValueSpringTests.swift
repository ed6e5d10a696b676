import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Foundation
import Testing

/// A template's spring from 10²⁰⁰ to −10²⁰⁰ moves like the same spring from 1000 to −1000,
/// scaled, until that one settles (its distance, measured as `magnitudeSquared.squareRoot()`,
/// was infinite: the layer snapped to its target at once), as `flick curve` and Swift's
/// ``SpringAnimation`` do. (A template's spring rests at the property's threshold, ½ point.)
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
    let times = [0.0, 0.05, 0.2, 0.5, 1]
    let unit = try Self.x("1000", "-1000", at: times)
    let big = try Self.x("1e200", "-1e200", at: times)
    for (u, b) in zip(unit, big) {
      expectLess(abs(b / 1e200 - u / 1000), 1e-9, "\(b) against \(u)")
    }
    #expect(big[1] > -0.99e200, "the spring has not arrived at 0.05 s: \(big[1])")
  }
}
