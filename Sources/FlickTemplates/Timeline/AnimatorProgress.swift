import FlickMotion

/// The progress of a property animator over time, with `UIViewPropertyAnimator` semantics,
/// computed up front from its scripted events so that it is a pure function of time.
///
/// `fractionComplete` (0…1) advances at `1/duration` per second while running (or backwards
/// when reversed), stops while paused or stopped, and jumps or glides when scrubbed. The value
/// progress is the animator's timing curve applied to it (`scrubsLinearly` false: the curve
/// applies while scrubbing too, so pausing never jumps).
struct AnimatorProgress: Sendable {
  /// One stretch of constant behaviour, starting at `start` (seconds since the animator's begin).
  enum Segment: Sendable {
    /// `fractionComplete` stays at `f`.
    case hold(f: Double)
    /// `fractionComplete = f0 + rate·(t − start)`, clamped to 0…1 (rate < 0 when reversed).
    case run(f0: Double, rate: Double)
    /// A scripted scrub from `f0` to `f1` over `duration` seconds along `curve`.
    case scrub(f0: Double, f1: Double, duration: Double, curve: TimingFunction)
  }

  /// The scripted commands.
  enum Command: String, CaseIterable, Sendable {
    case start, pause, reverse, scrub, `continue`, stop, finish
  }

  /// Segment start times (ascending) and the segments.
  private(set) var starts: [Double] = []
  private(set) var segments: [Segment] = []
  /// Fraction → value progress (the timing curve over its own duration).
  let mapping: AnyAnimationCurve<Double>
  /// The animator's duration in seconds.
  let duration: Double
  /// When the progress stops changing for good (seconds since begin).
  private(set) var end: Double = 0
  /// When the first event happens (seconds since begin): the animator applies from then on.
  var firstEventTime: Double = 0

  init(duration: Double, mapping: AnyAnimationCurve<Double>) {
    self.duration = duration
    self.mapping = mapping
  }

  /// `fractionComplete` at `t` seconds since the animator's begin.
  func fraction(at t: Double) -> Double {
    guard var i = starts.lastIndex(where: { $0 <= t }) else { return segments.isEmpty ? 0 : fraction(0, at: 0) }
    i = min(i, segments.count - 1)
    return fraction(i, at: t - starts[i])
  }

  private func fraction(_ i: Int, at local: Double) -> Double {
    switch segments[i] {
    case .hold(let f): return f
    case .run(let f0, let rate): return min(max(f0 + rate * local, 0), 1)
    case .scrub(let f0, let f1, let d, let curve):
      let x = d > 0 ? min(max(local / d, 0), 1) : 1
      return f0 + (f1 - f0) * curve.progress(at: x)
    }
  }

  /// The value progress at `t`: 0 is every property's start value, 1 its target (a spring
  /// timing may overshoot).
  func progress(at t: Double) -> Double {
    let f = fraction(at: t)
    guard mapping.duration > 0, mapping.duration.isFinite else { return f }
    return mapping.value(at: f * mapping.duration)
  }

  // MARK: - Building

  /// The state while the events are replayed.
  struct State {
    var time = 0.0
    var f = 0.0
    var running = false
    var reversed = false
    var rate: Double
    var stopped = false
    var finished = false
    /// When an ongoing scrub or delayed start settles; events may not come earlier.
    var busyUntil = 0.0
  }

  mutating func push(_ segment: Segment, at t: Double) {
    if let last = starts.last, last == t, !segments.isEmpty {
      segments[segments.count - 1] = segment
    } else {
      starts.append(t)
      segments.append(segment)
    }
  }

  /// Moves the replay to `t`: where `fractionComplete` got to, and whether a run finished.
  mutating func advance(_ s: inout State, to t: Double) {
    guard t > s.time else { return }
    if s.running {
      let velocity = s.reversed ? -s.rate : s.rate
      let bound = s.reversed ? 0.0 : 1.0
      let hit = velocity == 0 ? Double.infinity : s.time + (bound - s.f) / velocity
      if hit <= t {
        s.f = bound
        s.running = false
        s.finished = true
        push(.hold(f: bound), at: hit)
        end = hit
      } else {
        s.f += velocity * (t - s.time)
      }
    } else {
      s.f = fraction(at: t)
    }
    s.time = t
  }

  /// Closes the replay: when does the progress stop changing.
  mutating func finish(_ s: inout State) {
    if s.running {
      let velocity = s.reversed ? -s.rate : s.rate
      let bound = s.reversed ? 0.0 : 1.0
      let hit = s.time + (bound - s.f) / velocity
      push(.hold(f: bound), at: hit)
      end = hit
    } else {
      end = max(end, s.busyUntil, s.time)
    }
  }
}
