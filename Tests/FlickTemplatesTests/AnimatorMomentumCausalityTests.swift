import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// The momentum a template animator takes over from a moving property fades over the animator's
/// duration, or the time left to its end when the group was added, on its own clock (UIKit's
/// in-flight animation does not stop): a later event never changes a frame before it, and a
/// pause does not stop the momentum. The fade was cut to the end of the whole script, so a
/// `pause` 0.1 s in killed 249 pt/s within 0.05 s and an event at 0.8 s moved the frames between
/// 0.3 s and 0.4 s by up to 20 pt.
@Suite struct AnimatorMomentumCausalityTests {
  /// A spring moving `a`, taken over at 0.3 s by an animator paused 0.1 s in, then `later`.
  static func template(_ later: String, fps: Int) throws -> Template {
    let events = [#"{ at: 0, do: "start" }"#, #"{ at: 0.1, do: "pause" }"#] + (later.isEmpty ? [] : [later])
    return try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: 4 },
        layers: [ { id: "a", size: [10, 10], position: [0, 0] } ],
        timeline: [
          { at: 0, target: "a", animate: { positionX: 100 }, spring: { response: 0.8, dampingRatio: 0.5 } },
          { at: 0.3, animator: { duration: 1, curve: "easeInEaseOut", target: "a", animate: { positionX: 300 },
            events: [ \(events.joined(separator: ", ")) ] } },
        ] }
      """, file: "animator-momentum.json5")
  }

  static func x(_ t: Template, at time: Double) -> Double {
    var tracks = t.tracks
    return tracks.trace(AnyLayerProperty.named("positionX")!, layerID: "a", at: [time], limit: .right)[0].value[0]
  }

  /// Every kind of event that can follow a pause, 0.4 s after it (at 0.8 s).
  static let laterEvents = [
    "", #"{ at: 0.5, do: "start" }"#, #"{ at: 0.5, do: "stop", withoutFinishing: true }"#,
    #"{ at: 0.5, do: "stop" }"#, #"{ at: 0.5, do: "reverse" }"#, #"{ at: 0.5, do: "continue", durationFactor: 0.2 }"#,
    #"{ at: 0.5, do: "scrub", fraction: 0.8 }"#, #"{ at: 0.5, do: "scrub", fraction: 0.8, duration: 0.3 }"#,
    #"{ at: 0.5, do: "addAnimations", target: "a", animate: { positionY: 50 } }"#,
  ]

  @Test(arguments: [24, 60, 120]) func aLaterEventChangesNoFrameBeforeIt(fps: Int) throws {
    let base = try Self.template(Self.laterEvents[1], fps: fps)
    for later in Self.laterEvents {
      let template = try Self.template(later, fps: fps)
      for n in 0..<Int(0.8 * Double(fps)) {
        let t = Double(n) / Double(fps)
        expectLess(
          abs(Self.x(template, at: t) - Self.x(base, at: t)), 1e-9,
          "\(later.isEmpty ? "pause only" : later) at \(fps) fps: frame \(n)")
      }
    }
  }

  /// After the pause the taken-over momentum still moves the property: v(1 − x)(1 − 3x) with
  /// x = age / 1 s (UIKit's fade of the in-flight velocity), from 248.96 pt/s at 0.3 s.
  @Test func thePauseDoesNotStopTheMomentum() throws {
    let t = try Self.template("", fps: 60)
    var tracks = t.tracks
    let p = AnyLayerProperty.named("positionX")!
    let v0 = tracks.trace(p, layerID: "a", at: [0.3], limit: .left)[0].velocity[0]
    expectGreater(v0, 200, "the spring arrives moving")
    for age in [0.15, 0.2, 0.25] {
      let v = tracks.trace(p, layerID: "a", at: [0.3 + age], limit: .right)[0].velocity[0]
      let expected = v0 * (1 - age) * (1 - 3 * age)
      expectLess(abs(v - expected), 1e-6 * abs(v0), "\(age) s after the take-over: \(v) pt/s, \(expected) expected")
    }
  }
}
