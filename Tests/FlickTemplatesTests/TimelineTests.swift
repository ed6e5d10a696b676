import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Foundation
import Testing

/// The timeline: placement (at/after/with/delay, groups, sequences, stagger), every motion,
/// timing, velocity hand-off, gestures and property animators.
@Suite struct TimelineTests {
  /// A template with layers `a`, `b`, `c` (plain, 100×100 at (100, 100)) and `ring` (a shape).
  static func scene(_ timeline: String, extra: String = "") throws -> Scene {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, duration: "auto" }, \(extra)
        layers: [
          { id: "a", size: [100, 100], position: [100, 100] },
          { id: "b", size: [100, 100], position: [100, 100] },
          { id: "c", size: [100, 100], position: [100, 100] },
          { id: "ring", path: "M 0 0 L 10 0", strokeColor: "#000000" },
        ],
        timeline: \(timeline) }
      """, file: "t.json5"
    ).scene
  }

  static func x(_ s: Scene, _ id: String, _ t: Double) -> Double {
    s.renderTree(at: t).layer(id: id)?.position.x ?? .nan
  }
  static func opacity(_ s: Scene, _ id: String, _ t: Double) -> Double {
    s.renderTree(at: t).layer(id: id)?.opacity ?? .nan
  }

  static func message(_ timeline: String) -> String {
    do {
      _ = try scene(timeline)
      return ""
    } catch {
      return "\(error)"
    }
  }

  static func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

  /// The length of a `duration: "auto"` scene that settles at `settle` s: to the end of the first
  /// frame at or after it, its last frame (docs/templates.md, canvas).
  static func autoEnd(_ settle: Double, fps: Double = 60) -> Double {
    ((settle * fps - 1e-9).rounded(.up) + 1) / fps
  }

  // MARK: - Placement

  @Test func atAfterWithDelayAndDuration() throws {
    let s = try Self.scene(
      """
      [
        { id: "one", at: 0.5, target: "a", animate: { positionX: 300 }, curve: "linear", duration: 1 },
        { id: "two", after: "one", delay: 0.25, target: "b", animate: { positionX: 300 }, curve: "linear", duration: 1 },
        { with: "two", delay: 0.5, target: "c", animate: { positionX: 300 }, curve: "linear", duration: 1 },
      ]
      """)
    expectEqual(Self.x(s, "a", 0.4), 100)
    #expect(Self.near(Self.x(s, "a", 1.0), 200))
    expectEqual(Self.x(s, "b", 1.7), 100)  // starts at 1.75
    #expect(Self.near(Self.x(s, "b", 2.25), 200))
    #expect(Self.near(Self.x(s, "c", 2.75), 200))  // starts at 2.25
    #expect(Self.near(s.duration, Self.autoEnd(3.25)))
  }

  @Test func groupsSequencesDelaysAndStagger() throws {
    let s = try Self.scene(
      """
      [
        { id: "seq", at: 1, sequence: [
          [ { target: "a", animate: { positionX: 200 }, curve: "linear", duration: 1 },
            { target: "b", animate: { opacity: 0 }, curve: "linear", duration: 0.5 } ],
          { delay: 0.5 },
          { target: "c", animate: { positionX: 300 }, curve: "linear", duration: 1 },
        ] },
        { after: "seq", stagger: 0.25, targets: ["a", "b", "c"], animate: { positionY: 300 }, curve: "linear", duration: 1 },
        { at: 0, group: [ { at: 0.5, target: "ring", animate: { strokeEnd: 0.5 }, curve: "linear", duration: 1 } ] },
      ]
      """)
    #expect(Self.near(Self.x(s, "a", 1.5), 150))
    #expect(Self.near(Self.opacity(s, "b", 1.25), 0.5))
    expectEqual(Self.x(s, "c", 2.4), 100)  // the step after the delay starts at 1 + 1 + 0.5
    #expect(Self.near(Self.x(s, "c", 3.0), 200))
    // The staggered step starts when the sequence ends (3.5): a at 3.5, b at 3.75, c at 4.
    let y = { (id: String, t: Double) in s.renderTree(at: t).layer(id: id)?.position.y ?? .nan }
    #expect(Self.near(y("a", 4.0), 200))
    #expect(Self.near(y("b", 4.25), 200))
    #expect(Self.near(y("c", 4.5), 200))
    #expect(Self.near(s.duration, Self.autoEnd(5)))
    // In a group, 'at' is relative to the group's start.
    expectEqual(s.renderTree(at: 0.4).layer(id: "ring")?.shape?.strokeEnd, 1)
    #expect(Self.near(s.renderTree(at: 1).layer(id: "ring")?.shape?.strokeEnd ?? .nan, 0.75))
  }

  @Test func placementErrors() {
    #expect(
      Self.message("[{ after: 'nope', target: 'a', animate: { opacity: 0 } }]").hasPrefix(
        "t.json5:8:23: timeline[0].after: no earlier timeline entry with id 'nope'"))
    #expect(
      Self.message(
        "[{ id: 'x', target: 'a', animate: { opacity: 0 } }, { after: 'a', target: 'b', animate: { opacity: 0 } }]"
      )
      .contains("'a' is a layer: 'after' and 'with' name timeline entries"))
    #expect(
      Self.message("[{ at: 1, with: 'x', target: 'a', animate: { opacity: 0 } }]")
        .contains("give one of 'at', 'after' and 'with'"))
    #expect(
      Self.message("[{ sequence: [{ at: 1, target: 'a', animate: { opacity: 0 } }] }]")
        .contains("a step of a sequence starts when the previous step ends"))
    #expect(Self.message("[{ target: 'a', animate: { opacity: 0 }, group: [] }]").contains("an entry does one thing"))
    #expect(Self.message("[{ target: 'a' }]").contains("a timeline entry needs one of: animate, set"))
    #expect(Self.message("[{ delay: 1 }]").contains("is a step of a 'sequence'"))
    #expect(Self.message("[{ target: 'a', animate: { opactiy: 0 } }]").contains("did you mean 'opacity'?"))
    #expect(
      Self.message("[{ target: 'a', animate: { strokeEnd: 0 } }]")
        .contains("'strokeEnd' is a property of shape layers, but 'a' is not a shape layer"))
    #expect(
      Self.message(
        "[{ at: 1, target: 'a', animate: { opacity: 0 } }, { at: 0.5, target: 'a', animate: { opacity: 1 } }]"
      )
      .contains("list the animations of one property in time order"))
    // Names that write the same state are one property: positionX listed after a later position.
    #expect(
      Self.message(
        "[{ at: 2, target: 'a', animate: { position: [300, 100] } }, { at: 1, target: 'a', animate: { positionX: 50 } }]"
      )
      .contains("(position writes positionX too); list the animations of one property in time order"))
    #expect(
      (try? Self.scene(
        "[{ at: 1, target: 'a', animate: { positionX: 50 } }, { at: 2, target: 'a', animate: { position: [300, 100] } }]"
      )) != nil)
    #expect(
      Self.message(
        "[{ id: 'spin', target: 'a', animate: { rotation: { by: 6.28, curve: 'linear', duration: 1, repeatForever: true } } }, { after: 'spin', target: 'b', animate: { opacity: 0 } }]"
      )
      .contains("never ends"))
    #expect(
      Self.message("[{ target: 'a', animate: { opacity: { to: 0, spring: { bounciness: 4 }, duration: 1 } } }]")
        .contains("a spring's length comes from its parameters"))
    #expect(
      Self.message("[{ target: 'a', animate: { opacity: 0 }, curve: 'spring(bounciness: 30)' }]")
        .hasPrefix("t.json5:8:81: timeline[0].curve: invalid animation spec \"spring(bounciness: 30)\": "))
  }

  // MARK: - Motions

  @Test(arguments: [
    ("spring(stiffness: 200, damping: 12, mass: 1.5)", SpringParameters(mass: 1.5, stiffness: 200, damping: 12)),
    ("spring(tension: 342.1, friction: 30.49)", SpringParameters.pop(tension: 342.1, friction: 30.49)),
    ("spring(bounciness: 12, speed: 8)", SpringParameters.pop(bounciness: 12, speed: 8)),
    ("spring(response: 0.4, dampingRatio: 0.6)", SpringParameters(response: 0.4, dampingRatio: 0.6)),
    ("spring(duration: 0.6, bounce: 0.3)", SpringParameters(duration: 0.6, bounce: 0.3)),
  ])
  func everySpringParameterisationMatchesFlickMotion(spec: String, parameters: SpringParameters) throws {
    let s = try Self.scene("[{ at: 0.5, target: 'a', animate: { positionX: 300 }, curve: '\(spec)' }]")
    let reference = SpringAnimation(from: 100.0, to: 300, parameters: parameters, restThreshold: 0.5)
    for t in [0.05, 0.2, 0.37, 0.8] {
      #expect(Self.near(Self.x(s, "a", 0.5 + t), reference.value(at: t), 1e-9), "\(spec) at \(t)")
    }
    #expect(Self.near(s.duration, Self.autoEnd(0.5 + reference.duration)))
    // The object form is the same spring.
    let objectForm = spec.replacingOccurrences(of: "spring(", with: "{ ").replacingOccurrences(of: ")", with: " }")
    let o = try Self.scene("[{ at: 0.5, target: 'a', animate: { positionX: { to: 300, spring: \(objectForm) } } }]")
    #expect(Self.near(Self.x(o, "a", 0.8), reference.value(at: 0.3), 1e-9))
  }

  @Test(arguments: [
    "linear", "easeIn", "easeOut", "easeInEaseOut", "default", "backOut", "bounceOut", "elasticOut", "steps(4)",
    "cubicBezier(0.2, 0, 0, 1)",
  ])
  func tweensFollowTheirCurve(curve: String) throws {
    let s = try Self.scene("[{ target: 'a', animate: { positionX: 300 }, curve: '\(curve)', duration: 2 }]")
    let spec = try AnimationSpec(parsing: curve)
    guard case .tween(let f, _) = spec.kind else {
      Issue.record("not a tween")
      return
    }
    for t in [0.3, 1.0, 1.7] {
      #expect(Self.near(Self.x(s, "a", t), 100 + 200 * f.progress(at: t / 2), 1e-9), "\(curve) at \(t)")
    }
    expectEqual(Self.x(s, "a", 2.5), 300)
  }

  @Test func bezierArraysKeyframesRepeatAndAutoreverse() throws {
    let s = try Self.scene(
      """
      [
        { target: "a", animate: { positionX: 300 }, curve: [0.25, 0.1, 0.25, 1], duration: 1 },
        { target: "b", animate: { positionX: { keyframes: { values: [100, 400, 200], keyTimes: [0, 0.25, 1] }, duration: 1 } } },
        { target: "c", animate: { opacity: { to: 0, curve: "linear", duration: 1, repeatCount: 2, autoreverses: true } } },
      ]
      """)
    #expect(Self.near(Self.x(s, "a", 0.5), 100 + 200 * TimingFunction.default.progress(at: 0.5)))
    #expect(Self.near(Self.x(s, "b", 0.25), 400))
    #expect(Self.near(Self.x(s, "b", 0.625), 300))
    #expect(Self.near(Self.opacity(s, "c", 0.5), 0.5))
    #expect(Self.near(Self.opacity(s, "c", 1.25), 0.25))
    #expect(Self.near(Self.opacity(s, "c", 2.5), 0.5))
    #expect(Self.near(s.duration, Self.autoEnd(4)))  // two there-and-back iterations
  }

  /// Core Animation's fill modes: Flick holds the end value by default (`forwards`); `removed`
  /// lets the layer return to its own value at the end, and a delay without a backwards fill
  /// leaves the layer's value on screen until the animation starts.
  @Test func fillModesDecideWhatShowsOutsideTheAnimation() throws {
    let s = try Self.scene(
      """
      [
        { target: "a", animate: { opacity: { from: 0.5, to: 0, curve: "linear", duration: 1, delay: 1 } } },
        { target: "b", animate: { opacity: { from: 0.5, to: 0, curve: "linear", duration: 1, delay: 1, fill: "removed" } } },
        { target: "c", animate: { opacity: { from: 0.5, to: 0, curve: "linear(duration: 1, delay: 1, fill: both)" } } },
      ]
      """)
    // Before the delay: only the backwards fill (c) shows the start value.
    expectEqual(Self.opacity(s, "a", 0.5), 1)
    expectEqual(Self.opacity(s, "b", 0.5), 1)
    expectEqual(Self.opacity(s, "c", 0.5), 0.5)
    #expect(Self.near(Self.opacity(s, "a", 1.5), 0.25))
    #expect(Self.near(Self.opacity(s, "b", 1.5), 0.25))
    // After the end: forwards (a, the default) and both (c) hold; removed (b) returns to 1.
    expectEqual(Self.opacity(s, "a", 2.5), 0)
    expectEqual(Self.opacity(s, "b", 2.5), 1)
    expectEqual(Self.opacity(s, "c", 2.5), 0)
  }

  @Test func trackingAnimatesOnTextLayers() throws {
    let s = try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 100, duration: 1 },
        layers: [{ id: "label", type: "text", string: "Hi", size: [100, 30] }],
        timeline: [{ target: "label", animate: { tracking: 10 }, curve: "linear", duration: 1 }] }
      """, file: "t.json5"
    ).scene
    let mid = s.renderTree(at: 0.5).layer(id: "label")?.text?.tracking
    expectEqual(mid.map { Self.near($0, 5) }, true)
  }

  @Test func setChangesAtOnce() throws {
    let s = try Self.scene(
      "[{ at: 1, targets: ['a', 'b'], stagger: 0.5, set: { opacity: 0.25, backgroundColor: '#FF0000' } }]")
    expectEqual(Self.opacity(s, "a", 0.99), 1)
    expectEqual(Self.opacity(s, "a", 1), 0.25)
    expectEqual(Self.opacity(s, "b", 1.49), 1)
    expectEqual(Self.opacity(s, "b", 1.5), 0.25)
    expectEqual(s.renderTree(at: 2).layer(id: "b")?.backgroundColor, Color(hex: "#FF0000"))
  }

  @Test func rotationAcceptsDegrees() throws {
    let s = try Self.scene("[{ target: 'a', animate: { rotation: '90deg' }, curve: 'linear', duration: 1 }]")
    #expect(Self.near(s.renderTree(at: 1).layer(id: "a")?.transform.rotation ?? .nan, .pi / 2))
  }

  // MARK: - Velocity hand-off

  @Test func aRetargetedSpringKeepsItsVelocity() throws {
    let s = try Self.scene(
      """
      [ { target: "a", animate: { positionX: 300 }, curve: "spring(bounciness: 4, speed: 12)" },
        { at: 0.1, target: "a", animate: { positionX: 50 }, curve: "spring(bounciness: 4, speed: 12)" } ]
      """)
    let h = 1e-6
    let before = (Self.x(s, "a", 0.1 - h) - Self.x(s, "a", 0.1 - 2 * h)) / h
    let after = (Self.x(s, "a", 0.1 + 2 * h) - Self.x(s, "a", 0.1 + h)) / h
    expectGreater(before, 500)  // moving right fast
    expectLess(abs(after - before) / before, 0.001, "velocity \(before) → \(after)")
    #expect(
      Self.near(
        Self.x(s, "a", 0.1),
        SpringAnimation(from: 100.0, to: 300, parameters: .popDefault, restThreshold: 0.5).value(at: 0.1), 1e-6))
  }

  @Test func dragThenReleaseIntoASpringAndIntoADecay() throws {
    let s = try Self.scene(
      """
      [ { id: "drag", at: 0.5, target: "a", drag: { path: [[100, 100], [200, 120], [300, 100]], duration: 0.5 } },
        { after: "drag", target: "a", release: { to: [200, 200], spring: { bounciness: 10, speed: 10 } } },
        { id: "flick", at: 0.5, target: "b", drag: { by: [[0, 0], [150, 0]], duration: 0.25, curve: "easeIn" } },
        { after: "flick", target: "b", release: { property: "positionX", decay: { deceleration: 0.995, min: 0, max: 400 } } } ]
      """)
    // The finger passes through its points.
    #expect(Self.near(s.renderTree(at: 1.0).layer(id: "a")?.position.x ?? .nan, 300, 1e-9))
    #expect(Self.near(Self.x(s, "a", 0.75), 200, 1e-6))
    // Position is continuous at the release, and so is velocity.
    let h = 1e-4
    let vBefore = (Self.x(s, "a", 1.0) - Self.x(s, "a", 1.0 - h)) / h
    let vAfter = (Self.x(s, "a", 1.0 + h) - Self.x(s, "a", 1.0)) / h
    expectGreater(vBefore, 100)
    expectLess(abs(vAfter - vBefore) / vBefore, 0.01, "velocity \(vBefore) → \(vAfter)")
    // The thrown layer keeps going after release, slows down, and is pulled back inside 0…400.
    let vb = (Self.x(s, "b", 0.75 + h) - Self.x(s, "b", 0.75)) / h
    expectGreater(vb, 1000)
    let end = s.renderTree(at: s.duration).layer(id: "b")?.position.x ?? .nan
    expectLessOrEqual(end, 400)
    expectGreater(end, 250)
    var maximum = 0.0
    for i in 0...400 { maximum = max(maximum, Self.x(s, "b", 0.75 + Double(i) * 0.01)) }
    expectGreater(maximum, 400)  // the rubber band overshoots the edge before returning
  }

  // MARK: - Property animator

  @Test func propertyAnimatorEvents() throws {
    let s = try Self.scene(
      """
      [ { id: "anim", at: 1, animator: {
          duration: 2, curve: "linear", target: "a", animate: { positionX: 300 },
          events: [
            { at: 0, do: "start" },
            { at: 0.5, do: "pause" },
            { at: 1, do: "scrub", fraction: 0.75, duration: 0.5 },
            { at: 2, do: "continue", durationFactor: 0.5 },
            { at: 2.2, do: "reverse" },
            { at: 2.5, do: "stop" },
            { at: 3, do: "finish", position: "end" },
          ] } } ]
      """)
    expectEqual(Self.x(s, "a", 0.9), 100)  // before the first event: untouched
    #expect(Self.near(Self.x(s, "a", 1.25), 125))  // running: fraction 0.125
    #expect(Self.near(Self.x(s, "a", 1.9), 150))  // paused at fraction 0.25
    #expect(Self.near(Self.x(s, "a", 2.25), 200))  // half-way through the scrub 0.25 → 0.75
    #expect(Self.near(Self.x(s, "a", 2.75), 250))  // scrubbed to 0.75
    // continue: the remaining 0.25 takes 0.5 × 2 s = 1 s; the linear timing takes over from the
    // scrubbed progress at rest (velocity continuous): linear with its first control point bent
    // to the incoming slope 0 and its second moved along linear's end tangent so it still ends
    // at linear's own speed, (1/3, 0, 2/3, 2/3), so p = 0.75 + 0.25·bent(s), s = 0.1.
    let bent = TimingFunction(1.0 / 3, 0, 2.0 / 3, 2.0 / 3)
    #expect(Self.near(Self.x(s, "a", 3.1), 100 + 200 * (0.75 + 0.25 * bent.progress(at: 0.1))))
    // reversed at 3.2 (fraction 0.8, progress p₀ = 0.75 + 0.25·bent(0.2)): back along the linear
    // curve in proportion to the fraction, 1/4 of it per second, until stopped at 3.5 (0.725).
    let p0 = 0.75 + 0.25 * bent.progress(at: 0.2)
    #expect(Self.near(Self.x(s, "a", 3.4), 100 + 200 * p0 * 0.75 / 0.8))
    #expect(Self.near(Self.x(s, "a", 3.9), 100 + 200 * p0 * 0.725 / 0.8))  // stopped: holds the current value
    expectEqual(Self.x(s, "a", 4.0), 300)  // finished at the end
    #expect(Self.near(s.duration, Self.autoEnd(4)))
  }

  @Test func propertyAnimatorRunsToTheEndAndReverses() throws {
    let s = try Self.scene(
      """
      [ { animator: { duration: 1, curve: "easeInEaseOut", target: "a", animate: { opacity: 0 },
          events: [{ at: 0, do: "start" }, { at: 0.25, do: "reverse" }] } } ]
      """)
    let f = TimingFunction.easeInEaseOut
    #expect(Self.near(Self.opacity(s, "a", 0.25), 1 - f.progress(at: 0.25)))
    #expect(Self.near(Self.opacity(s, "a", 0.4), 1 - f.progress(at: 0.1)))
    expectEqual(Self.opacity(s, "a", 0.6), 1)
    #expect(Self.near(s.duration, Self.autoEnd(0.5)))
  }

  @Test func propertyAnimatorFinishPositionsAndSpringTiming() throws {
    func x(_ events: String, curve: String = "linear", at t: Double) throws -> Double {
      let s = try Self.scene(
        "[{ animator: { duration: 1, curve: \"\(curve)\", target: 'a', animate: { positionX: 300 }, events: \(events) } }]"
      )
      return Self.x(s, "a", t)
    }
    let stop = "{ at: 0, do: 'start' }, { at: 0.5, do: 'stop' }"
    #expect(Self.near(try x("[\(stop), { at: 0.6, do: 'finish', position: 'current' }]", at: 2), 200))
    try expectEqual(x("[\(stop), { at: 0.6, do: 'finish', position: 'start' }]", at: 2), 100)
    try expectEqual(x("[\(stop), { at: 0.6, do: 'finish', position: 'end' }]", at: 2), 300)
    #expect(Self.near(try x("[{ at: 0, do: 'start' }, { at: 0.25, do: 'stop', withoutFinishing: true }]", at: 2), 150))
    // A spring timing (UISpringTimingParameters(dampingRatio:)) settles within the duration and may overshoot.
    var maximum = 0.0
    for i in 0...100 {
      maximum = max(maximum, try x("[{ at: 0, do: 'start' }]", curve: "spring(dampingRatio: 0.4)", at: Double(i) / 100))
    }
    expectGreater(maximum, 300)
    try expectEqual(x("[{ at: 0, do: 'start' }]", curve: "spring(dampingRatio: 0.4)", at: 1.5), 300)
  }

  @Test func propertyAnimatorRules() {
    func animator(_ events: String) -> String {
      Self.message("[{ animator: { duration: 1, target: 'a', animate: { opacity: 0 }, events: \(events) } }]")
    }
    #expect(animator("[{ at: 0, do: 'start' }, { at: 0.5, do: 'finish' }]").contains("needs a stopped animator"))
    #expect(
      animator("[{ at: 0, do: 'start' }, { at: 0.5, do: 'stop' }, { at: 0.6, do: 'start' }]")
        .contains("a stopped animator cannot restart"))
    #expect(
      animator("[{ at: 0, do: 'start' }, { at: 0.5, do: 'scrub', fraction: 0.2 }]").contains(
        "pause it before scrubbing"))
    #expect(animator("[{ at: 1, do: 'start' }, { at: 0.5, do: 'pause' }]").contains("events must be in time order"))
    #expect(animator("[{ at: 0, do: 'jump' }]").contains("unknown value 'jump'"))
    #expect(animator("[{ at: 0, do: 'pause', fraction: 1 }]").contains("'fraction' does not apply to 'pause'"))
  }

  // MARK: - Purity

  @Test func anyFrameRendersAloneAndInAnyOrder() throws {
    let s = try Self.scene(
      """
      [ { id: "d", target: "a", drag: { path: [[100, 100], [300, 200], [200, 300]], duration: 0.6 } },
        { after: "d", target: "a", release: { to: [100, 100] } },
        { with: "d", target: "b", animate: { opacity: { to: 0.2, spring: { response: 0.3, dampingRatio: 0.5 } } } } ]
      """)
    let times = (0..<60).map { Double($0) / 30 }
    let forward = times.map { s.renderTree(at: $0) }
    let shuffled = times.enumerated().reversed().map { ($0.offset, s.renderTree(at: $0.element)) }
    for (i, tree) in shuffled { expectEqual(tree, forward[i]) }
  }
}
