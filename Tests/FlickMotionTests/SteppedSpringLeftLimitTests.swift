import FlickExpectations
import Testing

@testable import FlickMotion

/// A stepped spring's left limit at an engine frame's instant is the frame shown just before it,
/// not the frame that instant lands on (the `AnimationCurve` contract: `value(before:)` is the
/// state just before `t`). It read one frame ahead, so a hand-over exactly on an engine frame
/// started from the next frame's state and `flick trace --side left` did not show what arrives.
@Suite struct SteppedSpringLeftLimitTests {
  static let springs: [(String, SteppedSpring<Double>)] = [
    ("pop 60", SteppedSpring(from: 0.0, to: 100, parameters: .popDefault, stepping: .pop(fps: 60))),
    ("pop 120", SteppedSpring(from: 0.0, to: 100, parameters: .popDefault, stepping: .pop(fps: 120))),
    ("pop 24", SteppedSpring(from: 0.0, to: 100, velocity: 300, parameters: .popDefault, stepping: .pop(fps: 24))),
    (
      "gpuanimation 60",
      SteppedSpring(
        from: 0.0, to: 100, parameters: SpringParameters(stiffness: 200, damping: 10), stepping: .gpuAnimation(fps: 60))
    ),
  ]

  @Test func theLeftLimitAtAFrameIsTheFrameBefore() {
    for (name, spring) in Self.springs {
      let fps = spring.fps
      var n = 1
      while Double(n - 1) / fps <= spring.duration {
        let t = Double(n) / fps
        // Halfway through the frame before: what shows until frame n.
        let before = t - 0.5 / fps
        expectEqual(spring.value(before: t), spring.value(at: before), "\(name): value before frame \(n)")
        expectEqual(spring.velocity(before: t), spring.velocity(at: before), "\(name): velocity before frame \(n)")
        // Between frames the left limit is the frame shown.
        expectEqual(spring.value(before: before), spring.value(at: before), "\(name): inside frame \(n - 1)")
        n += 1
      }
      expectEqual(spring.value(before: 0), spring.value(at: 0), "\(name): at the start")
      expectEqual(spring.velocity(before: 0), spring.initialVelocity, "\(name): velocity at the start")
    }
  }
}
