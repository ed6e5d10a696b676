/// Where an ``AnimatorCurve`` reads its progress: one progress per animation group (the
/// animations a property animator was created with are group 0, each `addAnimations` the next),
/// 0 at the values the group started from and 1 at its targets, with its rate per second.
///
/// ``PropertyAnimator`` is one (``PropertyAnimator/animationProgress(at:)``); Flick's template
/// timeline adds the scrubs that glide.
public protocol AnimatorProgressSource: Sendable {
  /// Group `group`'s progress and its rate (per second) at animator time `t` (seconds).
  func progress(ofGroup group: Int, at t: Double) -> (progress: Double, rate: Double)
  /// The left limit of ``progress(ofGroup:at:)`` at `t`: the group just before `t`.
  func progress(ofGroup group: Int, before t: Double) -> (progress: Double, rate: Double)
}

extension PropertyAnimator: AnimatorProgressSource {
  /// Group `group`'s entry of ``animationProgress(at:)``, or (0, 0) for a group not added.
  public func progress(ofGroup group: Int, at t: Double) -> (progress: Double, rate: Double) {
    let all = animationProgress(at: t)
    return group >= 0 && group < all.count ? all[group] : (0, 0)
  }

  /// Group `group`'s entry of ``animationProgress(before:)``, or (0, 0) for a group not added.
  public func progress(ofGroup group: Int, before t: Double) -> (progress: Double, rate: Double) {
    let all = animationProgress(before: t)
    return group >= 0 && group < all.count ? all[group] : (0, 0)
  }
}

/// A property driven by one animation group of a property animator: `from + progress·(to − from)`,
/// velocity `(to − from)·rate`, both analytic (no sampling), left limits included. What a
/// template's `animator` entry compiles each animated property to; in Swift it drives any
/// property (of a layer or anything else) from a ``PropertyAnimator`` whose model is one
/// progress per group:
///
///     var animator = PropertyAnimator(duration: 1, model: [0.0])
///     animator.addAnimation(…)   // group 0
///     let x = AnimatorCurve(from: 0.0, to: 300, source: animator, group: 0, duration: 1)
public struct AnimatorCurve<Value: Animatable, Source: AnimatorProgressSource>: AnimationCurve {
  /// The value at progress 0, in the property's units.
  public let from: Value
  /// The value at progress 1.
  public let to: Value
  /// Where the progress comes from.
  public let source: Source
  /// Which animation group of ``source`` drives the value.
  public let group: Int
  /// Animator time (seconds) of the curve's local time 0 (when its group was added).
  public let offset: Double
  /// How long the curve changes, in seconds of local time (from 0 until the animator's progress
  /// stops changing for good).
  public let duration: Double

  /// A curve from `from` to `to` following `source`'s group `group`, whose local time 0 is
  /// animator time `offset`, changing for `duration` seconds (not negative).
  public init(from: Value, to: Value, source: Source, group: Int, offset: Double = 0, duration: Double) {
    self.from = from
    self.to = to
    self.source = source
    self.group = group
    self.offset = offset
    self.duration = max(0, duration)
  }

  public func value(at t: Double) -> Value {
    from.interpolated(to: to, amount: source.progress(ofGroup: group, at: t + offset).progress)
  }

  public func velocity(at t: Double) -> Value {
    (to - from).scaled(by: source.progress(ofGroup: group, at: t + offset).rate)
  }

  public func value(before t: Double) -> Value {
    from.interpolated(to: to, amount: source.progress(ofGroup: group, before: t + offset).progress)
  }

  public func velocity(before t: Double) -> Value {
    (to - from).scaled(by: source.progress(ofGroup: group, before: t + offset).rate)
  }
}
