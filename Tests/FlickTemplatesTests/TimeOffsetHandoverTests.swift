import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// A motion with `timeOffset` ends where Core Animation's wrapped active time ends, `(A +
/// timeOffset) mod A`, not at its curve's end value: an animation placed `after:` it takes over
/// that value and the velocity it arrives with, and the frames up to the end lead there.
@Suite struct TimeOffsetHandoverTests {
  /// A timed tween, where it ends (parent seconds) and, worked out by hand from CA's formula, the
  /// curve's local time it ends at, whether that iteration plays backwards, and the speed.
  struct Case: Sendable, CustomStringConvertible {
    let motion: String
    let end: Double
    let localEnd: Double
    let backwards: Bool
    let speed: Double
    var description: String { motion }
  }

  static let cases = [
    // The review's case: A = 0.5, ends at local 0.2 (57.09 at 239.9 u/s), not at 100.
    Case(
      motion: #"curve: "easeOut", duration: 0.5, timeOffset: 0.2"#, end: 0.5, localEnd: 0.2, backwards: false, speed: 1),
    // A = 0.75: (0.75 + 0.35) mod 0.75 = 0.35, the first iteration.
    Case(
      motion: #"curve: "easeOut", duration: 0.5, timeOffset: 0.35, repeatCount: 1.5"#, end: 0.75, localEnd: 0.35,
      backwards: false, speed: 1),
    // A = 1 (there and back): 0.7 is 0.2 into the way back, local 0.3 played backwards.
    Case(
      motion: #"curve: "easeInEaseOut", duration: 0.5, timeOffset: 0.7, autoreverses: true"#, end: 1, localEnd: 0.3,
      backwards: true, speed: 1),
    // A = 0.9 at speed 2 (ends at 0.45 s): local 0.2, velocity doubled.
    Case(
      motion: #"curve: "easeIn", duration: 0.5, timeOffset: 0.2, repeatDuration: 0.9, speed: 2"#, end: 0.45,
      localEnd: 0.2, backwards: false, speed: 2),
  ]

  static func template(_ c: Case, next: String) throws -> Template {
    try JoinTimingTests.template(
      #"[ { id: "x", at: 0, target: "a", animate: { positionX: { to: 100, \#(c.motion) } } }, \#(next) ]"#, duration: 3)
  }

  static let nexts = [
    #"{ after: "x", target: "a", animate: { positionX: 200 }, spring: {} }"#,
    #"{ after: "x", target: "a", release: { property: "positionX", decay: {} } }"#,
    #"{ after: "x", target: "a", animate: { positionX: { to: 0, curve: "easeInEaseOut", duration: 0.5 } } }"#,
  ]

  @Test(arguments: cases)
  func theNextMotionTakesOverTheWrappedEnd(_ c: Case) throws {
    let curve: TimingFunction =
      c.motion.contains("easeInEaseOut") ? .easeInEaseOut : c.motion.contains("easeIn") ? .easeIn : .easeOut
    let base = BasicAnimation(from: 0.0, to: 100, duration: 0.5, timingFunction: curve)
    let value = base.value(at: c.localEnd)
    let velocity = base.velocity(at: c.localEnd) * c.speed * (c.backwards ? -1 : 1)
    for next in Self.nexts {
      let template = try Self.template(c, next: next)
      let (left, right) = JoinTimingTests.limits(template, at: c.end)
      expectLess(abs(left.value - value), 1e-9, "\(c) then \(next): arriving at \(left.value), not \(value)")
      JoinTimingTests.expectJoin(template, at: c.end, arriving: velocity)
      // Just before the end the motion is already there: no jump at the end.
      let (justBefore, _) = JoinTimingTests.limits(template, at: c.end - 1e-9)
      expectLess(abs(justBefore.value - value), 1e-5, "\(c): 1 ns before the end \(justBefore.value)")
      expectLess(abs(justBefore.velocity - velocity), 1e-3 * max(abs(velocity), 1), "\(c): 1 ns before")
      expectLess(abs(right.value - value), 1e-9, "\(c) then \(next): starts at \(right.value)")
    }
  }

  /// Without a motion after it, the fill holds the wrapped end, and the frames at 24, 60 and 120
  /// fps arrive there without a jump (each frame within one frame's travel of the next).
  @Test(arguments: cases, [24.0, 60, 120])
  func framesLeadToTheFill(_ c: Case, fps: Double) throws {
    let template = try JoinTimingTests.template(
      #"[ { id: "x", at: 0, target: "a", animate: { positionX: { to: 100, \#(c.motion) } } } ]"#, duration: 3)
    let (held, _) = JoinTimingTests.limits(template, at: 2)
    let (arrived, _) = JoinTimingTests.limits(template, at: c.end)
    expectEqual(held.value, arrived.value, "\(c): the fill holds what arrived")
    expectEqual(held.velocity, 0, "\(c): at rest in the fill")
    var tracks = template.tracks
    let p = AnyLayerProperty.named("positionX")!
    let frames = (0...Int(fps * 1.5)).map { Double($0) / fps }
    let samples = tracks.trace(p, layerID: "a", at: frames, limit: .right)
    for (a, b) in zip(samples, samples.dropFirst()) where b.time > c.end - 0.05 && a.time < c.end + 0.05 {
      let step = abs(b.value[0] - a.value[0])
      let travel = max(abs(a.velocity[0]), abs(b.velocity[0])) / fps
      expectLess(step, 2 * travel + 1e-6, "\(c) at \(fps) fps: \(a.value[0]) at \(a.time) → \(b.value[0]) at \(b.time)")
    }
  }
}
