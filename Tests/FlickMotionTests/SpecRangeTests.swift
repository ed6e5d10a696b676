import FlickExpectations
import Testing

@testable import FlickMotion

/// Specs whose numbers are each accepted but whose motion overflows (a huge overshoot, keyframes
/// from `1e308` to `-1e308`, a drag through points `1e308` apart over `1e-308` s) are refused
/// where they are read, at the spec's column, instead of printing `inf` and `-nan` rows or an
/// error about a key time the user never wrote.
@Suite struct SpecRangeTests {
  @Test(arguments: [
    ("backOut(overshoot: 1e308)", 1, "moving from 0 to 1, its velocity at 0 s is not a finite number"),
    ("tween(curve: backOut(overshoot: 1e307), duration: 1)", 1, "its velocity at"),
    (
      "drag(points: [0, 1e308, 1], curve: easeIn, duration: 1e-308)", 1,
      "the points are too far apart to drag through: the path's length is not a finite number"
    ),
    ("drag(points: [0, 1], duration: 1e-300)", 1, "its velocity at"),
    ("keyframes(values: [0, 1e308, -1e308, 1], duration: 1)", 1, "out of range"),
    ("keyframes(values: [0, 1e308, -1e308, 1], mode: paced)", 1, "too far apart to pace"),
    ("keyframes(values: [0, 0, 1e90, 1e90], keyTimes: [0, 0.5, 0.5000000001, 1])", 1, "its velocity at"),
    ("  cubicBezier(0.5, 1e200, 0.5, 1)", 3, "out of range"),
    ("constant(1e200)", 1, "its value at 0 s reaches 1e+200"),
    ("keyframes(values: [0, 1], keyTimes: [0])", 1, "need 2 key times"),
  ])
  func overflowingMotionIsRefusedAtTheSpec(_ text: String, _ column: Int, _ fragment: String) {
    do {
      let spec = try AnimationSpec(parsing: text)
      Issue.record("'\(text)' parsed as \(spec)")
    } catch {
      expectEqual(error.column, column, "\(error)")
      #expect(error.message.contains(fragment), "\(error.message)")
      #expect(!error.message.contains("nan"), "\(error.message)")
    }
  }

  @Test(arguments: [
    "backOut(overshoot: 10)", "keyframes(values: [0, 1.2, 0.9, 1], mode: paced)",
    "drag(points: [0, 0.4, 1], duration: 0.5)",
    "spring(stiffness: 1e6, damping: 10)", "decay(velocity: 1e6)", "cubicBezier(0.2, -3, 0.8, 4)", "spin(to: 1e4)",
    "easeIn(duration: 0.001)", "constant(1e6)",
  ])
  func ordinaryMotionIsAccepted(_ text: String) throws {
    _ = try AnimationSpec(parsing: text)
  }
}
