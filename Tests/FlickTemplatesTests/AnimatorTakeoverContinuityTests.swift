import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Where a property animator takes over motion it is C¹: a `continue` that cuts a scrub's glide
/// starts from the glide's state on screen with its velocity, for every group (one added with a
/// `delayFactor` follows the time fraction, the others the progress); and an animator started
/// over a property that is still moving keeps that momentum (UIKit's additive animations) instead
/// of starting it at rest: C¹ with a timing that starts at rest, the linear one's own start
/// velocity added on top. Read through the trace API at the join, at 24, 60 and 120 fps.
@Suite struct AnimatorTakeoverContinuityTests {
  static func template(fps: Int = 60, _ timeline: String) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: 4 },
        layers: [ { id: "a", size: [10, 10], position: [0, 0] }, { id: "b", size: [10, 10], position: [0, 0] } ],
        timeline: \(timeline) }
      """, file: "animator-takeover.json5")
  }

  static func read(_ t: Template, _ layer: String, _ time: Double, _ limit: TrackLimit) -> (x: Double, v: Double) {
    var tracks = t.tracks
    let s = tracks.trace(AnyLayerProperty.named("positionX")!, layerID: layer, at: [time], limit: limit)[0]
    return (s.value[0], s.velocity[0])
  }

  /// Value and velocity continuous at `time` on `layer` (travel 100): the value within 1e-6 of
  /// it, the velocity within 1e-6 relative, and something moving there.
  static func expectC1(
    _ t: Template, _ layer: String, at time: Double, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let left = read(t, layer, time, .left)
    let right = read(t, layer, time, .right)
    expectGreater(abs(left.v), 1, "\(label), \(layer): moving at the join", sourceLocation: sourceLocation)
    expectLess(
      abs(left.x - right.x), 1e-6 * 100, "\(label), \(layer): value \(left.x) → \(right.x)",
      sourceLocation: sourceLocation)
    expectLess(
      abs(left.v - right.v), 1e-6 * max(1, abs(left.v)), "\(label), \(layer): velocity \(left.v) → \(right.v)",
      sourceLocation: sourceLocation)
  }

  /// Finding 2: paused mid-run (fraction 0.3, progress on screen 0.19 with easeInEaseOut), a
  /// glide toward 0.8 cut halfway by `continue` (the value jumped 5.63 pt; the delayed group's
  /// velocity fell from 125 to 37.5 u/s).
  @Test(arguments: ["linear", "easeIn", "easeInEaseOut", "spring(dampingRatio: 0.5)"], [true, false])
  func aContinueCuttingAGlideTakesItOver(curve: String, linearly: Bool) throws {
    for fps in [24, 60, 120] {
      for next in ["", ", curve: \"easeOut\", durationFactor: 0.5", ", curve: \"spring(dampingRatio: 0.8)\""] {
        let t = try Self.template(
          fps: fps,
          """
          [ { at: 0, animator: { duration: 1, curve: "\(curve)", scrubsLinearly: \(linearly),
              animations: [ { target: "a", animate: { positionX: 100 } },
                            { target: "b", animate: { positionX: 100 }, delayFactor: 0.2 } ],
              events: [ { at: 0, do: "start" }, { at: 0.3, do: "pause" },
                        { at: 0.4, do: "scrub", fraction: 0.8, duration: 0.4, curve: "easeInEaseOut" },
                        { at: 0.6, do: "continue"\(next) } ] } } ]
          """)
        let label = "\(curve), scrubsLinearly \(linearly), \(fps) fps, continue\(next)"
        Self.expectC1(t, "a", at: 0.6, label)
        Self.expectC1(t, "b", at: 0.6, label)
        // The glide itself starts where the pause left everything, and still arrives at the end.
        for layer in ["a", "b"] {
          let start = Self.read(t, layer, 0.4, .left).x
          expectLess(abs(Self.read(t, layer, 0.4, .right).x - start), 1e-9, "\(label), \(layer) at 0.4")
          expectLess(abs(Self.read(t, layer, 3, .right).x - 100), 1e-9, "\(label), \(layer) at the end")
        }
      }
    }
  }

  /// Finding 4: an animator started over a property a tween, a spring, a decay or another
  /// animator is still moving keeps its velocity (it started at rest: 100 → 0 u/s), then reaches
  /// its target as before; a linear animator adds its own start velocity, as from rest.
  @Test(arguments: [
    "{ at: 0, target: \"a\", animate: { positionX: 100 }, curve: \"linear\", duration: 1 }",
    "{ at: 0, target: \"a\", animate: { positionX: 100 }, spring: { response: 0.8, dampingRatio: 0.7 } }",
    "{ at: 0, target: \"a\", animate: { positionX: { decay: { velocity: 300 } } } }",
    "{ at: 0, animator: { duration: 1, curve: \"easeIn\", target: \"a\", animate: { positionX: 100 }, events: [ { at: 0, do: \"start\" } ] } }",
  ])
  func anAnimatorOverAMovingPropertyKeepsItsMomentum(under: String) throws {
    for curve in ["easeInEaseOut", "linear", "spring(dampingRatio: 0.6)"] {
      for fps in [24, 60, 120] {
        let t = try Self.template(
          fps: fps,
          """
          [ \(under),
            { at: 0.5, animator: { duration: 1, curve: "\(curve)", target: "a", animate: { positionX: 200 },
                events: [ { at: 0, do: "start" } ] } } ]
          """)
        let label = "\(curve) over \(under) at \(fps) fps"
        if curve == "linear" {
          // UIKit's sum: the momentum plus the linear curve's own start velocity, (200 − x)/1 s.
          let left = Self.read(t, "a", 0.5, .left)
          let right = Self.read(t, "a", 0.5, .right)
          expectGreater(abs(left.v), 1, "\(label): moving at the join")
          expectLess(abs(right.x - left.x), 1e-6 * 100, "\(label): value \(left.x) → \(right.x)")
          expectLess(abs(right.v - (left.v + 200 - left.x)), 1e-6 * 200, "\(label): velocity \(left.v) → \(right.v)")
        } else {
          Self.expectC1(t, "a", at: 0.5, label)
        }
        expectLess(abs(Self.read(t, "a", 1.5, .right).x - 200), 1e-9, "\(label): ends at its target")
      }
    }
  }

  /// An `addAnimations` event over a moving property keeps its momentum the same way.
  @Test func addAnimationsOverAMovingPropertyKeepsItsMomentum() throws {
    let t = try Self.template(
      """
      [ { at: 0, target: "b", animate: { positionX: 100 }, curve: "linear", duration: 1 },
        { at: 0, animator: { duration: 1, target: "a", animate: { positionX: 100 },
            events: [ { at: 0, do: "start" }, { at: 0.5, do: "addAnimations", target: "b", animate: { positionX: 300 } } ] } } ]
      """)
    Self.expectC1(t, "b", at: 0.5, "addAnimations")
    expectLess(abs(Self.read(t, "b", 1, .right).x - 300), 1e-9)
  }
}
