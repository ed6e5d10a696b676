import FlickMotion

/// A property animator with its scripted events already played: FlickMotion's
/// ``PropertyAnimator`` (UIKit's state machine on a virtual clock) plus the scrubs that glide
/// (a finger moving a slider over some time rather than jumping), so the progress is a pure
/// function of time.
struct AnimatorScript: Sendable {
  /// A scrub that glides from the progress on screen to `fraction` over `duration` seconds.
  struct Glide: Sendable {
    var start: Double
    var duration: Double
    var from: Double
    var fraction: Double
    var curve: TimingFunction
  }

  /// The scripted commands.
  enum Command: String, CaseIterable, Sendable {
    case start, pause, reverse, scrub, `continue`, stop, finish
  }

  var animator: PropertyAnimator<Double>
  var glides: [Glide] = []
  /// Animator time of the first event: the animator applies from then on.
  var firstEventTime = 0.0
  /// Animator time when the progress stops changing for good.
  var end = 0.0

  /// The animated progress at animator time `t`: 0 is every property's start value, 1 its
  /// target (a spring timing may overshoot).
  func progress(at t: Double) -> Double {
    if let g = glides.last(where: { $0.start <= t && t < $0.start + $0.duration }) {
      let x = (t - g.start) / g.duration
      return g.from + (g.fraction - g.from) * g.curve.progress(at: x)
    }
    return animator.sample(at: t)
  }

  /// The animator's model is the progress itself.
  static let progressProperty = AnimatableProperty<Double, Double>(
    name: "progress", threshold: 0.001, read: { $0 }, write: { $0 = $1 })
}
