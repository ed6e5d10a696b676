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
  /// A scrub that glides from the state on screen to the scrubbed one over `duration` seconds: a
  /// finger moving the slider moves the animator's time fraction and its progress side by side
  /// along `curve`, and every animation shows what the animator shows at that fraction and
  /// progress (an animation added with a delay follows the fraction, the others the progress).
  struct Glide: Sendable {
    var start: Double
    var duration: Double
    /// The time fraction and the progress when the glide starts and when it arrives.
    var fromFraction: Double
    var toFraction: Double
    var fromProgress: Double
    var toProgress: Double
    var curve: TimingFunction
    /// When it stops moving the progress: its arrival (`start + duration`), or an earlier
    /// `continue` that cut it.
    var end: Double

    /// (fraction, progress, their rates per second) at animator time `t`, from `left` or not.
    func state(at t: Double, left: Bool) -> (u: Double, p: Double, uRate: Double, rate: Double) {
      // Within the boundary tolerance of its start or end (``glide(at:left:)``), at it.
      let x = min(max((t - start) / duration, 0), 1)
      let f = left ? curve.progress(before: x) : curve.progress(at: x)
      let slope = curve.slope(at: left ? x.nextDown : x) / duration
      return (
        fromFraction + (toFraction - fromFraction) * f, fromProgress + (toProgress - fromProgress) * f,
        (toFraction - fromFraction) * slope, (toProgress - fromProgress) * slope
      )
    }
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
  /// Per slot, the seconds over which the momentum its properties had when the group was added
  /// fades: the animator's duration, or the time left to its end then if shorter, from the
  /// events up to that instant only (a later event does not change frames before it), as
  /// ``PropertyAnimator``'s own hand-over in Swift.
  var blends: [Int: Double] = [:]

  /// The glide in progress at `t` (for a left read, one that ends at `t` still counts), its
  /// start and end reached within the boundary tolerance (``MediaTiming/hasReached(_:at:leftLimit:)``).
  private func glide(at t: Double, left: Bool) -> Glide? {
    glides.last { g in
      MediaTiming.hasReached(g.start, at: t, leftLimit: left) && !MediaTiming.hasReached(g.end, at: t, leftLimit: left)
    }
  }

  /// Slot `slot`'s progress and its rate (per second) at animator time `t`, read from `limit`.
  func progress(of slot: Int, at t: Double, limit: TrackLimit = .right) -> (progress: Double, rate: Double) {
    let left = limit != .right
    let all: [(progress: Double, rate: Double)]
    if let g = glide(at: t, left: left) {
      let s = g.state(at: t, left: left)
      all = animator.animationProgress(at: t, u: s.u, p: s.p, rate: s.rate, uRate: s.uRate, left: left)
    } else {
      all = left ? animator.animationProgress(before: t) : animator.animationProgress(at: t)
    }
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
