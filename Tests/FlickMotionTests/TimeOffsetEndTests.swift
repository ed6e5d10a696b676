import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// `timeOffset` at the end of the active duration and in the fill after it, checked against
/// Core Animation's formula written out here from the `CAMediaTiming` documentation (not through
/// ``MediaTiming``): active time `a = (t − beginTime)·speed`, active duration `A`, then
/// `w = (a + timeOffset) mod A`, iteration `k = ⌊w/D⌋`, `u = w − k·D`, odd iterations played
/// backwards with `autoreverses`. The end and the fill after it are the limit of that motion as
/// `a` reaches `A` from below, whatever the offset.
@Suite struct TimeOffsetEndTests {
  /// Core Animation's mapping for one timing, from the documentation.
  struct Reference: CustomStringConvertible, Sendable {
    var beginTime = 0.0
    var speed = 1.0
    var timeOffset = 0.0
    var repeatCount = 0.0
    var repeatDuration = 0.0
    var autoreverses = false
    let base = BasicAnimation(from: 0.0, to: 100, duration: 0.5, timingFunction: .easeOut)

    var simple: Double { base.duration }
    var active: Double {
      repeatDuration > 0 ? repeatDuration : simple * max(repeatCount, 1) * (autoreverses ? 2 : 1)
    }
    var end: Double { beginTime + active / speed }

    var timing: MediaTiming {
      MediaTiming(
        beginTime: beginTime, speed: speed, timeOffset: timeOffset, repeatCount: repeatCount,
        repeatDuration: repeatDuration, autoreverses: autoreverses)
    }

    /// The wrapped active time `w` at parent time `t` inside the active interval.
    func wrapped(_ t: Double) -> Double {
      let w = fmod((t - beginTime) * speed + timeOffset, active)
      return w < 0 ? w + active : w
    }

    /// Value and velocity (units per parent second) at parent time `t` inside the active interval.
    func motion(_ t: Double) -> (value: Double, velocity: Double) {
      let w = wrapped(t)
      let k = (w / simple).rounded(.down)
      let u = w - k * simple
      let backwards = autoreverses && Int(k) % 2 == 1
      let local = backwards ? simple - u : u
      let rate = base.velocity(at: local) * speed * (backwards ? -1 : 1)
      return (base.value(at: local), rate)
    }

    /// Whether `t` is within `h` of an iteration boundary (where the two sides differ).
    func nearBoundary(_ t: Double, _ h: Double = 1e-6) -> Bool {
      let u = fmod(wrapped(t), simple)
      return u < h || simple - u < h
    }

    var description: String {
      "begin \(beginTime) speed \(speed) offset \(timeOffset) repeat \(repeatCount)/\(repeatDuration)s"
        + (autoreverses ? " autoreversed" : "")
    }
  }

  static let cases: [Reference] = [
    Reference(timeOffset: 0.2),
    Reference(timeOffset: 0.7),
    Reference(timeOffset: -0.15, repeatCount: 1.5),
    Reference(timeOffset: 0.2, repeatCount: 2),
    Reference(timeOffset: 0.35, repeatCount: 1.5),
    Reference(timeOffset: 0.5, repeatCount: 2),
    Reference(timeOffset: 0.3, autoreverses: true),
    Reference(timeOffset: 0.1, repeatCount: 2.3, autoreverses: true),
    Reference(timeOffset: 0.2, repeatDuration: 1.3),
    Reference(timeOffset: 0.2, repeatDuration: 1.3, autoreverses: true),
    Reference(beginTime: 0.25, speed: 2, timeOffset: 0.2, repeatCount: 2),
    Reference(beginTime: 0.1, speed: 0.5, timeOffset: 0.2, repeatCount: 1, autoreverses: true),
  ]

  /// Inside the active interval every sample is CA's formula.
  @Test(arguments: cases)
  func activeTimesFollowTheFormula(_ r: Reference) {
    let curve = r.base.timed(r.timing)
    expectEqual(curve.duration, r.end, "\(r)")
    for i in 0..<400 {
      let t = r.beginTime + (r.end - r.beginTime) * (Double(i) + 0.37) / 400
      if r.nearBoundary(t) { continue }
      let (value, velocity) = r.motion(t)
      expectLess(abs(curve.value(at: t) - value), 1e-9, "\(r): value at \(t)")
      expectLess(abs(curve.velocity(at: t) - velocity), 1e-6, "\(r): velocity at \(t)")
    }
  }

  /// At the end: the left limit is where the motion arrives (its value and velocity as `a`
  /// reaches `A`), the value at the end and the fill after it hold that value, the velocity
  /// after is 0; `removed` shows nothing after the end.
  @Test(arguments: cases)
  func endAndFillHoldTheWrappedEnd(_ r: Reference) {
    let curve = r.base.timed(r.timing)
    let arriving = r.motion(r.end - 1e-9)
    let label = "\(r): arriving at \(arriving.value) @\(arriving.velocity)"
    expectLess(abs(curve.value(before: r.end) - arriving.value), 1e-5, "\(label), left limit")
    expectLess(abs(curve.velocity(before: r.end) - arriving.velocity), 1e-3, "\(label), left-limit velocity")
    expectLess(abs(curve.value(at: r.end - 1e-9) - arriving.value), 1e-9, "\(label), 1 ns before")
    expectLess(abs(curve.velocity(at: r.end - 1e-9) - arriving.velocity), 1e-6, "\(label), 1 ns before")
    for after in [r.end, r.end + 1e-9, r.end + 0.3, r.end + 10] {
      expectEqual(curve.value(at: after), curve.value(before: r.end), "\(label), fill at \(after)")
      expectEqual(curve.velocity(at: after), 0, "\(label), fill velocity at \(after)")
      expectEqual(curve.value(before: after + 1e-3), curve.value(before: r.end), "\(label), fill before \(after)")
      #expect(curve.isApplied(at: after), "\(label), fill at \(after)")
    }
    guard case .after(_, let u, let reversed) = curve.phase(at: r.end + 1) else {
      Issue.record("\(label): expected .after past the end")
      return
    }
    expectLess(abs(r.base.value(at: u) - arriving.value), 1e-5, "\(label), phase after (\(u), \(reversed))")
    var removed = r.timing
    removed.fillMode = .removed
    #expect(!r.base.timed(removed).isApplied(at: r.end + 0.1), "\(label), removed")
    var both = r.timing
    both.fillMode = .both
    let start = r.motion(r.beginTime)
    expectLess(abs(r.base.timed(both).value(at: r.beginTime - 0.05) - start.value), 1e-9, "\(label), backwards fill")
  }

  /// Sampled at 24, 60 and 120 fps the frames before the end follow the formula and the frames
  /// from the end on show the value the motion arrived with.
  @Test(arguments: cases, [24.0, 60, 120])
  func framesAtAnyRateEndWhereTheMotionArrives(_ r: Reference, fps: Double) {
    let curve = r.base.timed(r.timing)
    let held = r.motion(r.end - 1e-9).value
    for frame in 0...Int(((r.end + 0.2) * fps).rounded(.up)) {
      let t = Double(frame) / fps
      if t < r.beginTime { continue }
      if t < r.end - 1e-9 {
        if r.nearBoundary(t) { continue }
        expectLess(abs(curve.value(at: t) - r.motion(t).value), 1e-9, "\(r) at \(fps) fps, frame \(t)")
      } else {
        expectLess(abs(curve.value(at: t) - held), 1e-5, "\(r) at \(fps) fps, frame \(t) holds")
      }
    }
  }
}
