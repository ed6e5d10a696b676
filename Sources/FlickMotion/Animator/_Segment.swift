/// One animation occupying a key from `start` until `end` (internal to ``Animator``).
protocol _SegmentProtocol<Root>: Sendable {
  associatedtype Root
  var id: Int { get }
  var key: AnimationKey { get }
  var propertyName: String { get }
  /// The names of the properties it writes: its own, then those it drives.
  var writtenNames: [String] { get }
  /// Scene time the animation was added (its delay counts from here).
  var start: Double { get }
  /// Scene time the active part begins (after the delay).
  var begin: Double { get }
  /// When it would end by itself (`.infinity` if never).
  var naturalEnd: Double { get }
  /// When it actually ends (naturalEnd, or the time it was interrupted).
  var end: Double { get set }
  /// Whether it ended by itself (false when interrupted, removed or cancelled).
  var finished: Bool { get set }
  /// Scene time the value first reaches the target, if known.
  var reachTime: Double? { get }
  /// Chain membership, if any.
  var chain: (id: Int, group: Int)? { get }
  /// Whether the curve's values are finite numbers (at its start, middle and end).
  var hasFiniteValues: Bool { get }
  /// Iteration start times (1-based iteration counts) strictly inside the active interval.
  func repeatTimes(until limit: Double) -> [(Int, Double)]
  /// Writes the value at scene time `t` (clamped to the segment's end) into `root`.
  func write(_ root: inout Root, at t: Double)
  /// A printable value at `t`, for traces.
  func describeValue(at t: Double) -> String
  /// Runs the per-sample observers.
  func notifyChange(at t: Double)
  /// Runs the completion observer.
  func notifyCompletion(finished: Bool)
}

struct _Segment<Root: Sendable, Value: Animatable>: _SegmentProtocol {
  let id: Int
  let key: AnimationKey
  let property: AnimatableProperty<Root, Value>
  let curve: TimedAnimation<AnyAnimationCurve<Value>>
  let start: Double
  let naturalEnd: Double
  var end: Double
  var finished = true
  let chain: (id: Int, group: Int)?
  /// The reach time, found on first use: only event queries need it, and finding it costs a
  /// few hundred curve samples, so scheduling thousands of animations and sampling them stays
  /// cheap.
  private let reach = _ReplayBox<Double?>()
  let onChange: (@Sendable (Value, Value) -> Void)?
  let onComplete: (@Sendable (Bool) -> Void)?

  var propertyName: String { property.name }
  var writtenNames: [String] { [property.name] + property.alsoWrites }
  var begin: Double { start + curve.timing.beginTime }

  init(
    id: Int, key: AnimationKey, property: AnimatableProperty<Root, Value>, timing: MediaTiming,
    curve: AnyAnimationCurve<Value>, start: Double, chain: (id: Int, group: Int)?,
    onChange: (@Sendable (Value, Value) -> Void)?, onComplete: (@Sendable (Bool) -> Void)?
  ) {
    self.id = id
    self.key = key
    self.property = property
    self.curve = TimedAnimation(curve, timing: timing)
    self.start = start
    self.naturalEnd = start + self.curve.duration
    self.end = naturalEnd
    self.chain = chain
    self.onChange = onChange
    self.onComplete = onComplete
  }

  /// First time the value reaches the target, in the first iteration (nil when it never ends).
  var reachTime: Double? {
    reach.value {
      let base = curve.base
      let timing = curve.timing
      guard base.duration.isFinite, timing.speed > 0 else { return nil }
      return start + timing.beginTime + Self.firstCrossing(base) / timing.speed
    }
  }

  /// The first local time at which the curve's projection onto (from → final) reaches 1.
  static func firstCrossing(_ c: AnyAnimationCurve<Value>) -> Double {
    let d = c.duration
    let from = c.value(at: 0)
    let to = c.value(at: d)
    let axis = to - from
    // Already at the target (or no motion): reached at the start.
    if d <= 0 || axis.norm == 0 { return 0 }
    func progress(_ t: Double) -> Double { (c.value(at: t) - from).projection(onto: axis) }
    let n = 256
    var lo = 0.0
    for i in 1...n {
      let t = d * Double(i) / Double(n)
      if i == n { return d }
      if progress(t) >= 1 {
        var hi = t
        for _ in 0..<60 {
          let mid = (lo + hi) / 2
          if progress(mid) >= 1 { hi = mid } else { lo = mid }
        }
        return hi
      }
      lo = t
    }
    return d
  }

  /// Local time of scene time `t`, held at the end; exactly the curve's duration once it has
  /// ended by itself (`(start + d) − start` may round below `d`, short of the snapped end value),
  /// and 0 at its start. Both instants are reached within the boundary tolerance
  /// (``MediaTiming/hasReached(_:at:leftLimit:)``): the frame at 0.3 s is the end of a tween
  /// from 0.1 s lasting 0.2 s, and the start of an animation added then.
  func localTime(_ t: Double) -> Double {
    if end == naturalEnd && MediaTiming.hasReached(end, at: t) && curve.duration.isFinite { return curve.duration }
    return max(min(t, end) - start, 0)
  }

  func value(at t: Double) -> Value { curve.value(at: localTime(t)) }

  /// Velocity at `t`; zero from the end on.
  func velocity(at t: Double) -> Value {
    MediaTiming.hasReached(end, at: t) ? .zero : curve.velocity(at: max(t - start, 0))
  }

  /// The left limit of the value at `t` (the value just before `t`).
  func value(before t: Double) -> Value {
    MediaTiming.hasReached(end, at: t, leftLimit: true) ? curve.value(at: localTime(t)) : curve.value(before: t - start)
  }

  /// The left limit of the velocity at `t`: at its end (natural or cut) the velocity it had.
  func velocity(before t: Double) -> Value {
    MediaTiming.hasReached(end, at: t, leftLimit: true) ? .zero : curve.velocity(before: t - start)
  }

  func repeatTimes(until limit: Double) -> [(Int, Double)] {
    let d = curve.base.duration
    let timing = curve.timing
    guard d > 0, d.isFinite, timing.speed > 0,
      timing.repeatForever || timing.repeatCount > 1 || timing.autoreverses || timing.repeatDuration > d
    else { return [] }
    var out: [(Int, Double)] = []
    var k = 1
    while true {
      let t = begin + Double(k) * d / timing.speed
      if t >= min(end, naturalEnd) || t > limit || out.count > 100_000 { break }
      out.append((k, t))
      k += 1
    }
    return out
  }

  var hasFiniteValues: Bool {
    let base = curve.base
    let d = base.duration.isFinite ? base.duration : 1
    return [0, d / 2, d].allSatisfy { base.value(at: $0).norm.isFinite }
  }

  func write(_ root: inout Root, at t: Double) { property.write(&root, value(at: t)) }

  func describeValue(at t: Double) -> String { "\(value(at: t))" }

  func notifyChange(at t: Double) { onChange?(value(at: t), velocity(at: t)) }

  func notifyCompletion(finished: Bool) { onComplete?(finished) }
}
