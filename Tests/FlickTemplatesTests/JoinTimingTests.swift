import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Joins whose new animation has timing of its own (`speed`, a curve's `delay`, a group's
/// repeat) or that sit at a boundary written in decimal seconds: the value and the velocity the
/// property arrives with carry over exactly, read as `flick trace` does (left and right limits).
@Suite struct JoinTimingTests {
  static func template(_ timeline: String, duration: Double = 6) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 200, fps: 60, duration: \(duration) },
        layers: [ { id: "a", size: [20, 20], position: [0, 100] } ],
        timeline: \(timeline) }
      """, file: "join-timing.json5")
  }

  /// The left and right limits of a scalar `property` of layer `a` at `t`.
  static func limits(_ template: Template, _ property: String = "positionX", at t: Double) -> (
    left: (value: Double, velocity: Double), right: (value: Double, velocity: Double)
  ) {
    var tracks = template.tracks
    let p = AnyLayerProperty.named(property)!
    let left = tracks.trace(p, layerID: "a", at: [t], limit: .left)[0]
    let right = tracks.trace(p, layerID: "a", at: [t], limit: .right)[0]
    return ((left.value[0], left.velocity[0]), (right.value[0], right.velocity[0]))
  }

  /// Expects value and velocity continuous at `t` and the arriving velocity `arriving` u/s.
  static func expectJoin(
    _ template: Template, _ property: String = "positionX", at t: Double, arriving: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let (left, right) = limits(template, property, at: t)
    expectLess(abs(left.velocity - arriving), 1e-6, "arriving \(left.velocity) u/s", sourceLocation: sourceLocation)
    expectLess(
      abs(right.value - left.value), 1e-9, "value \(left.value) → \(right.value)", sourceLocation: sourceLocation)
    expectLess(
      abs(right.velocity - left.velocity), 1e-6, "velocity \(left.velocity) → \(right.velocity)",
      sourceLocation: sourceLocation)
  }

  /// A linear tween 0 → 100 over 1 s (100 u/s), then at 0.5 s the new animation `next`.
  static let linear = #"{ at: 0, target: "a", animate: { positionX: { to: 100, curve: "linear", duration: 1 } } }"#

  /// The new animation's `speed` scales its own time, not the velocity it takes over.
  @Test(arguments: [
    #"{ at: 0.5, target: "a", animate: { positionX: { to: 0, spring: {} } }, speed: 2 }"#,
    #"{ at: 0.5, target: "a", animate: { positionX: { to: 0, curve: "easeInEaseOut", duration: 1 } }, speed: 3 }"#,
    #"{ at: 0.5, target: "a", animate: { positionX: { decay: {} } }, speed: 0.5 }"#,
    #"{ at: 0.5, target: "a", animate: { positionX: { decay: { min: 0, max: 80 } } }, speed: 0.5 }"#,
    #"{ at: 0.5, target: "a", animate: { positionX: { to: 0, spring: {}, speed: 4 } } }"#,
    #"{ at: 0.5, speed: 2, group: [ { target: "a", animate: { positionX: { to: 0, spring: {} } } } ] }"#,
    #"{ at: 0.5, speed: 2, group: [ { target: "a", animate: { positionX: { to: 0, duration: 1 } } } ] }"#,
  ])
  func speedKeepsTheHandedOverVelocity(next: String) throws {
    Self.expectJoin(try Self.template("[ \(Self.linear), \(next) ]"), at: 0.5, arriving: 100)
  }

  /// Between the runs of a repeated group at half speed: run 1 arrives with 2 u/s, run 2 leaves with it.
  @Test func slowRepeatedGroupKeepsItsVelocityBetweenRuns() throws {
    let t = try Self.template(
      """
      [ { at: 0, repeat: 2, speed: 0.5, group: [
          { target: "a", animate: { borderWidth: { to: 4, duration: 1, curve: "linear" } } } ] } ]
      """)
    Self.expectJoin(t, "borderWidth", at: 2, arriving: 2)
  }
}
