import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// A property animator's natural end hands over the value and velocity the motion arrives with
/// (it handed over its ended state: velocity 0, and a spring curve's snapped value): for cubic
/// and spring curves, forwards, reversed, paused and resumed or continued, into a spring, a
/// tween and a decay placed at or after the end. The left limit read through the trace API
/// equals the numeric limit (the motion just before the end, extrapolated), the next motion
/// starts there, and a cubic animator hands over what the same plain tween does.
@Suite struct AnimatorEndHandOverTests {
  static let curves = [
    "linear", "easeIn", "easeInEaseOut", "cubicBezier(0.3, 0.1, 0.6, 0.8)", "spring(dampingRatio: 0.3)",
  ]
  /// (events, when the animator ends, the value it heads for).
  static let scripts: [(events: String, end: Double, target: Double)] = [
    ("[ { at: 0, do: \"start\" } ]", 1, 100),
    ("[ { at: 0, do: \"start\" }, { at: 0.5, do: \"reverse\" } ]", 1, 0),
    ("[ { at: 0, do: \"start\" }, { at: 0.3, do: \"pause\" }, { at: 0.5, do: \"start\" } ]", 1.2, 100),
    (
      "[ { at: 0, do: \"start\" }, { at: 0.3, do: \"pause\" }, { at: 0.5, do: \"continue\", durationFactor: 0.5 } ]", 1,
      100
    ),
  ]
  static let next = [
    "spring: { response: 0.5, dampingRatio: 0.8 }, animate: { positionX: 40 }",
    "animate: { positionX: 40 }, curve: \"easeOut\", duration: 0.5",
    "release: { property: \"positionX\", decay: {} }",
  ]

  static func template(_ timeline: String) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: 60, duration: 4 },
        layers: [ { id: "a", size: [10, 10], position: [0, 0] } ],
        timeline: \(timeline) }
      """, file: "animator-end.json5")
  }

  static func read(_ t: Template, _ time: Double, _ limit: TrackLimit = .right) -> (x: Double, v: Double) {
    var tracks = t.tracks
    let s = tracks.trace(AnyLayerProperty.named("positionX")!, layerID: "a", at: [time], limit: limit)[0]
    return (s.value[0], s.velocity[0])
  }

  /// The motion's limit at `end` from below: the value and velocity 1e-6 s before, extrapolated.
  static func numericLimit(_ t: Template, at end: Double) -> (x: Double, v: Double) {
    let h = 1e-6
    let a = read(t, end - h)
    let b = read(t, end - 2 * h)
    // The velocity from the analytic reads, checked against the finite difference.
    let mid = (a.v + b.v) / 2
    expectLess(abs((a.x - b.x) / h - mid), 1e-3 * max(1, abs(mid)), "finite difference \((a.x - b.x) / h) vs \(mid)")
    return (a.x + h * a.v, a.v + (a.v - b.v))
  }

  @Test(arguments: curves) func theEndHandsOverTheArrivingMotion(curve: String) throws {
    for script in Self.scripts {
      for (k, next) in Self.next.enumerated() {
        // Placed `after` the animator, and at the end's time written in decimals.
        for placement in ["after: \"an\"", "at: \(script.end)"] {
          let t = try Self.template(
            """
            [ { id: "an", at: 0, animator: { duration: 1, curve: "\(curve)", target: "a", animate: { positionX: 100 },
                events: \(script.events) } },
              { \(placement), target: "a", \(next) } ]
            """)
          let label = "\(curve), \(script.events), next \(k), \(placement)"
          let limit = Self.numericLimit(t, at: script.end)
          let left = Self.read(t, script.end, .left)
          let right = Self.read(t, script.end)
          if curve == "linear" {
            // 100 u/s forwards and back; 140 after the continue (0.7 of the way in 0.5 s).
            expectLess(abs(abs(limit.v) - (script.events.contains("continue") ? 140 : 100)), 1e-6, "\(label)")
          }
          expectLess(abs(left.x - limit.x), 1e-6 * 100, "\(label): left value \(left.x) vs the limit \(limit.x)")
          expectLess(
            abs(left.v - limit.v), 1e-3 * max(1, abs(limit.v)), "\(label): left velocity \(left.v) vs \(limit.v)")
          // The next motion starts there, moving (a decay glides on from the arriving speed).
          expectLess(abs(right.x - left.x), 1e-6 * 100, "\(label): the next motion starts at \(right.x)")
          // A spring takes any velocity; a tween or decay only above the threshold (½ pt/s; a
          // decay stops below 5× that), from rest they start with their own.
          if k == 0 || abs(left.v) > 2.5 {
            expectLess(abs(right.v - left.v), 1e-4 * max(1, abs(left.v)), "\(label): it starts at \(right.v) u/s")
          }
          if k == 2 && abs(left.v) > 1 {
            let later = Self.read(t, script.end + 0.5).x
            expectGreater(abs(later - left.x), 1, "\(label): the decay glides on (\(later))")
          }
        }
      }
    }
  }

  /// A cubic animator started at 0 hands over exactly what the same plain tween does (easeIn:
  /// 172.41 u/s, and a decay after it reaches 154.47 by 1.5 s).
  @Test(arguments: ["linear", "easeIn", "easeInEaseOut", "cubicBezier(0.3, 0.1, 0.6, 0.8)"])
  func aCubicAnimatorHandsOverAsTheSameTween(curve: String) throws {
    let animator = try Self.template(
      """
      [ { id: "an", at: 0, animator: { duration: 1, curve: "\(curve)", target: "a", animate: { positionX: 100 },
          events: [ { at: 0, do: "start" } ] } },
        { after: "an", target: "a", release: { property: "positionX", decay: {} } } ]
      """)
    let tween = try Self.template(
      """
      [ { id: "an", at: 0, target: "a", animate: { positionX: 100 }, curve: "\(curve)", duration: 1 },
        { after: "an", target: "a", release: { property: "positionX", decay: {} } } ]
      """)
    for time in [1.0, 1.1, 1.5] {
      for limit in [TrackLimit.left, .right] {
        let a = Self.read(animator, time, limit)
        let b = Self.read(tween, time, limit)
        expectLess(abs(a.x - b.x), 1e-6 * 100, "\(curve) at \(time) (\(limit)): \(a.x) vs the tween's \(b.x)")
        expectLess(abs(a.v - b.v), 1e-6 * max(1, abs(b.v)), "\(curve) at \(time) (\(limit)): \(a.v) vs \(b.v)")
      }
    }
  }
}
