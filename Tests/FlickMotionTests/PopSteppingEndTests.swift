import FlickExpectations
import Testing

@testable import FlickMotion

/// Issue 26, defect 6: `stepping: pop` ends on Pop's own frame. Pop tests rest after writing each
/// frame, with the last RK4 step's dv/dt (`_lastDv`) and the frame just written against the one
/// before; ``PopReference`` transcribes that loop and is the table.
@Suite struct PopSteppingEndTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var from: Double
    var to: Double
    var velocity: Double
    var tension: Double
    var friction: Double
    var mass: Double
    var threshold: Double
    var description: String { name }
  }

  static let pop = SpringParameters.popDefault
  /// Pop's default spring and tension/friction/mass sets, with Pop's thresholds for points (1),
  /// opacity (0.01) and scale (0.005).
  static let cases: [Case] = [
    Case(
      name: "default, point", from: 0, to: 100, velocity: 0, tension: pop.stiffness, friction: pop.damping,
      mass: pop.mass, threshold: 1),
    Case(
      name: "default, opacity", from: 1, to: 0, velocity: 0, tension: pop.stiffness, friction: pop.damping,
      mass: pop.mass, threshold: 0.01),
    Case(
      name: "300/12/3, point, thrown", from: 100, to: 300, velocity: -800, tension: 300, friction: 12, mass: 3,
      threshold: 1),
    Case(name: "500/20/1, scale", from: 1, to: 0.5, velocity: 0, tension: 500, friction: 20, mass: 1, threshold: 0.005),
    Case(name: "120/14/1, opacity", from: 0, to: 1, velocity: 2, tension: 120, friction: 14, mass: 1, threshold: 0.01),
    Case(name: "1000/40/2, point", from: -50, to: 250, velocity: 0, tension: 1000, friction: 40, mass: 2, threshold: 1),
  ]

  @Test(arguments: cases, [30.0, 60, 120])
  func endsOnPopsFrame(_ c: Case, fps: Double) {
    let reference = PopReference.frames(
      from: c.from, to: c.to, velocity: c.velocity, tension: c.tension, friction: c.friction, mass: c.mass,
      threshold: c.threshold, fps: fps)
    let spring = SteppedSpring(
      from: c.from, to: c.to, velocity: c.velocity,
      parameters: SpringParameters(mass: c.mass, stiffness: c.tension, damping: c.friction), threshold: c.threshold,
      stepping: .pop(fps: fps))
    // The frame Pop snaps on, and so the duration.
    expectEqual(spring.frames.count - 1, reference.done, "\(c) at \(fps) fps")
    expectEqual(spring.duration, Double(reference.done) / fps)
    // Every frame before it shows exactly what Pop wrote; that frame shows the target.
    for n in 0..<min(reference.done, spring.frames.count) {
      expectEqual(spring.value(at: Double(n) / fps), reference.written[n], "\(c) at \(fps) fps, frame \(n)")
    }
    expectEqual(spring.value(at: Double(reference.done) / fps), c.to)
    expectEqual(spring.velocity(at: Double(reference.done) / fps), 0)
  }

  /// A spring that starts at rest on its target is done on frame 0 in Pop (its solver has
  /// converged before any step).
  @Test func atRestOnTheTargetEndsOnFrameZero() {
    let reference = PopReference.frames(
      from: 5, to: 5, velocity: 0, tension: 300, friction: 20, mass: 1, threshold: 0.01, fps: 60)
    expectEqual(reference.done, 0)
    let spring = SteppedSpring(from: 5.0, to: 5, parameters: .popDefault, stepping: .pop(fps: 60))
    expectEqual(spring.duration, 0)
    expectEqual(spring.value(at: 0), 5)
  }
}
