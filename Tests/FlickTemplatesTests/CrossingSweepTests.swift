import FlickExpectations
import FlickScene
@testable import FlickTemplates
import Foundation
import Testing

/// A `when` crossing is the first one, whatever the motion turns within one 1/1024 s step of
/// the search: stiff springs, tweens shorter than a step that repeat or autoreverse, keyframes,
/// back, elastic and bounce curves. Each found time is compared with a dense sampling of the
/// compiled track.
@Suite struct CrossingSweepTests {
  /// The template: `a.positionX` from 0, moved by `motion` (an `animate` entry's keys for
  /// `positionX`) at `begin`, and, with a `level`, an entry waiting for it to cross that level.
  static func template(_ motion: String, begin: Double, level: Double? = nil, direction: String? = nil) throws
    -> Template
  {
    let way = direction.map { #", direction: "\#($0)""# } ?? ""
    let when =
      level.map {
        #"{ when: { target: "a", property: "positionX", crosses: \#($0)\#(way) }, target: "a", animate: { opacity: 0 }, duration: 0.1 },"#
      } ?? ""
    return try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 200, fps: 60, duration: 100 },
        layers: [ { id: "a", size: [10, 10], position: [0, 0], backgroundColor: "#FF0000" } ],
        timeline: [
          { at: \(begin), target: "a", \(motion) },
          \(when)
        ] }
      """, file: "sweep.json5")
  }

  /// The first crossing of `level` on a dense sampling of the track (`step` apart from `begin`
  /// over `span`), nil when there is none; the first sample at or past it.
  static func sampledCrossing(
    _ t: Template, level: Double, direction: String?, begin: Double, span: Double, step: Double
  ) -> Double? {
    var tracks = t.tracks
    var previous = tracks.value(of: .positionX, layerID: "a", at: begin, limit: .left)
    let count = Int((span / step).rounded(.up))
    for i in 0...count {
      let time = begin + Double(i) * step
      let v = tracks.value(of: .positionX, layerID: "a", at: time)
      if direction != "down", previous < level, v >= level { return time }
      if direction != "up", previous > level, v <= level { return time }
      previous = v
    }
    return nil
  }

  /// The value's lowest and highest samples over `begin…begin + span`.
  static func sampledRange(_ t: Template, begin: Double, span: Double, step: Double) -> ClosedRange<Double> {
    var tracks = t.tracks
    var low = Double.infinity
    var high = -Double.infinity
    for i in 0...Int((span / step).rounded(.up)) {
      let v = tracks.value(of: .positionX, layerID: "a", at: begin + Double(i) * step)
      low = min(low, v)
      high = max(high, v)
    }
    return low...high
  }

  /// The crossing `when` found (nil when the template is refused for never crossing).
  static func found(_ motion: String, begin: Double, level: Double, direction: String?) throws -> Double? {
    do {
      return try template(motion, begin: begin, level: level, direction: direction).crossings.first?.time
    } catch let error as TemplateError where error.description.contains("never crosses") {
      return nil
    }
  }

  /// Checks that `when` finds the crossing the dense sampling finds, within one sample.
  static func check(
    _ motion: String, begin: Double, level: Double, direction: String? = nil, span: Double, step: Double
  ) throws {
    let reference = sampledCrossing(
      try template(motion, begin: begin), level: level, direction: direction, begin: begin, span: span, step: step)
    let got = try found(motion, begin: begin, level: level, direction: direction)
    guard let reference else {
      #expect(got == nil, "\(motion) level \(level): found \(String(describing: got)), the samples never cross")
      return
    }
    guard let got else {
      Issue.record("\(motion) level \(level) \(direction ?? ""): not found; the samples cross at \(reference)")
      return
    }
    #expect(
      got <= reference + 1e-9 && got >= reference - step - 1e-9,
      "\(motion) level \(level) \(direction ?? ""): found \(got), the samples cross at \(reference) (step \(step))")
  }

  @Test func theReviewedCases() throws {
    // Stiffness 10⁸, damping 2000 (ratio 0.1): it peaks at 172.92 at 0.2003157 s and crosses 158
    // at 0.2002521 s, well inside one 1/1024 s step.
    let spring = #"animate: { positionX: 100 }, curve: "spring(stiffness: 1e+08, damping: 2000)""#
    let a = try #require(try Self.found(spring, begin: 0.2, level: 158, direction: nil))
    expectLess(abs(a - 0.2002521), 1e-7, "\(a)")
    // A 0.3 ms tween there and back three times: the first leg crosses 150 at 0.5001961 s.
    let tween =
      #"animate: { positionX: 200 }, curve: "easeInEaseOut", duration: 0.0003, autoreverses: true, repeatCount: 3"#
    let b = try #require(try Self.found(tween, begin: 0.5, level: 150, direction: nil))
    expectLess(abs(b - 0.5001961), 1e-7, "\(b)")
    // The other reviewed springs.
    for (k, c, level) in [(3e7, 1095.445, 150.0), (1e9, 19984.99, 105.0), (1e8, 6000, 125.0)] {
      try Self.check(
        #"animate: { positionX: 100 }, curve: "spring(stiffness: \#(k), damping: \#(c))""#, begin: 0.2, level: level,
        span: 0.01, step: 1e-7)
    }
  }

  /// Springs from stiffness 10² to 10⁹ and damping ratios 0.05 to 1, with levels just under the
  /// first peak (going up) and just above the first trough (going down).
  @Test func springSweep() throws {
    for exponent in 2...9 {
      let k = pow(10, Double(exponent))
      for ratio in [0.05, 0.1, 0.3, 0.6, 1] {
        let omega = k.squareRoot()
        let period = 2 * Double.pi / (omega * max(1 - ratio * ratio, 0.01).squareRoot())
        let motion = #"animate: { positionX: 100 }, curve: "spring(stiffness: \#(k), damping: \#(2 * ratio * omega))""#
        let step = period / 2000
        let t = try Self.template(motion, begin: 0.2)
        let range = Self.sampledRange(t, begin: 0.2, span: period, step: step)
        try Self.check(motion, begin: 0.2, level: 100 + 0.98 * (range.upperBound - 100), span: period, step: step)
        guard ratio < 0.5 else { continue }
        let late = Self.sampledRange(t, begin: 0.2 + period / 2, span: period / 2, step: step)
        try Self.check(
          motion, begin: 0.2, level: 100 - 0.98 * (100 - late.lowerBound), direction: "down", span: 1.5 * period,
          step: step)
      }
    }
  }

  /// Tweens shorter than a search step, repeated, autoreversed, sped up and offset, with every
  /// kind of timing curve, and keyframes; levels at three quarters and just under the top.
  @Test func shortTweenSweep() throws {
    let curves = ["linear", "easeInEaseOut", "backInOut", "backOut", "elasticOut", "bounceOut", "anticipate"]
    let timings = [
      "repeatCount: 3, autoreverses: true", "repeatCount: 2.5", "repeatCount: 2, autoreverses: true, speed: 2",
      "repeatCount: 3, timeOffset: 0.0001",
    ]
    for curve in curves {
      for duration in [0.0003, 0.0011] {
        for timing in timings {
          let motion = #"animate: { positionX: 200 }, curve: "\#(curve)", duration: \#(duration), \#(timing)"#
          let step = duration / 3000
          let span = duration * 6
          let range = Self.sampledRange(try Self.template(motion, begin: 0.5), begin: 0.5, span: span, step: step)
          for level in [150, range.lowerBound + 0.995 * (range.upperBound - range.lowerBound)] {
            try Self.check(motion, begin: 0.5, level: level, span: span, step: step)
          }
        }
      }
    }
    for mode in ["linear", "cubic"] {
      let motion =
        #"animate: { positionX: { to: 0, keyframes: { values: [0, 200, 40, 190, 0], mode: "\#(mode)" } } }, duration: 0.0009, repeatCount: 2, autoreverses: true"#
      let step = 0.0009 / 3000
      let range = Self.sampledRange(try Self.template(motion, begin: 0.5002), begin: 0.5002, span: 0.004, step: step)
      for level in [150, 0.995 * range.upperBound] {
        try Self.check(motion, begin: 0.5002, level: level, span: 0.004, step: step)
        try Self.check(motion, begin: 0.5002, level: level * 0.3, direction: "down", span: 0.004, step: step)
      }
    }
  }
}
