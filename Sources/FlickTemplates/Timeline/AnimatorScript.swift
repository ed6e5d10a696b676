import FlickMotion
import FlickScene

/// A property animator with its scripted events already played: FlickMotion's
/// ``PropertyAnimator`` (UIKit's state machine on a virtual clock, the same one Swift code
/// drives) plus the scrubs that glide (a finger moving a slider over some time rather than
/// jumping), so every animation's progress is a pure function of time.
///
/// The animator's model has one slot per group of animations added to it (the ones it is
/// created with, and each `addAnimations` event): slot `k` is that group's own progress, 0 at
/// the values it started from and 1 at its targets, so one animator drives any number of
/// properties of any layers.
struct AnimatorScript: Sendable {
  /// A scrub that glides from the progress on screen to the scrubbed one over `duration` seconds.
  struct Glide: Sendable {
    var start: Double
    var duration: Double
    /// Each slot's progress when the glide starts and when it arrives.
    var from: [Double]
    var to: [Double]
    var curve: TimingFunction
    /// When it stops moving the progress: its arrival (`start + duration`), or an earlier
    /// `continue` that cut it.
    var end: Double
  }

  /// The scripted commands.
  enum Command: String, CaseIterable, Sendable {
    case start, pause, reverse, scrub, `continue`, stop, finish, addAnimations
  }

  var animator: PropertyAnimator<[Double]>
  var glides: [Glide] = []
  /// Animator time of the first event: the animator applies from then on.
  var firstEventTime = 0.0
  /// Animator time when every progress stops changing for good.
  var end = 0.0

  /// The glide in progress at `t` (for a left read, one that ends at `t` still counts).
  private func glide(at t: Double, left: Bool) -> Glide? {
    glides.last { g in
      left ? g.start < t && t <= g.end : g.start <= t && t < g.end
    }
  }

  /// Slot `slot`'s progress and its rate (per second) at animator time `t`, read from `limit`.
  func progress(of slot: Int, at t: Double, limit: TrackLimit = .right) -> (progress: Double, rate: Double) {
    let left = limit != .right
    if let g = glide(at: t, left: left) {
      let x = (t - g.start) / g.duration
      let delta = g.to[slot] - g.from[slot]
      let f = left ? g.curve.progress(before: x) : g.curve.progress(at: x)
      return (g.from[slot] + delta * f, delta * g.curve.slope(at: left ? x.nextDown : x) / g.duration)
    }
    let all = left ? animator.animationProgress(before: t) : animator.animationProgress(at: t)
    return slot < all.count ? all[slot] : (0, 0)
  }

  /// The model slot `k`: one group's progress.
  static func slot(_ k: Int) -> AnimatableProperty<[Double], Double> {
    AnimatableProperty(name: "group \(k)", threshold: 0.001, read: { $0[k] }, write: { $0[k] = $1 })
  }
}

extension AnimatorScript: AnimatorProgressSource {
  /// Slot `group`'s progress (``progress(of:at:limit:)`` from the right), for FlickMotion's
  /// ``AnimatorCurve``.
  func progress(ofGroup group: Int, at t: Double) -> (progress: Double, rate: Double) { progress(of: group, at: t) }
  /// The left limit.
  func progress(ofGroup group: Int, before t: Double) -> (progress: Double, rate: Double) {
    progress(of: group, at: t, limit: .left)
  }
}
