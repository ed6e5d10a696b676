import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Issue 26: every kind of hand-over a template can write is C¹ at the join — the value jumps by
/// at most 1e-6 of the travel and the velocity by at most 1 % of the peak speed — read through
/// the trace API (`flick trace`'s left and right limits) at 24, 30, 60 and 120 fps. Joins sit at
/// multiples of 1/6 s, a frame at every one of those rates.
@Suite struct HandOverKindTests {
  static let rates = [24, 30, 60, 120]
  /// A sixth of a second as the template text writes it.
  static let sixth = 1.0 / 6

  static func template(fps: Int, duration: Double = 4, _ timeline: String) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: \(duration) },
        layers: [ { id: "a", size: [40, 40], position: [100, 100] } ],
        timeline: \(timeline) }
      """, file: "handover-kinds.json5")
  }

  /// Checks C¹ of `property` on layer `a` at `join`: value within 1e-6 of `travel`, velocity
  /// within 1 % of the fastest speed over the frames, and motion arriving (the defect was a
  /// velocity dropped to rest or changed at the join).
  static func expectC1(
    _ template: Template, _ property: String = "positionX", at join: Double, travel: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var tracks = template.tracks
    let p = AnyLayerProperty.named(property)!
    let left = tracks.trace(p, layerID: "a", at: [join], limit: .left)[0]
    let right = tracks.trace(p, layerID: "a", at: [join], limit: .right)[0]
    let fps = Double(template.scene.fps)
    let frames = (0..<template.scene.frameCount).map { Double($0) / fps }
    let peak = tracks.trace(p, layerID: "a", at: frames).map { $0.velocity.map(abs).max() ?? 0 }.max() ?? 0
    expectGreater(peak, 1, "no motion", sourceLocation: sourceLocation)
    expectGreater(
      (left.velocity.map(abs).max() ?? 0), 0.05 * peak, "nothing moving at the join", sourceLocation: sourceLocation)
    for i in left.value.indices {
      expectLessOrEqual(
        abs(left.value[i] - right.value[i]), 1e-6 * travel, "value \(left.value) → \(right.value) at \(join) s",
        sourceLocation: sourceLocation)
      expectLessOrEqual(
        abs(left.velocity[i] - right.velocity[i]), 0.01 * peak,
        "velocity \(left.velocity) → \(right.velocity) at \(join) s (peak \(peak))", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: rates) func springToTween(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { target: "a", animate: { positionX: { to: 300, spring: { stiffness: 200, damping: 10 } } } },
        { at: \(Self.sixth), target: "a", animate: { positionX: 150 }, curve: "easeOut", duration: 0.5 } ]
      """)
    Self.expectC1(t, at: Self.sixth, travel: 200)
  }

  @Test(arguments: rates) func linearTweenRetargetedByATween(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { target: "a", animate: { positionX: 200 }, curve: "linear", duration: 1 },
        { at: 0.5, target: "a", animate: { positionX: 100 }, curve: "easeInEaseOut", duration: 0.5 } ]
      """)
    Self.expectC1(t, at: 0.5, travel: 100)
    // It starts at the linear move's 100 pt/s, not from rest.
    var tracks = t.tracks
    let v = tracks.trace(AnyLayerProperty.named("positionX")!, layerID: "a", at: [0.5])[0].velocity[0]
    expectLess(abs(v - 100), 1e-9)
  }

  @Test(arguments: rates) func tweenEndingIntoATween(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { id: "in", target: "a", animate: { positionX: 200 }, curve: "easeIn", duration: 0.5 },
        { after: "in", target: "a", animate: { positionX: 260 }, curve: "easeOut", duration: 0.5 } ]
      """)
    Self.expectC1(t, at: 0.5, travel: 160)
  }

  @Test(arguments: rates) func decayToTween(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { target: "a", animate: { positionX: { decay: { velocity: 800 } } } },
        { at: \(2 * Self.sixth), target: "a", animate: { positionX: 100 }, curve: "easeInEaseOut", duration: 0.6 } ]
      """)
    Self.expectC1(t, at: 2 * Self.sixth, travel: 300)
  }

  @Test(arguments: rates) func dragToTween(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { id: "d", target: "a", drag: { property: "positionX", by: [0, 100], duration: 1 } },
        { after: "d", target: "a", animate: { positionX: 300 }, curve: "easeOut", duration: 0.5 } ]
      """)
    Self.expectC1(t, at: 1, travel: 200)
  }

  @Test(arguments: rates) func releaseToTween(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { id: "d", target: "a", drag: { property: "positionX", by: [0, 120], duration: 0.5 } },
        { after: "d", target: "a", release: { property: "positionX", to: 300 } },
        { at: \(4 * Self.sixth), target: "a", animate: { positionX: 0 }, curve: "easeInEaseOut", duration: 0.5 } ]
      """)
    Self.expectC1(t, at: 0.5, travel: 200)
    Self.expectC1(t, at: 4 * Self.sixth, travel: 300)
  }

  @Test(arguments: rates) func glideToContinueAtItsArrival(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { animator: { duration: 1, target: "a", animate: { positionX: 300 },
          events: [ { at: 0, do: "pause" }, { at: \(Self.sixth), do: "scrub", fraction: 0.8, duration: 0.5 },
                    { at: \(Self.sixth + 0.5), do: "continue" } ] } } ]
      """)
    Self.expectC1(t, at: Self.sixth + 0.5, travel: 200)
  }

  @Test(arguments: rates) func continueDuringAGlide(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { animator: { duration: 1, target: "a", animate: { positionX: 300 },
          events: [ { at: 0, do: "pause" }, { at: \(Self.sixth), do: "scrub", fraction: 0.8, duration: 0.5 },
                    { at: 0.5, do: "continue", curve: "spring(dampingRatio: 0.8)" } ] } } ]
      """)
    Self.expectC1(t, at: 0.5, travel: 200)
  }

  @Test(arguments: rates) func repeatingGroupInterruptedByASpring(fps: Int) throws {
    let join = 7 * Self.sixth
    let t = try Self.template(
      fps: fps,
      """
      [ { group: [ { target: "a", animate: { positionX: 300 }, curve: "easeInEaseOut", duration: 0.5 } ],
          repeat: "forever", autoreverses: true },
        { at: \(join), target: "a", animate: { positionX: { to: 200, spring: { stiffness: 200, damping: 20 } } } } ]
      """)
    Self.expectC1(t, at: join, travel: 200)
    // The loop is over: the spring settles at 200 and stays there.
    var tracks = t.tracks
    expectEqual(tracks.trace(AnyLayerProperty.named("positionX")!, layerID: "a", at: [3.9])[0].value[0], 200)
  }

  @Test(arguments: rates) func repeatCountInterruptedByATween(fps: Int) throws {
    let join = 5 * Self.sixth
    let t = try Self.template(
      fps: fps,
      """
      [ { group: [ { target: "a", animate: { positionX: 300 }, curve: "linear", duration: 0.5 },
                   { target: "a", animate: { opacity: 0.5 }, duration: 0.5 } ], repeat: 3, autoreverses: true },
        { at: \(join), target: "a", animate: { positionX: 0 }, curve: "easeOut", duration: 0.5 } ]
      """)
    Self.expectC1(t, at: join, travel: 300)
    // Only the interrupted property leaves the loop: opacity keeps repeating.
    var tracks = t.tracks
    let opacity = tracks.trace(AnyLayerProperty.named("opacity")!, layerID: "a", at: [2.25, 2.75]).map { $0.value[0] }
    #expect(opacity[0] < 0.99 && opacity[1] < 0.99)
  }

  @Test(arguments: rates) func animatorToTween(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { animator: { duration: 1, curve: "linear", target: "a", animate: { positionX: 300 },
          events: [ { at: 0, do: "start" } ] } },
        { at: 0.5, target: "a", animate: { positionX: 100 }, curve: "easeInEaseOut", duration: 0.5 } ]
      """)
    Self.expectC1(t, at: 0.5, travel: 200)
  }

  @Test(arguments: rates) func linkToTween(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { target: "a", link: { positionX: { from: "time", input: [0, 2], output: [100, 300] } } },
        { at: 1, target: "a", animate: { positionX: 100 }, curve: "easeInEaseOut", duration: 0.5 } ]
      """)
    Self.expectC1(t, at: 1, travel: 200)
  }

  @Test(arguments: rates) func linkToSpring(fps: Int) throws {
    let t = try Self.template(
      fps: fps,
      """
      [ { target: "a", link: { positionX: { from: "time", input: [0, 2], output: [100, 300] } } },
        { at: 1, target: "a", animate: { positionX: { to: 100, spring: {} } } } ]
      """)
    Self.expectC1(t, at: 1, travel: 200)
  }

  /// The error of a template, or "" when it compiles.
  static func message(_ timeline: String) -> String {
    do {
      _ = try template(fps: 30, timeline)
      return ""
    } catch {
      return "\(error)"
    }
  }

  /// Defect 4: an entry listed above that genuinely starts later is still an order error, and it
  /// names that entry, not a run the repeat expanded.
  @Test func anOrderErrorBlamesTheEntryNotTheExpandedRun() {
    let m = Self.message(
      """
      [ { at: 2, target: "a", animate: { positionX: 50 }, duration: 0.2 },
        { at: 2, group: [ { target: "a", animate: { positionX: 300 }, duration: 0.5 } ], repeat: 4 },
        { at: 1, target: "a", animate: { positionX: 200 }, duration: 0.5 } ]
      """)
    #expect(m.contains("timeline[1].group[0]") || m.contains("timeline[0]"), "\(m)")
    #expect(m.contains("(2 s)"), "\(m)")
    #expect(!m.contains("3.5 s"), "\(m)")
    #expect(!m.contains("(3 s)"), "\(m)")
  }

  /// Defect 5: an event other than `continue` during a glide is refused with the times in order.
  @Test func onlyContinueMayInterruptAGlide() {
    let m = Self.message(
      """
      [ { animator: { duration: 1, target: "a", animate: { positionX: 300 },
          events: [ { at: 0, do: "pause" }, { at: 0.2, do: "scrub", fraction: 0.8, duration: 0.6 },
                    { at: 0.6, do: "reverse" } ] } } ]
      """)
    #expect(m.contains("at 0.6 s the scrub that started at 0.2 s is still moving (until 0.8 s)"), "\(m)")
    let order = Self.message(
      """
      [ { animator: { duration: 1, target: "a", animate: { positionX: 300 },
          events: [ { at: 0.5, do: "start" }, { at: 0.2, do: "pause" } ] } } ]
      """)
    #expect(order.contains("this one at 0.2 s is listed after one at 0.5 s"), "\(order)")
  }
}
