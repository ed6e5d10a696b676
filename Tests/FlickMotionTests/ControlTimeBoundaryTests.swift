import FlickExpectations
import FlickTestSupport
import Testing

@testable import FlickMotion

/// A property animator's control calls and completions compare times as every start and end in
/// a scene does (`MediaTiming.hasReached`): a run started at the first parts lasting the last one
/// ends at their sum, a few ulps off the frame's time, and a call written at the frame's time
/// comes at that instant. It threw "control calls must come in time order" after a call at the
/// sum, and a call at 0.3 s found a run ending at 0.30000000000000004 still running, so it
/// paused the animator a hair before its end and the completion never came.
@Suite struct ControlTimeBoundaryTests {
  typealias PA = PropertyAnimator<Model>

  /// An animator of `x` from 0 to 100, linear, running from `c.lead` for `c.last` seconds.
  static func running(_ c: BoundarySum) throws -> PA {
    var a = PA(duration: c.last, timingParameters: .cubic(.linear), model: Model())
    try a.addAnimation(AnimatorTests.x, to: 100, at: 0)
    try a.startAnimation(at: c.lead)
    return a
  }

  @Test(arguments: BoundarySum.cases) func theNaturalEndIsReachedAtTheFramesTime(_ c: BoundarySum) throws {
    let a = try Self.running(c)
    let ends = a.completions(through: c.time)
    expectEqual(ends.count, 1, "\(c): completions through the frame")
    expectEqual(a.state(at: c.time), .inactive, "\(c)")
  }

  /// Every call at the frame's time finds the run complete: the completion comes at the end,
  /// once, and the call applies to an inactive animator (a pause makes it active, paused).
  @Test(arguments: BoundarySum.cases) func aCallAtTheEndFindsTheRunComplete(_ c: BoundarySum) throws {
    var a = try Self.running(c)
    try a.pauseAnimation(at: c.time)
    let ends = a.completions(through: c.time + 1)
    expectEqual(ends.count, 1, "\(c): completions")
    expectEqual(ends.first?.time ?? .nan, c.sum, "\(c): completion time")
    expectEqual(a.sample(at: c.time + 1).x, 100, "\(c): the value after the end")
  }

  /// Calls at one instant written two ways (the sum, then the frame's time) are in time order.
  @Test(arguments: BoundarySum.cases) func callsAtOneInstantAreInOrder(_ c: BoundarySum) throws {
    var a = PA(duration: 10, timingParameters: .cubic(.linear), model: Model())
    try a.addAnimation(AnimatorTests.x, to: 100, at: 0)
    try a.startAnimation(at: 0)
    try a.pauseAnimation(at: c.sum)
    try a.setFractionComplete(0.5, at: c.time)
    try a.startAnimation(at: c.sum)
    try a.pauseAnimation(at: c.time)
    expectEqual(a.fractionComplete(at: c.time + 1), 0.5, "\(c)")
  }
}
