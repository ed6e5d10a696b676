/// A parsed animation description — the names `flick curve` and templates share.
///
///     spring                                   Core Animation's default (mass 1, stiffness 100, damping 10)
///     spring(stiffness: 200, damping: 10, mass: 1)
///     spring(tension: 342.1, friction: 30.49, mass: 1)     Pop dynamics
///     spring(bounciness: 8, speed: 12)         Pop designer parameters (defaults 4, 12)
///     spring(duration: 0.5, bounce: 0.3)       SwiftUI (defaults 0.5, 0)
///     spring(response: 0.55, dampingRatio: 0.825)
///     spring(visualDuration: 0.3, bounce: 0.3) framer-motion
///     smooth | snappy | bouncy [(duration: 0.5, extraBounce: 0)]   SwiftUI presets
///       spring options: velocity (units/s, + toward the target), normalizedVelocity (UIKit), threshold
///     decay(velocity: 1000, deceleration: 0.998, threshold: 1, min: 0, max: 300)
///     linear | easeIn | easeOut | easeInEaseOut | default | backIn | backOut | backInOut | anticipate
///       | bounceIn | bounceOut | bounceInOut | elasticIn | elasticOut | elasticInOut  [(duration: 0.4)]
///     cubicBezier(0.25, 0.1, 0.25, 1, duration: 0.4)
///     steps(4, jumpStart, duration: 0.4)       positions jumpStart | jumpEnd | jumpNone | jumpBoth
///     tween(curve: easeOut, duration: 0.3)
///     keyframes(values: [0, 1.2, 0.9, 1], keyTimes: [0, 0.4, 0.7, 1], curves: [easeOut], mode: linear, duration: 0.8)
///     constant | constant(0.5)                  held at a fraction (default 1: the end value, a `set`)
///     drag(points: [0, 0.4, 1], curve: easeIn, duration: 0.5)   a finger through the points (DragCurve)
///     spin(to: 3.49, curve: easeInEaseOut, duration: 1.2)   speed eased to 3.49 units/s, then held (SpinCurve)
///
/// Keyframe `values`, `constant` and drag `points` are progress fractions (0 = from, 1 = to), so the same spec animates any
/// value type. Every spec also takes Core Animation timing: `delay`, `repeatCount`,
/// `repeatForever`, `autoreverses`, `timeOffset`, `fill` (removed | backwards | forwards | both).
/// Omitted tween and keyframe durations are 0.4 s (Pop's default).
package struct AnimationSpec: Sendable, Hashable, CustomStringConvertible {
  /// The motion itself.
  package enum Kind: Sendable, Hashable {
    /// A spring. `velocity` is in units/s along the direction of motion (positive toward the
    /// target, as in `CASpringAnimation`); `normalizedVelocity` is UIKit's fraction of the
    /// distance per second and wins when set.
    case spring(SpringParameters, velocity: Double, normalizedVelocity: Double?, restThreshold: Double?)
    /// A Pop decay; `bounds` turns on the rubber band (scalars only).
    case decay(velocity: Double, deceleration: Double, threshold: Double, bounds: ClosedRange<Double>?)
    /// A tween along a timing curve.
    case tween(TimingFunction, duration: Double)
    /// Keyframes at progress fractions.
    case keyframes(
      values: [Double], keyTimes: [Double]?, curves: [TimingFunction]?,
      mode: KeyframeCalculationMode, duration: Double)
    /// A value held at a progress fraction (0 = from, 1 = to): a ``ConstantCurve``.
    case constant(value: Double)
    /// A scripted finger through points at progress fractions, paced by `curve` over `duration`
    /// seconds: a ``DragCurve``.
    case drag(points: [Double], curve: TimingFunction, duration: Double)
    /// A speed eased from the hand-over's velocity to `to` units/s along `curve` over `duration`
    /// seconds, then held: a ``SpinCurve`` (number properties only).
    case spin(to: Double, curve: TimingFunction, duration: Double)
  }

  /// The motion.
  package var kind: Kind
  /// Core Animation timing, when any timing option was given.
  package var timing: MediaTiming?
  /// The text this spec was parsed from (for a spec built from arguments, their printed form:
  /// for display only, never parsed again).
  package var source: String
  /// What the author wrote, as typed facts (never found by searching ``source``): the
  /// ``CurveBuilder`` decides defaults from them.
  package var written: Written
  /// How a spring is evaluated (`stepping: pop, fps: 120`): ``Stepping/analytic`` by default.
  package var stepping: Stepping = .analytic

  /// Facts about what a spec states, for the parts whose default depends on the context.
  package struct Written: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// `velocity` or `normalizedVelocity` was given: a spring or decay starts with it instead of
    /// the hand-over's velocity.
    package static let velocity = Written(rawValue: 1)
    /// `threshold` was given: it wins over the property's visibility threshold.
    package static let threshold = Written(rawValue: 2)
    /// A spring gave `dampingRatio` without `response`: as an animator's timing it is UIKit's
    /// `UISpringTimingParameters(dampingRatio:)`, which settles within the animator's duration.
    package static let dampingRatioWithoutResponse = Written(rawValue: 4)
  }

  /// Whether the spec gave its velocity (`velocity`, `normalizedVelocity`). When it did not, a
  /// spring or decay built from a ``Handoff`` (``CurveBuilder``) takes the hand-over's velocity:
  /// a release keeps the motion it had.
  package var velocityIsGiven: Bool {
    get { written.contains(.velocity) }
    set { if newValue { written.insert(.velocity) } else { written.remove(.velocity) } }
  }

  /// A spec built in code: `written` states what counts as given (by default nothing: a spring
  /// or decay takes the hand-over's velocity, a threshold the property's).
  package init(kind: Kind, timing: MediaTiming? = nil, source: String = "", written: Written = []) {
    self.kind = kind
    self.timing = timing
    self.source = source
    self.written = written
  }

  /// How specs are read.
  package struct Options: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// A `decay` may omit its velocity: it takes the hand-over's velocity when it starts (a
    /// release). ``velocityIsGiven`` tells whether it was given.
    package static let velocityFromHandoff = Options(rawValue: 1)
  }

  package var description: String { source }

  /// Every top-level name a spec can start with.
  package static let names: [String] =
    [
      "spring", "smooth", "snappy", "bouncy", "decay", "tween", "cubicBezier", "steps", "keyframes", "constant", "drag",
      "spin",
    ]
    + TimingFunction.named.keys.sorted()

  /// Parses a spec; the error carries the column (``MotionError/column``) and what was expected.
  package init(parsing text: String, options: Options = []) throws(MotionError) {
    let expression = try SpecExpression.parse(text)
    try self.init(expression, options: options)
    source = text
  }

  /// Builds a spec from a parsed expression.
  package init(_ expression: SpecExpression, options: Options = []) throws(MotionError) {
    guard case .call(let name, let arguments, let column) = expression else {
      throw MotionError(
        "expected an animation name such as spring, decay, easeOut or keyframes", column: expression.column)
    }
    var args = try SpecArguments(name: name, arguments: arguments ?? [], column: column)
    let timing = try args.timing()
    var written: Written = []
    if args.has("velocity") || args.has("normalizedVelocity") { written.insert(.velocity) }
    if args.has("threshold") { written.insert(.threshold) }
    if args.has("dampingRatio") && !args.has("response") { written.insert(.dampingRatioWithoutResponse) }
    let stepping = try args.stepping()
    let kind = try Self.kind(name: name, args: &args, column: column, options: options)
    if stepping != .analytic, case .spring = kind {
    } else if stepping != .analytic {
      throw MotionError(
        "'stepping' applies to springs only; \(quoted: name) is evaluated exactly", column: column, argument: "stepping"
      )
    }
    try args.finish()
    self.init(kind: kind, timing: timing, source: expression.description, written: written)
    self.stepping = stepping
    try checkFinite(column: column)
  }

  /// Builds a spec from typed arguments, without text: the one builder behind spec strings,
  /// template object forms (`spring: { bounciness: 8, speed: 12 }`) and Swift.
  ///
  ///     try AnimationSpec(name: "spring", arguments: [
  ///       SpecArgument(label: "tension", value: .number(300)),
  ///       SpecArgument(label: "friction", value: .number(12)),
  ///     ])
  ///
  /// The same rules and messages as parsing apply; errors carry ``MotionError/argument`` (the
  /// label at fault) and no column (there is no text).
  package init(name: String, arguments: [SpecArgument], options: Options = []) throws(MotionError) {
    try self.init(.call(name: name, arguments: arguments, column: 0), options: options)
  }
}
