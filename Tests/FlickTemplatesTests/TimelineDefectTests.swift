import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Regression tests for the template timeline defects of issue 11 (1, 3, 6, 7), each checked
/// against what the Swift API does with the same calls.
@Suite struct TimelineDefectTests {
  static func x(_ s: Scene, _ id: String, _ t: Double) -> Double { TimelineTests.x(s, id, t) }

  /// Defect 1: a release at the instant a tween ends keeps the tween's velocity (card-swap's
  /// flung card keeps rotating; `flick info` listed `1.12–1.12 s c1.rotation`).
  @Test func aReleaseAtTheEndOfATweenKeepsItsVelocity() throws {
    var template = try Template.load(path: FixturePaths.templates.appendingPathComponent("card-swap.json5").path)
    for a in template.scene.animations where a.propertyName == "rotation" {
      expectGreater(a.duration, 0.1, "\(a.layerID).rotation from \(a.beginTime) s lasts \(a.duration) s")
    }
    let rotation = AnyLayerProperty.named("rotation")!
    let left = template.tracks.trace(rotation, layerID: "c1", at: [1.12], limit: .left)[0]
    let right = template.tracks.trace(rotation, layerID: "c1", at: [1.12], limit: .right)[0]
    expectGreater(left.velocity[0], 1)  // rad/s: the tween is turning the card fast when it ends
    expectLessOrEqual(abs(left.velocity[0] - right.velocity[0]), 1e-6 * left.velocity[0])
    // It keeps turning after the release, and slows down.
    let later = template.tracks.trace(rotation, layerID: "c1", at: [1.2, 1.4], limit: .right)
    #expect(later[0].value[0] > right.value[0] && later[1].value[0] > later[0].value[0])
    #expect(later[1].velocity[0] < later[0].velocity[0] && later[1].velocity[0] > 0)
  }

  /// Defect 3: an animator started with a delay ends when it completes, for placement.
  @Test func aDelayedAnimatorEndsWhenItCompletes() throws {
    let s = try TimelineTests.scene(
      """
      [ { id: "anim", animator: { duration: 1, curve: "linear", target: "a", animate: { positionX: 300 },
          events: [{ at: 0.25, do: "start", delay: 0.5 }] } },
        { after: "anim", target: "b", animate: { positionX: 300 }, duration: 0.5, curve: "linear" } ]
      """)
    let b = try #require(s.animations.first { $0.layerID == "b" })
    expectEqual(b.beginTime, 1.75)
    expectEqual(Self.x(s, "a", 0.75), 100)  // still in its delay
    #expect(TimelineTests.near(Self.x(s, "a", 1.25), 200))
    expectEqual(Self.x(s, "a", 1.75), 300)
  }

  /// Defect 6: `reverse` on a stopped animator is ignored, as in UIKit and FlickMotion's Swift
  /// API; the rest of the script plays as if it were not there.
  @Test func reverseOnAStoppedAnimatorIsIgnored() throws {
    func scene(_ extra: String) throws -> Scene {
      try TimelineTests.scene(
        """
        [ { animator: { duration: 1, curve: "linear", target: "a", animate: { positionX: 300 },
            events: [ { at: 0, do: "start" }, { at: 0.5, do: "stop" }, \(extra)
                      { at: 0.8, do: "finish", position: "end" } ] } } ]
        """)
    }
    let with = try scene("{ at: 0.6, do: \"reverse\" },")
    let without = try scene("")
    for t in [0.3, 0.55, 0.7, 0.9] { expectEqual(Self.x(with, "a", t), Self.x(without, "a", t)) }
    // The same calls in Swift.
    var swift = PropertyAnimator(duration: 1, timingParameters: .cubic(.linear), model: 100.0)
    let x = AnimatableProperty<Double, Double>(name: "x", threshold: 0.5, read: { $0 }, write: { $0 = $1 })
    try swift.addAnimation(x, to: 300, at: 0)
    try swift.apply(.start, at: 0)
    try swift.apply(.stop(withoutFinishing: false), at: 0.5)
    try expectNotEqual(swift.apply(.setReversed(true), at: 0.6), .applied)
    try swift.apply(.finish(at: .end), at: 0.8)
    for t in [0.3, 0.55, 0.7, 0.9] { #expect(TimelineTests.near(Self.x(with, "a", t), swift.sample(at: t))) }
  }

  /// Defect 7: `addAnimations` with a `delayFactor` (here and in `animations`), as Swift's
  /// `addAnimation(_:to:delayFactor:at:)` does it.
  @Test func addAnimationsWithADelayFactorMatchesSwift() throws {
    let s = try TimelineTests.scene(
      """
      [ { animator: { duration: 1, curve: "easeInEaseOut",
          animations: [ { target: "a", animate: { positionX: 300 } },
                        { target: "c", animate: { positionY: 300 }, delayFactor: 0.25 } ],
          events: [ { at: 0, do: "start" },
                    { at: 0.2, do: "addAnimations", target: "b", animate: { positionX: 300 }, delayFactor: 0.5 } ] } } ]
      """)
    struct Model: Sendable { var a = 100.0, b = 100.0, c = 100.0 }
    func p(_ k: WritableKeyPath<Model, Double> & Sendable) -> AnimatableProperty<Model, Double> {
      AnimatableProperty(name: "p", threshold: 0.5, read: { $0[keyPath: k] }, write: { $0[keyPath: k] = $1 })
    }
    var swift = PropertyAnimator(duration: 1, timingParameters: .cubic(.easeInEaseOut), model: Model())
    try swift.addAnimation(p(\.a), to: 300, at: 0)
    try swift.addAnimation(p(\.c), to: 300, delayFactor: 0.25, at: 0)
    try swift.apply(.start, at: 0)
    try swift.addAnimation(p(\.b), to: 300, delayFactor: 0.5, at: 0.2)
    for t in stride(from: 0.0, through: 1.2, by: 0.05) {
      let m = swift.sample(at: t)
      let tree = s.renderTree(at: t)
      #expect(TimelineTests.near(tree.layer(id: "a")!.position.x, m.a, 1e-9), "a at \(t)")
      #expect(TimelineTests.near(tree.layer(id: "b")!.position.x, m.b, 1e-9), "b at \(t)")
      #expect(TimelineTests.near(tree.layer(id: "c")!.position.y, m.c, 1e-9), "c at \(t)")
    }
    expectEqual(Self.x(s, "b", 0.55), 100)  // waits 0.5 × the 0.8 s left
    expectEqual(Self.x(s, "b", 1.0), 300)
  }

  /// Defect 7: `pausesOnCompletion` keeps the animator active at the end, so it can be reversed
  /// and continued; without it, the animator completes and `continue` is an error (UIKit).
  @Test func pausesOnCompletionKeepsTheAnimatorAlive() throws {
    let timeline = { (flag: String) in
      """
      [ { id: "anim", animator: { duration: 1, curve: "linear", target: "a", animate: { positionX: 300 }, \(flag)
          events: [ { at: 0, do: "start" }, { at: 1.5, do: "reverse" }, { at: 1.5, do: "continue" } ] } },
        { after: "anim", target: "b", animate: { opacity: 0 } } ]
      """
    }
    let s = try TimelineTests.scene(timeline("pausesOnCompletion: true,"))
    var swift = PropertyAnimator(duration: 1, timingParameters: .cubic(.linear), model: 100.0)
    swift.pausesOnCompletion = true
    try swift.addAnimation(
      AnimatableProperty<Double, Double>(name: "x", threshold: 0.5, read: { $0 }, write: { $0 = $1 }), to: 300, at: 0)
    try swift.apply(.start, at: 0)
    try swift.apply(.setReversed(true), at: 1.5)
    try swift.apply(.continueAnimation(nil, durationFactor: 1), at: 1.5)
    for t in [0.5, 1.2, 1.6, 2.0, 2.4, 2.6] {
      #expect(TimelineTests.near(Self.x(s, "a", t), swift.sample(at: t)), "at \(t)")
    }
    expectEqual(Self.x(s, "a", 1.2), 300)
    expectLess(Self.x(s, "a", 2.0), 300)
    expectGreater(Self.x(s, "a", 2.0), 100)
    expectEqual(Self.x(s, "a", 2.6), 100)
    expectEqual(s.animations.last { $0.layerID == "b" }?.beginTime, 2.5)
    #expect(TimelineTests.message(timeline("")).contains("continueAnimation at 1.5 s needs an active animator"))
  }

  /// Defect 7: `scrubsLinearly: false` shows the timing curve's progress while scrubbing.
  @Test func scrubsLinearlyFalseFollowsTheCurve() throws {
    let timeline = { (flag: String) in
      """
      [ { animator: { duration: 1, curve: "easeIn", target: "a", animate: { positionX: 300 }, \(flag)
          events: [ { at: 0, do: "pause" }, { at: 0.5, do: "scrub", fraction: 0.5 } ] } } ]
      """
    }
    let curved = try TimelineTests.scene(timeline("scrubsLinearly: false,"))
    let linear = try TimelineTests.scene(timeline(""))
    #expect(TimelineTests.near(Self.x(linear, "a", 0.6), 200))
    #expect(TimelineTests.near(Self.x(curved, "a", 0.6), 100 + 200 * TimingFunction.easeIn.progress(at: 0.5)))
  }

  /// Motion objects build typed specs (no printed text parsed again): Pop's tension/friction/mass
  /// (defect 5) works in a template, and a bad member is reported at that member.
  @Test func motionObjectsBuildTypedSpecs() throws {
    let s = try TimelineTests.scene(
      "[{ target: 'a', animate: { positionX: { to: 300, spring: { tension: 300, friction: 12, mass: 3 } } } }]")
    let spring = SpringAnimation(from: 100.0, to: 300, parameters: .pop(tension: 300, friction: 12, mass: 3))
    for t in [0.1, 0.4, 0.9] { #expect(TimelineTests.near(TimelineTests.x(s, "a", t), spring.value(at: t), 1e-9)) }
    let message = TimelineTests.message(
      "[{ target: 'a', animate: { positionX: { to: 300, spring: { bounciness: 8,\n damping: 10 } } } }]")
    #expect(
      message.contains("timeline[0].animate.positionX.spring: invalid spring: spring parameters mix"), "\(message)")
  }
}

/// Device-faithful stepping reaches templates through the spec (`stepping: pop`), string and
/// object forms alike, and is the same curve `SteppedSpring` gives in Swift.
@Suite struct TemplateSteppingTests {
  @Test func steppedSpringsInTemplates() throws {
    let expected = SteppedSpring(
      from: 100.0, to: 300, velocity: 0, parameters: .pop(bounciness: 8, speed: 12), threshold: 0.5,
      stepping: try AnimationSpec(parsing: "spring(bounciness: 8, speed: 12, stepping: pop, fps: 60)").stepping)
    for timeline in [
      "[{ target: 'a', animate: { positionX: { to: 300, curve: 'spring(bounciness: 8, speed: 12, stepping: pop, fps: 60)' } } }]",
      "[{ target: 'a', animate: { positionX: { to: 300, spring: { bounciness: 8, speed: 12, stepping: 'pop', fps: 60 } } } }]",
    ] {
      let s = try TimelineTests.scene(timeline)
      for t in [0.05, 0.2, 0.5] {
        expectEqual(TimelineTests.x(s, "a", t), expected.value(at: t), "\(timeline) at \(t)")
      }
    }
    let analytic = try TimelineTests.scene(
      "[{ target: 'a', animate: { positionX: { to: 300, spring: { bounciness: 8, speed: 12 } } } }]")
    expectNotEqual(TimelineTests.x(analytic, "a", 0.2), expected.value(at: 0.2))
  }
}
