/// How a ``KeyframeAnimation`` computes values between keys (`CAAnimationCalculationMode`).
package enum KeyframeCalculationMode: String, Sendable, Hashable, Codable, CaseIterable {
  case linear, discrete, paced, cubic
}

/// Core Animation's `CAKeyframeAnimation`: values at key times, with per-segment timing curves.
///
/// Key times are fractions of ``duration`` in `0…1`, non-decreasing, starting at 0 and ending at
/// 1 (CA's rules). Calculation modes:
/// - ``CalculationMode/linear``: straight segments, each eased by its timing function;
/// - ``CalculationMode/discrete``: each value holds until the next key time (`keyTimes` may have
///   one more entry than `values`, as in CA);
/// - ``CalculationMode/paced``: key times and timing functions are ignored; times are spaced so
///   the speed is constant along the polyline;
/// - ``CalculationMode/cubic``: a Catmull-Rom spline through the values (CA's cubic with zero
///   tension, continuity and bias) at the key times, so velocity is continuous at the keys.
package struct KeyframeAnimation<Value: Animatable>: AnimationCurve, Equatable {
  /// How values between keys are computed (`CAAnimationCalculationMode`).
  package typealias CalculationMode = KeyframeCalculationMode

  /// The key values, in order.
  package let values: [Value]
  /// The resolved key times (fractions of the duration, one per value; discrete: one more).
  package let keyTimes: [Double]
  /// Per-segment timing curves (one per segment; linear mode only).
  package let timingFunctions: [TimingFunction]
  /// The calculation mode.
  package let calculationMode: CalculationMode
  /// Length in seconds.
  package let duration: Double
  /// Catmull-Rom tangents (value per unit of progress), cubic mode only.
  let tangents: [Value]

  /// A keyframe animation.
  ///
  /// - Parameters:
  ///   - values: At least one value.
  ///   - keyTimes: `nil` spaces keys evenly; otherwise one per value (discrete: or one more),
  ///     in `0…1`, non-decreasing, first 0 and last 1.
  ///   - timingFunctions: `nil` or empty means linear; one function applies to every segment;
  ///     otherwise one per segment.
  ///   - duration: Seconds (≥ 0).
  /// - Throws: ``MotionError`` describing the first violated rule.
  package init(
    values: [Value], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction]? = nil,
    calculationMode: CalculationMode = .linear, duration: Double
  ) throws(MotionError) {
    guard !values.isEmpty else { throw MotionError("keyframes need at least one value") }
    guard duration.isFinite, duration >= 0 else {
      throw MotionError("keyframe duration must be a finite number of seconds ≥ 0, found \(duration)")
    }
    let n = values.count
    var times: [Double]
    switch calculationMode {
    case .paced:
      var lengths = [0.0]
      for i in 1..<max(n, 1) where n > 1 {
        lengths.append(lengths[i - 1] + (values[i] - values[i - 1]).norm)
      }
      let total = lengths.last ?? 0
      guard total.isFinite else {
        throw MotionError("the values are too far apart to pace: the distance through them is not a finite number")
      }
      times = n == 1 ? [0] : lengths.enumerated().map { i, l in total > 0 ? l / total : Double(i) / Double(n - 1) }
    case .discrete:
      if let keyTimes {
        guard keyTimes.count == n || keyTimes.count == n + 1 else {
          throw MotionError("discrete keyframes need \(n) or \(n + 1) key times, found \(keyTimes.count)")
        }
        times = keyTimes
      } else {
        times = (0...n).map { Double($0) / Double(n) }
      }
    case .linear, .cubic:
      if let keyTimes {
        guard keyTimes.count == n else {
          throw MotionError("\(n) keyframe values need \(n) key times, found \(keyTimes.count)")
        }
        times = keyTimes
      } else {
        times = n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
      }
    }
    for (i, t) in times.enumerated() {
      guard t.isFinite, (0...1).contains(t) else { throw MotionError("key time \(i) must be in 0…1, found \(t)") }
      if i > 0 && t < times[i - 1] {
        throw MotionError(
          "key times must not decrease: key time \(i) (\(t)) < key time \(i - 1) "
            + "(\(quoted: times[i - 1]))")
      }
    }
    if calculationMode != .discrete && n > 1 && (times.first != 0 || times.last != 1) {
      throw MotionError(
        "key times must start at 0 and end at 1, found "
          + "\(quoted: times.first ?? 0)…\(quoted: times.last ?? 0)")
    }
    let segments = max(n - 1, 0)
    var curves = timingFunctions ?? []
    if curves.count == 1 && segments > 1 { curves = Array(repeating: curves[0], count: segments) }
    guard curves.isEmpty || curves.count == segments || calculationMode != .linear else {
      throw MotionError(
        "\(quoted: segments) keyframe segments need 1 or \(quoted: segments) timing functions, "
          + "found \(curves.count)")
    }
    if calculationMode != .linear { curves = [] }
    self.values = values
    self.keyTimes = times
    self.timingFunctions = curves
    self.calculationMode = calculationMode
    self.duration = duration
    if calculationMode == .cubic && n > 1 {
      tangents = (0..<n).map { i in
        let a = max(i - 1, 0)
        let b = min(i + 1, n - 1)
        let dt = times[b] - times[a]
        return dt > 0 ? (values[b] - values[a]).scaled(by: 1 / dt) : .zero
      }
    } else {
      tangents = []
    }
  }

  /// The segment containing progress `p` and the fraction through it; `left` takes the segment
  /// that ends at a key time `p` is on (the left limit there). A time written in decimals lands
  /// a few ulps off a key time (0.21 s of 0.7 s is 0.30000000000000004 for the key 0.3): within
  /// ``MediaTiming/boundaryTolerance(_:_:)`` of a key time, `p` is that key time.
  private func segment(_ p: Double, left: Bool) -> (index: Int, fraction: Double, length: Double) {
    let p = snapped(p)
    var lo = 0
    var hi = keyTimes.count - 1
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if left ? keyTimes[mid] < p : keyTimes[mid] <= p { lo = mid } else { hi = mid }
    }
    let length = keyTimes[hi] - keyTimes[lo]
    return (lo, length > 0 ? min(max((p - keyTimes[lo]) / length, 0), 1) : 1, length)
  }

  /// `p`, or the key time it is within rounding of.
  private func snapped(_ p: Double) -> Double {
    let tolerance = MediaTiming.boundaryTolerance(p, 1)
    return keyTimes.first { abs($0 - p) <= tolerance } ?? p
  }

  package func value(at t: Double) -> Value { value(at: t, left: false) }

  /// The left limit: at a key time, the segment arriving there (a discrete value before it changes).
  package func value(before t: Double) -> Value { t <= 0 ? values[0] : value(at: t, left: true) }

  package func velocity(at t: Double) -> Value {
    t >= duration || t < 0 ? .zero : velocity(at: t, left: false)
  }

  /// The left limit: at a key time (and at ``duration``), the velocity the segment arrives with.
  package func velocity(before t: Double) -> Value {
    t > duration || t <= 0 ? .zero : velocity(at: t, left: true)
  }

  private func value(at t: Double, left: Bool) -> Value {
    let n = values.count
    if n == 1 { return values[0] }
    if duration <= 0 || t > duration || (!left && t >= duration) { return values[n - 1] }
    let p = max(t, 0) / duration
    if calculationMode == .discrete {
      let key = snapped(p)
      var index = 0
      for i in 0..<n where left ? keyTimes[i] < key : keyTimes[i] <= key { index = i }
      return values[index]
    }
    let (i, f, length) = segment(p, left: left)
    if i >= n - 1 { return values[n - 1] }
    switch calculationMode {
    case .cubic:
      let f2 = f * f
      let f3 = f2 * f
      let h00 = 2 * f3 - 3 * f2 + 1
      let h10 = f3 - 2 * f2 + f
      let h01 = -2 * f3 + 3 * f2
      let h11 = f3 - f2
      return values[i].scaled(by: h00) + tangents[i].scaled(by: h10 * length)
        + values[i + 1].scaled(by: h01) + tangents[i + 1].scaled(by: h11 * length)
    default:
      let eased = timingFunctions.isEmpty ? f : timingFunctions[i].progress(at: f)
      return values[i].interpolated(to: values[i + 1], amount: eased)
    }
  }

  private func velocity(at t: Double, left: Bool) -> Value {
    let n = values.count
    if n == 1 || duration <= 0 || calculationMode == .discrete { return .zero }
    let (i, f, length) = segment(t / duration, left: left)
    if i >= n - 1 || length <= 0 { return .zero }
    // d/dt = d/df · (1/length) · (1/duration)
    let scale = 1 / (length * duration)
    switch calculationMode {
    case .cubic:
      let f2 = f * f
      let d00 = 6 * f2 - 6 * f
      let d10 = 3 * f2 - 4 * f + 1
      let d01 = -6 * f2 + 6 * f
      let d11 = 3 * f2 - 2 * f
      return
        (values[i].scaled(by: d00) + tangents[i].scaled(by: d10 * length)
        + values[i + 1].scaled(by: d01) + tangents[i + 1].scaled(by: d11 * length)).scaled(by: scale)
    default:
      let slope = timingFunctions.isEmpty ? 1 : timingFunctions[i].slope(at: f)
      return (values[i + 1] - values[i]).scaled(by: slope * scale)
    }
  }
}
