import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Testing

/// Issue 27: `drag: { …, resistance: { bounds, coefficient, dimension } }` — past a bound the
/// layer follows UIScrollView's rubber band, value and velocity, and a release continues from
/// the resisted position and velocity.
@Suite struct DragResistanceTests {
  static func template(fps: Int = 30, _ timeline: String) throws -> Template {
    // The canvas is 400 × 400: D defaults to 400 on both axes.
    try HandOverKindTests.template(fps: fps, duration: 3, timeline)
  }

  static func message(_ timeline: String) -> String {
    do {
      _ = try template(timeline)
      return ""
    } catch {
      return "\(error)"
    }
  }

  static func band(_ finger: Double, bound: Double, c: Double = 0.55, d: Double = 400) -> Double {
    let o = finger - bound
    return o <= 0 ? finger : bound + (1 - 1 / (o * c / d + 1)) * d
  }

  /// A pull down past y = 100 (the layer starts there): the layer is the band of the finger.
  @Test(arguments: HandOverKindTests.rates) func pullFollowsTheRubberBand(fps: Int) throws {
    let timeline = """
      [ { id: "pull", target: "a", drag: { property: "position", by: [[0, 0], [0, 180]], duration: 1,
          resistance: { bounds: { y: [0, 100] } } } },
        { after: "pull", target: "a", release: { property: "position", to: [100, 100], spring: { stiffness: 200, damping: 20 } } } ]
      """
    let t = try Self.template(fps: fps, timeline)
    var tracks = t.tracks
    let position = AnyLayerProperty.named("position")!
    let finger = try DragCurve(points: [Point(x: 100, y: 100), Point(x: 100, y: 280)], duration: 1)
    for time in [0.25, 0.5, 0.75] {
      let s = tracks.trace(position, layerID: "a", at: [time])[0]
      let y = finger.value(at: time).y
      expectLess(abs(s.value[1] - Self.band(y, bound: 100)), 1e-9)
      expectEqual(s.value[0], 100)
      // Velocity: the chain rule through the band.
      let o = y - 100
      let slope = 0.55 / ((o * 0.55 / 400 + 1) * (o * 0.55 / 400 + 1))
      expectLess(abs(s.velocity[1] - finger.velocity(at: time).y * slope), 1e-9)
    }
    // The release continues from the resisted position and velocity (C¹ at the lift).
    HandOverKindTests.expectC1(t, "position", at: 1, travel: 100)
    let lift = tracks.trace(position, layerID: "a", at: [1], limit: .left)[0]
    expectLess(abs(lift.value[1] - Self.band(280, bound: 100)), 1e-9)
    // The same bits at every frame rate, at the instants all rates share.
    var reference = try Self.template(fps: 24, timeline).tracks
    let common = (0...18).map { Double($0) / 6 }
    expectEqual(tracks.trace(position, layerID: "a", at: common), reference.trace(position, layerID: "a", at: common))
  }

  /// A number property, a lower bound, a custom coefficient and dimension; the other side free.
  @Test func numberPropertyBothSides() throws {
    let t = try Self.template(
      """
      [ { target: "a", drag: { property: "translationX", path: [0, -150, 60], duration: 1,
          resistance: { bounds: { x: [-50, null] }, coefficient: 0.3, dimension: 200 } } } ]
      """)
    var tracks = t.tracks
    let p = AnyLayerProperty.named("translationX")!
    let finger = try DragCurve(points: [0.0, -150, 60], duration: 1)
    for time in stride(from: 0.05, to: 1, by: 0.05) {
      let f = finger.value(at: time)
      let expected = f < -50 ? -50 - (1 - 1 / ((-50 - f) * 0.3 / 200 + 1)) * 200 : f
      expectLess(abs(tracks.trace(p, layerID: "a", at: [time])[0].value[0] - expected), 1e-9)
    }
  }

  /// Without resistance the same drag follows the finger (the test above can fail).
  @Test func withoutResistanceTheLayerIsTheFinger() throws {
    let t = try Self.template("[ { target: \"a\", drag: { property: \"positionY\", by: [0, 180], duration: 1 } } ]")
    var tracks = t.tracks
    let y = tracks.trace(AnyLayerProperty.named("positionY")!, layerID: "a", at: [1])[0].value[0]
    expectEqual(y, 280)
    let r = try Self.template(
      "[ { target: \"a\", drag: { property: \"positionY\", by: [0, 180], duration: 1, resistance: { bounds: { y: [0, 100] } } } } ]"
    )
    var resisted = r.tracks
    let ry = resisted.trace(AnyLayerProperty.named("positionY")!, layerID: "a", at: [1])[0].value[0]
    expectLess(abs(ry - Self.band(280, bound: 100)), 1e-9)
  }

  @Test func errors() {
    let axis = Self.message(
      "[ { target: \"a\", drag: { property: \"positionX\", by: [0, 9], duration: 1, resistance: { bounds: { y: [0, 1] } } } } ]"
    )
    #expect(axis.contains("give its bounds as 'x'"), "\(axis)")
    let color = Self.message(
      "[ { target: \"a\", drag: { property: \"backgroundColor\", path: [\"#000\", \"#fff\"], duration: 1, resistance: { bounds: { x: [0, 1] } } } } ]"
    )
    #expect(color.contains("resistance applies to a drag of a position (position, translationXY)"), "\(color)")
    let order = Self.message(
      "[ { target: \"a\", drag: { by: [[0, 0], [0, 9]], duration: 1, resistance: { bounds: { y: [5, 1] } } } } ]")
    #expect(order.contains("is above their max"), "\(order)")
    let typo = Self.message(
      "[ { target: \"a\", drag: { by: [[0, 9]], duration: 1, resistance: { bounds: { y: [0, 1] }, coeficient: 0.5 } } } ]"
    )
    #expect(typo.contains("did you mean 'coefficient'"), "\(typo)")
    let none = Self.message(
      "[ { target: \"a\", drag: { by: [[0, 9]], duration: 1, resistance: { coefficient: 0.5 } } } ]")
    #expect(none.contains("resistance needs 'bounds'"), "\(none)")
  }
}
