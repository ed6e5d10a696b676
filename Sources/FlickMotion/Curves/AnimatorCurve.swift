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
///
/// **Over a moving property** (UIKit's animations are additive: the momentum of what was moving
/// a property persists under a new animation), a curve made with a `handover` velocity adds it
/// on top of the group's own motion and lets it fade: `handover · T · x(1 − x)²`, `x = t/T`
/// over the `blend` seconds `T`, on its own clock like UIKit's in-flight animation. It is 0 with
/// slope `handover` at 0 and 0 with slope 0 at `T`: the value is continuous where the group
/// takes over, the velocity too when the group's curve starts at rest (ease-in-ease-out, ease-in,
/// a spring); a curve that starts moving (linear, ease-out) adds its own start velocity, as it
/// does from rest. From `T` on the motion is the group's alone.
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
  /// stops changing for good, and the hand-over's blend has faded).
  public let duration: Double
  /// The velocity of what was moving the property when the group took over (zero at rest).
  public let excessVelocity: Value
  /// Seconds over which ``excessVelocity`` fades (0: no blend).
  public let blend: Double

  /// A curve from `from` to `to` following `source`'s group `group`, whose local time 0 is
  /// animator time `offset`, changing for `duration` seconds (not negative).
  public init(from: Value, to: Value, source: Source, group: Int, offset: Double = 0, duration: Double) {
    self.init(
      from: from, to: to, source: source, group: group, offset: offset, duration: duration, handover: nil, blend: 0)
  }

  /// The same curve taking over a property moving at `handover` (units/s, at local time 0; nil
  /// at rest): that momentum adds to the group's own motion and fades over `blend` seconds.
  public init(
    from: Value, to: Value, source: Source, group: Int, offset: Double = 0, duration: Double, handover: Value?,
    blend: Double
  ) {
    self.from = from
    self.to = to
    self.source = source
    self.group = group
    self.offset = offset
    let blend = blend.isFinite ? max(blend, 0) : 0
    let excess = handover ?? .zero
    let blends = blend > 0 && excess.norm > 0
    self.excessVelocity = blends ? excess : .zero
    self.blend = blends ? blend : 0
    self.duration = max(0, duration, self.blend)
  }

  /// The blend's (value offset, velocity offset) at local time `t`.
  private func blendOffset(at t: Double) -> (value: Value, velocity: Value) {
    guard blend > 0, t > 0, t < blend else { return (.zero, .zero) }
    let x = t / blend
    return (excessVelocity.scaled(by: blend * x * (1 - x) * (1 - x)), excessVelocity.scaled(by: (1 - x) * (1 - 3 * x)))
  }

  public func value(at t: Double) -> Value {
    from.interpolated(to: to, amount: source.progress(ofGroup: group, at: t + offset).progress)
      + blendOffset(at: t).value
  }

  public func velocity(at t: Double) -> Value {
    (to - from).scaled(by: source.progress(ofGroup: group, at: t + offset).rate) + velocityOffset(at: t, left: false)
  }

  public func value(before t: Double) -> Value {
    from.interpolated(to: to, amount: source.progress(ofGroup: group, before: t + offset).progress)
      + blendOffset(at: t).value
  }

  public func velocity(before t: Double) -> Value {
    (to - from).scaled(by: source.progress(ofGroup: group, before: t + offset).rate) + velocityOffset(at: t, left: true)
  }

  /// The blend's velocity at `t`; at 0 from the left nothing has blended yet, from the right the
  /// whole excess (the hand-over's velocity) applies.
  private func velocityOffset(at t: Double, left: Bool) -> Value {
    if t == 0 && blend > 0 { return left ? .zero : excessVelocity }
    return blendOffset(at: t).velocity
  }
}
