/// UIKit's `UIViewPropertyAnimator` on a virtual clock: a duration and a timing curve drive
/// property animations that can be started, paused, scrubbed, reversed, stopped and finished.
///
/// **State machine** (`UIViewAnimatingState`; illegal calls throw ``AnimatorError``):
///
/// | call | inactive | active, running | active, paused | stopped |
/// |---|---|---|---|---|
/// | ``startAnimation(at:)`` | → running | no change | → running | throws |
/// | ``startAnimation(afterDelay:at:)`` | → active, runs after the delay | throws | throws | throws |
/// | ``pauseAnimation(at:)`` | → active, paused | → paused | no change | throws |
/// | ``setFractionComplete(_:at:)`` | → active, paused | throws | sets | throws |
/// | ``setReversed(_:at:)`` | sets | reverses live | sets | ignored |
/// | ``stopAnimation(withoutFinishing:at:)`` | throws | true → inactive, false → stopped | same | throws |
/// | ``finishAnimation(to:at:)`` | throws | throws | throws | → inactive, completions run |
/// | ``continueAnimation(withTimingParameters:durationFactor:at:)`` | throws | → running | → running | throws |
/// | ``addAnimation(_:to:delayFactor:at:)`` | adds | adds (remaining time) | adds | throws |
///
/// Natural end: the animator becomes inactive and its completions run with `.end` (`.start`
/// when reversed) — unless ``pausesOnCompletion`` is set, in which case it stays active and
/// paused at the end and no completion runs. `stopAnimation(withoutFinishing: true)` leaves the
/// properties where they are and never runs completions.
///
/// **Time fraction and progress.** ``fractionComplete(at:)`` is the time fraction `u ∈ 0…1`;
/// the animated progress is the timing curve at `u` (a spring may overshoot 1). Scrubbing with
/// ``scrubsLinearly`` (default true) shows progress = `u` while paused; when the animator runs
/// again the rest of the curve is rescaled to continue from the progress on screen (no jump).
/// Animations added while running cover the remaining progress; `delayFactor` delays them by a
/// fraction of the remaining time, as in UIKit.
///
/// **Pure in time.** Every call carries its scene time (non-decreasing); the animator derives the
/// whole timeline from these calls, so ``sample(at:)``, ``fractionComplete(at:)`` and
/// ``state(at:)`` are pure functions of time: a template script such as "pause at 1.2 s,
/// reverse at 2 s, scrub to 0.3 at 2.5 s" renders any frame alone.
public struct PropertyAnimator<Root: Sendable>: Sendable {
  /// The original duration in seconds (fixed at init, as in UIKit).
  public let duration: Double
  /// The timing curve given at init.
  public let timingParameters: TimingParameters
  /// The model before the animator touched anything.
  public let initialModel: Root
  /// Scrubbing maps `fractionComplete` linearly to progress (UIKit default true).
  public var scrubsLinearly = true
  /// Stay active and paused at the end instead of completing (UIKit default false).
  public var pausesOnCompletion = false

  /// One property animation: from (captured when added) to a target; its own progress `q`
  /// follows the animator as ``Track/Run`` says.
  struct Track: Sendable {
    /// (root, q, t) → writes from + (to − from)·q, plus the hand-over's momentum still fading
    /// at scene time t (``handoverBase``).
    let write: @Sendable (inout Root, Double, Double) -> Void
    let run: Run
    /// The animated property's name (``AnimatableProperty/name``) and the scene time the
    /// animation was added: what a ``FlickScene/Scene`` orders its animations of one property by.
    var name = ""
    var start = -Double.infinity
    /// When the animator finished with this track (then it holds `retiredQ`).
    var retiredAt: Double?
    var retiredQ = 0.0
    /// The scene time whose hand-over momentum a retired track keeps: when it was stopped where
    /// it was, that instant's; finished at the start or the end, none (`.infinity`).
    var retiredBlendAt = Double.infinity

    /// How a track's progress follows the animator.
    enum Run: Sendable {
      /// Added to an inactive animator without a delay: the animator's own progress.
      case follows
      /// Added with a delay or to a started animator (UIKit's `addAnimations` on a running
      /// animator): the timing curve in force when it was added, played afresh from its start
      /// over the time fraction `start` → `end` (1, or 0 when added while reversed). It starts
      /// from rest (with a curve that does) at `start`, and ends with the animator.
      case fresh(start: Double, end: Double, curve: ProgressCurve)
    }
  }

  /// How progress behaves from `start` on.
  enum Motion: Sendable {
    /// Running from time fraction `u0` (progress `p0`) toward `u = 1` (or 0 reversed). With a
    /// `takeover` curve (``continueAnimation(withTimingParameters:durationFactor:at:)``) the
    /// progress is that curve at the seconds since `start` (it starts from the progress and
    /// velocity on screen); otherwise it is `curve`, rescaled to continue from `p0`.
    case running(
      u0: Double, p0: Double, reversed: Bool, curve: ProgressCurve, seconds: Double,
      takeover: AnyAnimationCurve<Double>?)
    /// Held at (u, p).
    case held(u: Double, p: Double)
  }

  struct Segment: Sendable {
    var start: Double
    var motion: Motion
    var state: State
    var tracksVisible: Int
    /// A running motion's time fraction as a curve of the seconds since `start` instead of the
    /// straight `u0 ± elapsed/seconds`: set when a `continue` takes over a scrub that was still
    /// moving the fraction, so it starts at that rate and reaches the destination at the same end.
    var fractionTakeover: AnyAnimationCurve<Double>? = nil
  }

  var segments: [Segment] = []
  var tracks: [Track] = []
  var completionHandlers: [@Sendable (Position) -> Void] = []
  /// (time, position) of each completion, in order.
  public internal(set) var completionTimes: [(time: Double, position: Position)] = []
  var lastTime = -Double.infinity
  var reversed = false
  var currentCurve: ProgressCurve
  /// The timing the animator runs with now (the init's, or the last `continue`'s).
  var currentParameters: TimingParameters
  var currentSeconds: Double
  var firedCompletions = 0
  /// What the properties show at a scene time with the given animator (this one, as it is when
  /// an animation is added) among a ``FlickScene/Scene``'s other animations, when the animator
  /// runs inside one: each animation added then starts from the value on screen and carries the
  /// velocity it had (UIKit's additive animations, docs/motion.md "Over a moving property"). Nil
  /// for an animator of its own: an animation starts from the value in this animator, at rest.
  package var handoverBase: (@Sendable (_ t: Double, _ animator: PropertyAnimator) -> Root)? = nil
  /// Why the duration given to the initialiser is not usable (negative or not finite; the
  /// animator then lasts 0 s), or nil. ``FlickScene/Scene/add(_:)`` records it as a scene error.
  package let durationProblem: String?

  /// An animator lasting `duration` seconds (≥ 0) with a cubic or spring timing curve, over `model`.
  public init(duration: Double, timingParameters: TimingParameters = .cubic(.easeInEaseOut), model: Root) {
    self.duration = duration.isFinite ? max(duration, 0) : 0
    durationProblem =
      duration.isFinite && duration >= 0
      ? nil : "the duration must be a finite number of seconds ≥ 0, found \(duration)"
    self.timingParameters = timingParameters
    self.initialModel = model
    currentCurve = timingParameters.curve(duration: self.duration)
    currentParameters = timingParameters
    currentSeconds = self.duration
    segments = [Segment(start: -.infinity, motion: .held(u: 0, p: 0), state: .inactive, tracksVisible: 0)]
  }
}
