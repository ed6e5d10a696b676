import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// Defect 4: settling time is continuous and monotone across critical damping (ζ = 1), for
/// every spring parameterisation, from both sides.
@Suite struct SettleTimeTests {
  /// Offsets of ζ from 1, from far to near (both sides are swept with these).
  static let offsets: [Double] = [0.02, 1e-2, 5e-3, 1e-3, 1e-4, 1e-5, 1e-6, 1e-8, 1e-10, 1e-12]
  /// ζ − 1 from −0.02 to +0.05 in steps of 0.001, plus the offsets, ascending. (Further below,
  /// the settle time has its true minimum — near ζ ≈ 0.95 for a 10⁻⁴ threshold, lower for
  /// looser ones — and rises again as the spring rings longer.)
  static let sweep: [Double] = ((0...70).map { -0.02 + Double($0) * 0.001 } + offsets + offsets.map { -$0 } + [0])
    .sorted()

  /// Each family, as a function of its own knob expressed as an offset of ζ from 1.
  static let families: [(String, @Sendable (Double) -> SpringParameters)] = [
    ("stiffness/damping", { SpringParameters(mass: 1, stiffness: 100, damping: 20 * (1 + $0)) }),
    ("tension/friction/mass", { SpringParameters.pop(tension: 300, friction: 60 * (1 + $0), mass: 3) }),
    ("response/dampingRatio", { SpringParameters(response: 0.55, dampingRatio: 1 + $0) }),
    ("duration/bounce", { SpringParameters(duration: 0.5, bounce: $0 <= 0 ? -$0 : 1 / (1 + $0) - 1) }),
    ("mass", { SpringParameters(mass: 4 / ((1 + $0) * (1 + $0)), stiffness: 100, damping: 40) }),
  ]

  static func settle(_ p: SpringParameters, velocity: Double = 0, threshold: Double? = nil) -> Double {
    SpringAnimation(from: 0.0, to: 100, velocity: velocity, parameters: p, restThreshold: threshold).duration
  }

  @Test(arguments: [0.0, 400, -900])
  func continuousAndMonotoneAcrossCriticalDamping(velocity: Double) {
    for (name, make) in Self.families {
      for threshold in [nil, 0.5, 0.01] as [Double?] {
        let what = "\(name), v₀ \(velocity), threshold \(threshold.map { "\($0)" } ?? "auto")"
        let critical = Self.settle(make(0), velocity: velocity, threshold: threshold)
        #expect(critical.isFinite, "\(what)")
        expectGreater(critical, 0, "\(what)")
        // Rising through ζ = 1 (as the physics does): no bump, no jump.
        let times = Self.sweep.map { Self.settle(make($0), velocity: velocity, threshold: threshold) }
        for i in 1..<times.count where name != "mass" {
          expectGreaterOrEqual(
            times[i], times[i - 1] * (1 - 1e-12),
            "\(what): ζ = 1 + \(Self.sweep[i - 1]) → 1 + \(Self.sweep[i]): \(times[i - 1]) → \(times[i])")
        }
        // Continuous: the nearest offsets either side give the critical settle.
        for offset in [1e-10, 1e-12] {
          for sign in [-1.0, 1] {
            let t = Self.settle(make(sign * offset), velocity: velocity, threshold: threshold)
            expectLessOrEqual(
              abs(t - critical), 1e-6 * critical,
              "\(what): ζ = 1 \(sign < 0 ? "−" : "+") \(offset): \(t) vs \(critical)")
          }
        }
        // Neighbours on the sweep never differ by more than the sweep's step can explain.
        for i in 1..<times.count {
          expectLessOrEqual(abs(times[i] - times[i - 1]), 0.05 * critical, "\(what): jump at ζ = 1 + \(Self.sweep[i])")
        }
      }
    }
  }

  /// The issue's figures: damping 19.999 and 19.99999999 settled at 1.151 s and 1.727 s against
  /// 0.923 s at 20.
  @Test func issueExample() throws {
    let at20 = try AnimationSpec(parsing: "spring(stiffness: 100, damping: 20)").curve(from: 0.0, to: 100).duration
    for damping in ["19.999", "19.99999999", "20.001"] {
      let d = try AnimationSpec(parsing: "spring(stiffness: 100, damping: \(damping))").curve(from: 0.0, to: 100)
        .duration
      expectLess(abs(d - at20), 0.001 * at20 + 0.002, "damping \(damping): \(d) s vs \(at20) s")
    }
  }

  /// UIKit's `spring(dampingRatio:)` timing is calibrated from the settle time: continuous too.
  @Test func animatorSpringTimingIsContinuous() {
    typealias TP = PropertyAnimator<Double>.TimingParameters
    let c = TP.calibrated(dampingRatio: 1, normalizedVelocity: 0, duration: 1).naturalFrequency
    for offset in [1e-3, 1e-6, 1e-9] {
      let lo = TP.calibrated(dampingRatio: 1 - offset, normalizedVelocity: 0, duration: 1).naturalFrequency
      let hi = TP.calibrated(dampingRatio: 1 + offset, normalizedVelocity: 0, duration: 1).naturalFrequency
      expectLess(abs(lo - c), 0.01 * c, "ζ = 1 ± \(offset): ω₀ \(lo), \(c), \(hi)")
      expectLess(abs(hi - c), 0.01 * c, "ζ = 1 ± \(offset): ω₀ \(lo), \(c), \(hi)")
    }
  }

  /// The settle time stays a true bound: after it, the spring is within its thresholds.
  @Test func settleIsStillABound() {
    for (name, make) in Self.families {
      for offset in [-0.3, -1e-3, -1e-7, 0, 1e-7, 1e-3, 0.3] {
        let s = SpringAnimation(from: 0.0, to: 100, velocity: 250, parameters: make(offset), restThreshold: 0.5)
        let w0 = s.parameters.naturalFrequency
        for n in 0...200 {
          let t = s.duration * (1 + Double(n) / 50)
          expectLessOrEqual(abs(s.value(before: t) - 100), 0.5 + 1e-9, "\(name) \(offset)")
          expectLessOrEqual(abs(s.velocity(before: t)), 0.5 * w0 + 1e-9, "\(name) \(offset)")
        }
      }
    }
  }
}
