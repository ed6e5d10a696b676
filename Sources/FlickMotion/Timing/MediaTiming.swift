/// Core Animation's `CAMediaTiming`, for any ``AnimationCurve``: when an animation starts, how fast
/// it runs, how often it repeats, whether it plays back, and what shows before and after.
///
/// Mapping (all times in seconds): active time `a = (parent − beginTime)·speed`, active duration
/// `A` (below); inside `0 ≤ a < A` the animation is active. With `timeOffset` the active time is
/// shifted and wraps inside `A` (`(a + timeOffset) mod A`, CA's "start part-way through"). The
/// simple duration `D` is the curve's ``AnimationCurve/duration``; iteration `k = ⌊a/D⌋` and
/// `u = a − k·D`; with `autoreverses` every odd iteration plays backwards (`u → D − u`).
///
/// `A` is `∞` with ``repeatForever``, else ``repeatDuration`` if > 0, else
/// `D · n · (autoreverses ? 2 : 1)` with `n` the ``repeatCount``, or 1 when it is 0; `n` may be
/// fractional, below 1 too (0.5 plays half the curve, as in Core Animation).
public struct MediaTiming: Sendable, Hashable, Codable {
  /// What an animation shows outside its active interval (`CAMediaTimingFillMode`).
  public enum FillMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Not applied outside the active interval.
    case removed
    /// Before the start, the start value is applied (from parent time 0).
    case backwards
    /// After the end, the final value holds.
    case forwards
    /// Both.
    case both

    /// Whether the start value shows before `beginTime`.
    public var fillsBackwards: Bool { self == .backwards || self == .both }
    /// Whether the end value holds after the end.
    public var fillsForwards: Bool { self == .forwards || self == .both }
  }

  /// Parent time at which the animation starts, seconds (a delay). Default 0; a value that is
  /// not finite counts as 0 (as in ``init(beginTime:speed:timeOffset:repeatCount:repeatDuration:repeatForever:autoreverses:fillMode:)``,
  /// which every assignment and decoding cleans the same way).
  public var beginTime: Double = 0 {
    didSet { beginTime = Self.cleanBeginTime(beginTime) }
  }
  /// Time scale (≥ 0): 2 plays twice as fast; 0 freezes at ``timeOffset`` (CA's pause). Default 1.
  public var speed: Double = 1 {
    didSet { speed = Self.cleanSpeed(speed) }
  }
  /// Offset added to the active time, seconds. Default 0.
  public var timeOffset: Double = 0 {
    didSet { timeOffset = Self.cleanTimeOffset(timeOffset) }
  }
  /// Number of iterations (fractional allowed, below 1 too: 0.5 plays half); 0 means 1. With
  /// autoreverses, one iteration is there and back. Default 0; `.infinity` sets
  /// ``repeatForever`` (and leaves 0 here).
  public var repeatCount: Double = 0 {
    didSet {
      if repeatCount == .infinity { repeatForever = true }
      repeatCount = Self.cleanRepeat(repeatCount)
    }
  }
  /// Total active length in seconds, overriding ``repeatCount`` when > 0. Default 0.
  public var repeatDuration: Double = 0 {
    didSet { repeatDuration = Self.cleanRepeat(repeatDuration) }
  }
  /// Repeat without end (Pop's `repeatForever`). Default false.
  public var repeatForever: Bool = false
  /// Play each iteration forwards then backwards. Default false.
  public var autoreverses: Bool = false
  /// Default ``FillMode/forwards``: Flick's scene holds the end value; before `beginTime` nothing
  /// is applied (CA's own default is `removed`).
  public var fillMode: FillMode = .forwards

  public init(
    beginTime: Double = 0, speed: Double = 1, timeOffset: Double = 0, repeatCount: Double = 0,
    repeatDuration: Double = 0, repeatForever: Bool = false, autoreverses: Bool = false,
    fillMode: FillMode = .forwards
  ) {
    self.beginTime = Self.cleanBeginTime(beginTime)
    self.speed = Self.cleanSpeed(speed)
    self.timeOffset = Self.cleanTimeOffset(timeOffset)
    self.repeatCount = Self.cleanRepeat(repeatCount)
    self.repeatDuration = Self.cleanRepeat(repeatDuration)
    self.repeatForever = repeatForever || repeatCount == .infinity
    self.autoreverses = autoreverses
    self.fillMode = fillMode
  }

  /// Decodes the fields and cleans them as ``init(beginTime:speed:timeOffset:repeatCount:repeatDuration:repeatForever:autoreverses:fillMode:)`` does.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      beginTime: try c.decode(Double.self, forKey: .beginTime), speed: try c.decode(Double.self, forKey: .speed),
      timeOffset: try c.decode(Double.self, forKey: .timeOffset),
      repeatCount: try c.decode(Double.self, forKey: .repeatCount),
      repeatDuration: try c.decode(Double.self, forKey: .repeatDuration),
      repeatForever: try c.decode(Bool.self, forKey: .repeatForever),
      autoreverses: try c.decode(Bool.self, forKey: .autoreverses),
      fillMode: try c.decode(FillMode.self, forKey: .fillMode))
  }

  // What the initialiser, every assignment and decoding keep: finite times, a speed ≥ 0 (1 when
  // not finite), repeats ≥ 0 (0 when not finite).
  private static func cleanBeginTime(_ v: Double) -> Double { v.isFinite ? v : 0 }
  private static func cleanSpeed(_ v: Double) -> Double { v.isFinite ? max(v, 0) : 1 }
  private static func cleanTimeOffset(_ v: Double) -> Double { v.isFinite ? v : 0 }
  private static func cleanRepeat(_ v: Double) -> Double { v.isFinite ? max(v, 0) : 0 }

  /// Local active length `A` for a curve of simple duration `d`, seconds (in the animation's own time).
  public func activeDuration(simpleDuration d: Double) -> Double {
    if repeatForever { return .infinity }
    if repeatDuration > 0 { return repeatDuration }
    return d * (repeatCount > 0 ? repeatCount : 1) * (autoreverses ? 2 : 1)
  }

  /// Parent time at which the active interval ends (`.infinity` if never).
  public func endTime(simpleDuration d: Double) -> Double {
    let a = activeDuration(simpleDuration: d)
    if a == 0 { return beginTime }
    if speed == 0 || !a.isFinite { return .infinity }
    return beginTime + a / speed
  }

  /// Where a parent time falls relative to the animation.
  public enum Phase: Sendable, Hashable {
    /// Before `beginTime`.
    case before
    /// Active: iteration index (0-based; with autoreverses each half counts), the curve's local
    /// time and whether this iteration plays backwards.
    case active(iteration: Int, localTime: Double, reversed: Bool)
    /// After the end; `localTime` is where the curve stopped (its last frame) and `reversed`
    /// whether the last iteration played backwards.
    case after(iteration: Int, localTime: Double, reversed: Bool)
  }

  /// How far apart (seconds, or units of local time) two times written in decimal seconds may be
  /// computed and still mean the same instant: a few ulps of the larger magnitude involved
  /// (`0.7 + 0.1` is 0.7999999999999999, one ulp off the written 0.8). Left limits snap to a
  /// boundary within it, so a join written at a tween's end, a repeat or a key time takes the
  /// motion arriving there.
  package static func boundaryTolerance(_ a: Double, _ b: Double) -> Double {
    4 * Swift.max(abs(a), abs(b), 1).ulp
  }

  /// Whether the time `t` has reached the instant `boundary` (an entry's start, an animation's
  /// end): the one rule every start and end in a scene is decided by. From the right (what shows
  /// at `t`), `t` at or after `boundary`, or before it by at most ``boundaryTolerance(_:_:)``:
  /// an entry placed after motions of 0.1 s and 0.2 s starts at 0.30000000000000004 and shows at
  /// the frame at 0.3 s. For a left limit (the motion arriving at `t`), `t` after `boundary` by
  /// more than that tolerance: an entry starting within it of `t` starts at `t`, so it is not
  /// part of what arrives there, and a motion ending within it is still arriving.
  package static func hasReached(_ boundary: Double, at t: Double, leftLimit: Bool = false) -> Bool {
    guard boundary.isFinite, t.isFinite else { return leftLimit ? t > boundary : t >= boundary }
    let tolerance = boundaryTolerance(t, boundary)
    return leftLimit ? t - boundary > tolerance : t - boundary >= -tolerance
  }

  /// Maps a parent time to a phase for a curve of simple duration `d`. With `leftLimit` it is
  /// the phase just before `parentTime`: at the begin time `.before`; at an iteration boundary
  /// (a repeat, the turn of an autoreverse, the wrap of a `timeOffset`, the end) the previous
  /// iteration at its last local time, `.active` at the end itself and `.after` only past it.
  /// Times within ``boundaryTolerance(_:_:)`` of a boundary count as on it, the begin time too
  /// (``hasReached(_:at:leftLimit:)``).
  public func phase(at parentTime: Double, simpleDuration d: Double, leftLimit: Bool = false) -> Phase {
    let activeLength = activeDuration(simpleDuration: d)
    // A begin time a few ulps after `parentTime` (a delay summed in decimals) is reached.
    guard Self.hasReached(beginTime, at: parentTime, leftLimit: leftLimit) else { return .before }
    var a = Swift.max(parentTime - beginTime, 0) * speed
    let noise = Self.boundaryTolerance(parentTime, beginTime) * speed
    if speed == 0 { a = 0 }
    let tolerance = noise + Self.boundaryTolerance(abs(a) + abs(timeOffset), d)
    let ended = leftLimit ? a > activeLength + tolerance : a >= activeLength
    // At and after the end the active time is its limit from below: the end of the active
    // duration shifted by `timeOffset` and wrapped like any other active time, so the fill holds
    // what the last frame showed (with an offset that is not where the curve ends).
    let atEnd = ended || a >= activeLength
    if activeLength.isFinite && activeLength > 0 {
      if atEnd { a = activeLength }
      if timeOffset != 0 {
        a = ((atEnd ? 0 : a) + timeOffset).truncatingRemainder(dividingBy: activeLength)
        if a < 0 { a += activeLength }
        // Just before the wrap, the end of the active duration.
        if (leftLimit || atEnd) && (a <= tolerance || activeLength - a <= tolerance) { a = activeLength }
      }
    } else if !activeLength.isFinite {
      a += timeOffset
    }
    guard d > 0, d.isFinite else {
      return ended
        ? .after(iteration: 0, localTime: d.isFinite ? d : 0, reversed: false)
        : .active(iteration: 0, localTime: max(a, 0), reversed: false)
    }
    var k = (a / d).rounded(.down)
    var u = a - k * d
    if leftLimit || (atEnd && timeOffset != 0) {
      if u <= tolerance && k > 0 {  // a boundary: the end of the previous iteration
        k -= 1
        u = d
      } else if d - u <= tolerance {
        u = d
      }
    } else if ended && u == 0 && k > 0 {  // an exact end belongs to the previous iteration
      k -= 1
      u = d
    }
    // Far from 0 (an offset of −10²⁰ repeating forever) `k` is beyond exact integers: the
    // iteration saturates and its parity comes from the remainder of a there-and-back period.
    let iteration = k >= Double(Int.max) ? Int.max : k <= Double(Int.min) ? Int.min : Int(k)
    var odd = iteration % 2 != 0
    if abs(k) >= 0x1p52 {
      let period = 2 * d
      var r = a.truncatingRemainder(dividingBy: period)
      if r < 0 { r += period }
      odd = r >= d
      u = min(max(odd ? r - d : r, 0), d)
    }
    let reversed = autoreverses && odd
    if reversed { u = d - u }
    return ended
      ? .after(iteration: iteration, localTime: u, reversed: reversed)
      : .active(iteration: iteration, localTime: u, reversed: reversed)
  }
}
