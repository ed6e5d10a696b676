import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// spring, tween and decay on `Animator`, `AnimatorSchedule` and `ChainGroup`: the same names,
/// defaults (`MotionDefaults`) and observers everywhere.
@Suite struct MotionConvenienceTests {
  static let x = AnimatorTests.x
  static let kx = AnimatorTests.kx

  @Test func decayTakesOverTheSpringsVelocityAndCoastsLikeDecayAnimation() throws {
    var a = Animator(model: Model())
    try a.spring(Self.kx, property: Self.x, to: 100, at: 0)
    try a.decay(Self.kx, property: Self.x, at: 0.1)
    let v0 = try #require(a.velocity(of: Self.kx, as: Double.self, before: 0.1))
    let x0 = try #require(a.value(of: Self.kx, as: Double.self, before: 0.1))
    expectGreater(v0, 100)
    try expectEqual(#require(a.value(of: Self.kx, as: Double.self, at: 0.1)), x0)
    // Pop's closed form starts at 0.999 of its parameter for d = 0.998: the hand-over's velocity
    // is scaled so the decay starts at exactly v₀ (CurveBuilder's decay rule, as in templates).
    let d = MotionDefaults.decayDeceleration
    let expected = DecayAnimation(
      from: x0, velocity: CurveBuilder.decayVelocity(handedOver: v0, deceleration: d), deceleration: d,
      threshold: Self.x.threshold)
    let start = try #require(a.velocity(of: Self.kx, as: Double.self, at: 0.1))
    expectEqual(start, expected.velocity(at: 0))
    expectLessOrEqual(abs(start - v0), 1e-9 * v0)
    expectEqual(a.sample(at: 0.6).x, expected.value(at: 0.5))
    expectEqual(a.endTime(of: Self.kx, at: 0.2), 0.1 + expected.duration)
    // An explicit velocity replaces the hand-over's.
    var b = Animator(model: Model())
    try b.decay(Self.kx, property: Self.x, velocity: 500, deceleration: 0.99, at: 0)
    expectEqual(
      b.sample(at: 0.05).x,
      DecayAnimation(from: 0.0, velocity: 500, deceleration: 0.99, threshold: 0.01).value(at: 0.05))
  }

  @Test func aTweenFromRestFollowsItsCurveAndOverAMovingValueKeepsTheVelocity() throws {
    var a = Animator(model: Model())
    try a.tween(Self.kx, property: Self.x, to: 100, duration: 1, timingFunction: .linear, at: 0)
    expectEqual(a.sample(at: 0.25).x, 25)
    expectEqual(a.endTime(of: Self.kx, at: 0), 1)
    try a.tween(Self.kx, property: Self.x, to: 0, at: 0.5)
    expectLess(abs(try #require(a.velocity(of: Self.kx, as: Double.self, at: 0.5)) - 100), 1e-9)
    expectEqual(a.endTime(of: Self.kx, at: 0.5), 0.5 + MotionDefaults.tweenDuration)
  }

  @Test func everyConvenienceReportsValueVelocityAndCompletion() throws {
    let log = Log()
    var a = Animator(model: Model())
    try a.spring(
      Self.kx, property: Self.x, to: 10, at: 0, onChange: { v, _ in log.append("spring \(v > 0)") },
      onComplete: { log.append("spring done \($0)") })
    try a.tween(
      Self.kx, property: Self.x, to: 20, duration: 0.2, at: 0.1, onChange: { _, v in log.append("tween \(v != 0)") },
      onComplete: { log.append("tween done \($0)") })
    try a.decay(
      Self.kx, property: Self.x, velocity: 50, at: 0.4, onChange: { _, _ in log.append("decay") },
      onComplete: { log.append("decay done \($0)") })
    _ = try a.advance(to: 0.05)
    _ = try a.advance(to: 0.2)
    _ = try a.advance(to: 0.5)
    _ = try a.advance(to: 30)
    expectEqual(
      log.all,
      [
        "spring true", "spring done false", "tween true", "tween done true", "decay", "decay done true",
      ])
  }

  @Test func chainGroupsAndSchedulesHaveTheSameThree() throws {
    let log = Log()
    let chain = AnimationChain<Model>()
      .animate { $0.decay(Self.kx, Self.x, velocity: 300, onComplete: { log.append("decay \($0)") }) }
      .then.animate { $0.tween(Self.kx, Self.x, to: 0, duration: 0.5, onChange: { _, _ in }) }
      .then.animate { $0.spring(Self.kx, Self.x, to: 5) }
    var a = Animator(model: Model())
    try a.run(chain, at: 0)
    let coast = DecayAnimation(from: 0.0, velocity: 300, threshold: Self.x.threshold)
    let starts = try a.advance(to: 30).filter { $0.kind == .start }.map(\.time)
    expectEqual(starts, [0, coast.duration, coast.duration + 0.5])
    expectEqual(log.all, ["decay true"])

    var b = Animator(model: Model())
    try b.add(
      Self.kx, property: Self.x, at: 0,
      whenCompleted: { done, next in
        next.tween(
          Self.kx, property: Self.x, to: 40, duration: 0.25,
          whenCompleted: { _, next in
            next.decay(Self.kx, property: Self.x, velocity: -100)
          })
      }
    ) { h in BasicAnimation(from: h.value, to: 10, duration: 0.3) }
    expectEqual(b.sample(at: 0.3 + 0.125).x, BasicAnimation(from: 10.0, to: 40, duration: 0.25).value(at: 0.125))
    expectEqual(
      b.velocity(of: Self.kx, as: Double.self, at: 0.55),
      DecayAnimation(from: 40.0, velocity: -100, threshold: 0.01).velocity(at: 0))
  }
}
