/// A scripted finger moving a value along a path: a smooth curve through `points`
/// (Catmull-Rom, as ``KeyframeAnimation``'s cubic mode, with key times spaced by distance so
/// the finger moves at an even pace), with a timing curve over the whole drag. What a
/// template's `drag` entry compiles to; a `release` (or a ``SpringAnimation``/``DecayAnimation``
/// started in Swift) takes over with the velocity the finger lifts with,
/// ``velocity(before:)`` at ``duration``.
///
///     let drag = try DragCurve(points: [0.0, 40, 100], duration: 0.5, timing: .easeIn)
///     let flick = drag.velocity(before: drag.duration)   // points per second at the lift
///
/// After ``duration`` the value holds at the last point and the velocity is 0 (the finger has
/// lifted); at ``duration`` the left limit is the lift velocity, so a hand-over there is C¹.
package struct DragCurve<Value: Animatable>: AnimationCurve {
  /// The path through the points, timed by distance over ``duration``.
  package let path: KeyframeAnimation<Value>
  /// How the finger's progress along the path goes over time (``TimingFunction/linear`` for an
  /// even pace).
  package let timing: TimingFunction
  /// How long the finger moves, in seconds.
  package let duration: Double

  /// A drag through `points` (at least one; in the property's units) over `duration` seconds
  /// (> 0), paced by `timing`. Throws when ``KeyframeAnimation`` would (no points, a duration
  /// that is not positive and finite).
  package init(points: [Value], duration: Double, timing: TimingFunction = .linear) throws(MotionError) {
    var lengths = [0.0]
    for i in points.indices.dropFirst() {
      lengths.append(lengths[i - 1] + (points[i] - points[i - 1]).norm)
    }
    let total = lengths.last ?? 0
    guard total.isFinite else {
      throw MotionError("the points are too far apart to drag through: the path's length is not a finite number")
    }
    let keyTimes = lengths.enumerated().map { i, l in
      total > 0 ? l / total : Double(i) / Double(max(points.count - 1, 1))
    }
    path = try KeyframeAnimation(
      values: points, keyTimes: keyTimes, calculationMode: points.count > 2 ? .cubic : .linear, duration: duration)
    self.timing = timing
    self.duration = duration
  }

  /// Where the finger is at `t` seconds (clamped to the path before 0 and after ``duration``).
  package func value(at t: Double) -> Value {
    let x = min(max(t / duration, 0), 1)
    return path.value(at: timing.progress(at: x) * duration)
  }

  /// The finger's velocity in units per second; zero once it has lifted (from ``duration`` on).
  package func velocity(at t: Double) -> Value {
    guard t < duration else { return .zero }
    let x = max(t / duration, 0)
    return pathVelocity(timing.progress(at: x), left: false).scaled(by: timing.slope(at: x))
  }

  /// The left limit: at ``duration``, the velocity the finger lifts with (what a release takes).
  package func velocity(before t: Double) -> Value {
    guard t <= duration, t > 0 else { return t <= 0 ? velocity(at: 0) : .zero }
    let x = t / duration
    return pathVelocity(timing.progress(before: x), left: true).scaled(by: timing.slope(at: x.nextDown))
  }

  /// The path's velocity (per second of path time) where the timing has brought the finger, `p`
  /// of the way. A timing curve that flattens into its end (easeIn, easeInEaseOut) reaches
  /// exactly 1 a few ulps before the drag ends, where the path has ended and reads 0: there, and
  /// at the path's start, it is the path's tangent at that end, the limit of the motion.
  private func pathVelocity(_ p: Double, left: Bool) -> Value {
    let s = p * duration
    if p <= 1 && s >= duration { return path.velocity(before: duration) }
    if p >= 0 && s <= 0 { return path.velocity(at: 0) }
    return left ? path.velocity(before: s) : path.velocity(at: s)
  }
}
