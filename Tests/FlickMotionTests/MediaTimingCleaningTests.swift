import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// Media timing far from its begin time, and fields set after the initialiser: evaluation never
/// traps (an offset of −10²⁰ repeating forever made the iteration index overflow `Int`) and a
/// field assigned or decoded is cleaned as the initialiser cleans it (a `timeOffset` of −∞ gave
/// NaN values).
@Suite struct MediaTimingCleaningTests {
  static let tween = BasicAnimation(from: 0.0, to: 1.0, duration: 1)

  @Test(arguments: [-1e20, 1e20, -1e300, -12.25])
  func aHugeOffsetRepeatingForeverGivesAValueInsideTheCurve(offset: Double) {
    for autoreverses in [false, true] {
      let timed = TimedAnimation(
        Self.tween, timing: MediaTiming(timeOffset: offset, repeatForever: true, autoreverses: autoreverses))
      for t in [0.0, 0.5, 1, 7.75] {
        let v = timed.value(at: t)
        #expect(v.isFinite && v >= 0 && v <= 1, "offset \(offset) autoreverses \(autoreverses) at \(t): \(v)")
        #expect(timed.value(before: t).isFinite)
      }
    }
  }

  @Test func aNegativeOffsetKeepsItsIterationsParity() {
    // −12.25 s into a there-and-back loop of 2 s is 1.75 s into it (seven loops earlier):
    // iteration −13 plays backwards, as iteration 1 does.
    func value(offset: Double, at t: Double) -> Double {
      TimedAnimation(Self.tween, timing: MediaTiming(timeOffset: offset, repeatForever: true, autoreverses: true))
        .value(at: t)
    }
    for t in [0.0, 0.1, 0.2] {
      #expect(abs(value(offset: -12.25, at: t) - value(offset: 1.75, at: t)) < 1e-12, "at \(t)")
    }
  }

  @Test func assignedFieldsAreCleanedAsTheInitialiserCleansThem() {
    var m = MediaTiming()
    m.timeOffset = -.infinity
    m.beginTime = .nan
    m.speed = .infinity
    m.repeatDuration = -.infinity
    expectEqual(m, MediaTiming())
    m.speed = -2
    expectEqual(m.speed, 0)
    m.repeatCount = .infinity
    #expect(m.repeatForever)
    expectEqual(m.repeatCount, 0)
    m.repeatCount = .nan
    expectEqual(m.repeatCount, 0)
    var n = MediaTiming()
    n.timeOffset = -.infinity
    #expect(TimedAnimation(Self.tween, timing: n).value(at: 0.5).isFinite)
  }

  @Test func decodedFieldsAreCleanedToo() throws {
    let json = """
      {"beginTime":0,"speed":-2,"timeOffset":0,"repeatCount":-3,"repeatDuration":-1,
       "repeatForever":false,"autoreverses":false,"fillMode":"forwards"}
      """
    let m = try JSONDecoder().decode(MediaTiming.self, from: Data(json.utf8))
    expectEqual(m, MediaTiming(speed: 0))
    expectEqual(try JSONDecoder().decode(MediaTiming.self, from: JSONEncoder().encode(m)), m)
  }
}
