import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Every kind of hand-over in a template keeps value and velocity continuous at the join: the
/// left limit (the motion arriving) equals the right limit (what the next motion starts with),
/// within 1e-6 of the travel, with the join on a frame at 24, 30, 60 and 120 fps. Read through
/// the template's property tracks, the same values `flick trace` prints.
@Suite struct HandOverTests {
  static let rates = [24, 30, 60, 120]

  static func template(fps: Int, _ timeline: String) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: 4 },
        layers: [
          { id: "a", size: [40, 40], position: [100, 100] },
          { id: "band", size: [40, 40], position: [100, 100] },
        ],
        timeline: \(timeline) }
      """, file: "handover.json5")
  }

  /// Left and right limits of `property` on `layer` at `t`, as component lists.
  static func limits(_ template: Template, _ layer: String, _ property: String, at t: Double)
    -> (left: TraceSample, right: TraceSample)
  {
    var tracks = template.tracks
    let p = AnyLayerProperty.named(property)!
    return (
      tracks.trace(p, layerID: layer, at: [t], limit: .left)[0],
      tracks.trace(p, layerID: layer, at: [t], limit: .right)[0]
    )
  }

  /// Checks continuity at `join`; `travel` scales the value tolerance, and the velocity's is
  /// scaled by the fastest speed sampled at the frames.
  static func expectContinuous(
    _ template: Template, _ layer: String, _ property: String, at join: Double, travel: Double,
    velocityToo: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let (l, r) = limits(template, layer, property, at: join)
    var tracks = template.tracks
    let fps = Double(template.scene.fps)
    let frames = (0..<template.scene.frameCount).map { Double($0) / fps }
    let speeds = tracks.trace(AnyLayerProperty.named(property)!, layerID: layer, at: frames)
      .map { $0.velocity.map(abs).max() ?? 0 }
    let fastest = max(speeds.max() ?? 0, 1)
    for i in l.value.indices {
      expectLessOrEqual(
        abs(l.value[i] - r.value[i]), 1e-6 * travel, "value \(l.value) → \(r.value) at \(join) s",
        sourceLocation: sourceLocation)
      if velocityToo {
        expectLessOrEqual(
          abs(l.velocity[i] - r.velocity[i]), 1e-6 * fastest, "velocity \(l.velocity) → \(r.velocity) at \(join) s",
          sourceLocation: sourceLocation)
      }
    }
    // Motion arrives: a hand-over that lost the velocity would start from rest.
    if velocityToo {
      expectGreater((l.velocity.map(abs).max() ?? 0), 1e-3, "no motion at the join", sourceLocation: sourceLocation)
    }
    // The join is a frame at this rate, and the frame shows the right limit.
    expectLess(abs(join * fps - (join * fps).rounded()), 1e-9, sourceLocation: sourceLocation)
  }

  @Test(arguments: rates) func tweenToRelease(fps: Int) throws {
    let d = Double(fps / 4) / Double(fps)  // a quarter second, on the frame grid
    let t = try Self.template(
      fps: fps,
      """
      [ { id: "tw", target: "a", animate: { positionX: 300 }, curve: "easeIn", duration: \(d) },
        { after: "tw", target: "a", release: { property: "positionX", decay: {} } } ]
      """)
    Self.expectContinuous(t, "a", "positionX", at: d, travel: 200)
    // The motion arriving is the tween's own end velocity: 200 pt · easeIn′(1) / d.
    let arriving = Self.limits(t, "a", "positionX", at: d).left.velocity[0]
    expectLessOrEqual(abs(arriving - 200 * TimingFunction.easeIn.slope(at: 1) / d), 1e-9 * arriving)
  }

  @Test(arguments: rates) func tweenOfAPointToReleaseOfOneComponent(fps: Int) throws {
    let d = Double(fps / 4) / Double(fps)
    let t = try Self.template(
      fps: fps,
      """
      [ { id: "tw", target: "a", animate: { position: [300, 200] }, curve: "easeIn", duration: \(d) },
        { after: "tw", target: "a", release: { property: "positionY", to: 100 } } ]
      """)
    Self.expectContinuous(t, "a", "positionY", at: d, travel: 100)
    Self.expectContinuous(t, "a", "position", at: d, travel: 200, velocityToo: false)
  }

  @Test(arguments: rates) func springToRetarget(fps: Int) throws {
    let join = Double(fps / 5) / Double(fps)
    let t = try Self.template(
      fps: fps,
      """
      [ { target: "a", animate: { position: { to: [300, 300], spring: { response: 0.5, dampingRatio: 0.7 } } } },
        { at: \(join), target: "a", animate: { position: { to: [50, 200], spring: { response: 0.4, dampingRatio: 0.9 } } } } ]
      """)
    Self.expectContinuous(t, "a", "position", at: join, travel: 250)
  }

  @Test(arguments: rates) func dragToRelease(fps: Int) throws {
    let d = Double(fps / 3) / Double(fps)
    let t = try Self.template(
      fps: fps,
      """
      [ { id: "d", target: "a", drag: { by: [[0, 0], [60, -10], [160, -40]], duration: \(d), curve: "easeIn" } },
        { after: "d", target: "a", release: { to: [100, 100] } },
        { id: "d2", at: 2, target: "band", drag: { by: [[0, 0], [120, 0]], duration: \(d), curve: "easeIn" } },
        { after: "d2", target: "band", release: { property: "positionX", decay: { deceleration: 0.995 } } } ]
      """)
    Self.expectContinuous(t, "a", "position", at: d, travel: 165)
    Self.expectContinuous(t, "band", "positionX", at: 2 + d, travel: 120)
    Self.expectContinuous(t, "band", "position", at: 2 + d, travel: 120)
  }

  @Test(arguments: rates) func decayIntoRubberBand(fps: Int) throws {
    let t = try Self.template(
      fps: fps, "[ { target: \"band\", animate: { positionX: { decay: { velocity: 1500, min: 0, max: 300 } } } } ]")
    var tracks = t.tracks
    // The crossing of the bound is inside one curve: sample both sides of it.
    let band = RubberBandDecay(from: 100, velocity: 1500, bounds: 0...300, deceleration: 0.998, threshold: 0.5)
    let crossing = try #require(band.crossingTime)
    let p = AnyLayerProperty.named("positionX")!
    let left = tracks.trace(p, layerID: "band", at: [crossing], limit: .left)[0]
    let right = tracks.trace(p, layerID: "band", at: [crossing], limit: .right)[0]
    expectLess(abs(left.value[0] - 300), 1e-6 * 200)
    expectLessOrEqual(abs(left.value[0] - right.value[0]), 1e-6 * 200)
    expectLessOrEqual(abs(left.velocity[0] - right.velocity[0]), 1e-6 * 1500)
    expectGreater(left.velocity[0], 1)
  }

  /// Pause, continue (with a new spring), reverse, a gliding scrub and continue again: the value
  /// never jumps, and every `continue` takes over the velocity on screen (UIKit's rule).
  @Test(arguments: rates) func animatorEventsKeepTheMotion(fps: Int) throws {
    let f = { (n: Int) in Double(n * fps / 10) / Double(fps) }  // tenths of a second on the grid
    for curve in ["easeInEaseOut", "spring(dampingRatio: 0.4)", "linear"] {
      let t = try Self.template(
        fps: fps,
        """
        [ { animator: { duration: 1, curve: "\(curve)", target: "a", animate: { positionX: 300 },
            events: [ { at: 0, do: "start" }, { at: \(f(3)), do: "pause" },
                      { at: \(f(5)), do: "continue", curve: "spring(dampingRatio: 0.25)" },
                      { at: \(f(7)), do: "reverse" }, { at: \(f(8)), do: "continue", curve: "\(curve)" },
                      { at: \(f(9)), do: "pause" }, { at: \(f(10)), do: "scrub", fraction: 0.6, duration: \(f(2)) },
                      { at: \(f(13)), do: "continue", curve: "linear" } ] } } ]
        """)
      for n in [3, 7, 9, 10, 12] {
        Self.expectContinuous(t, "a", "positionX", at: f(n), travel: 200, velocityToo: false)
      }
      for n in [5, 8, 13] {
        let (l, r) = Self.limits(t, "a", "positionX", at: f(n))
        expectLessOrEqual(abs(l.value[0] - r.value[0]), 1e-6 * 200, "\(curve): value at \(f(n)) s")
        expectLessOrEqual(
          abs(l.velocity[0] - r.velocity[0]), 1e-6 * 2000,
          "\(curve): velocity \(l.velocity) → \(r.velocity) at \(f(n)) s")
      }
    }
  }
}
