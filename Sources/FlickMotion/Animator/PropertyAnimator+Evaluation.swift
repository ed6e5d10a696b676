extension PropertyAnimator {
  // MARK: - Evaluation (pure)

  /// Seconds of the running motion until it reaches its end (u = 1, or 0 reversed).
  func remaining(_ m: Motion) -> Double {
    guard case .running(let u0, _, let reversed, _, let seconds, _) = m else { return .infinity }
    return (reversed ? u0 : 1 - u0) * seconds
  }

  /// (time fraction, progress, reached the end) of segment `s` at time `t`.
  func evaluate(_ s: Segment, at t: Double) -> (u: Double, p: Double, ended: Bool) {
    switch s.motion {
    case .held(let u, let p): return (u, p, false)
    case .running(let u0, let p0, let reversed, let curve, let seconds, let takeover):
      let elapsed = max(0, t - s.start)
      // The end instant computed in decimals (a join at 0.5 plus 0.1 s is 0.6, 0.0999… s in) is the end.
      let ended = elapsed >= remaining(s.motion) - MediaTiming.boundaryTolerance(t, s.start)
      let uEnd = reversed ? 0.0 : 1.0
      let pEnd = uEnd
      if ended || seconds <= 0 { return (uEnd, pEnd, true) }
      let u = reversed ? u0 - elapsed / seconds : u0 + elapsed / seconds
      if let takeover { return (u, takeover.value(at: elapsed), false) }
      let c0 = curve.progress(u0)
      let cEnd = curve.progress(uEnd)
      let denominator = c0 - cEnd
      let p = denominator == 0 ? pEnd : pEnd + (p0 - pEnd) * (curve.progress(u) - cEnd) / denominator
      return (u, p, false)
    }
  }

  /// d(progress)/dt of segment `s` at `t` (the right limit), progress per second.
  private func progressRate(_ s: Segment, at t: Double) -> Double {
    guard case .running(let u0, let p0, let reversed, let curve, let seconds, let takeover) = s.motion else { return 0 }
    let elapsed = max(0, t - s.start)
    if elapsed >= remaining(s.motion) - MediaTiming.boundaryTolerance(t, s.start) || seconds <= 0 { return 0 }
    if let takeover { return takeover.velocity(at: elapsed) }
    let u = reversed ? u0 - elapsed / seconds : u0 + elapsed / seconds
    let uEnd = reversed ? 0.0 : 1.0
    let denominator = curve.progress(u0) - curve.progress(uEnd)
    guard denominator != 0 else { return 0 }
    return (p0 - uEnd) / denominator * curve.slope(u) * (reversed ? -1 : 1) / seconds
  }

  /// d(progress)/dt at scene time `t`, progress per second (0 while held or ended): with
  /// ``progress(at:)`` it gives every property's velocity, `(to − from) · rate`.
  public func progressVelocity(at t: Double) -> Double { progressRate(segments[segmentIndex(at: t)], at: t) }

  /// The left limit of ``progressVelocity(at:)`` at `t`: the rate just before a control call or
  /// the end at `t` (what ``continueAnimation(withTimingParameters:durationFactor:at:)`` continues).
  public func progressVelocity(before t: Double) -> Double {
    var i = 0
    for (j, s) in segments.enumerated() where s.start < t { i = j }
    let s = segments[i]
    guard case .running = s.motion else { return 0 }
    if t - s.start > remaining(s.motion) { return 0 }
    return leftRate(s, at: t)
  }

  /// d(time fraction)/dt of segment `s` at `t` (the right limit): ±1/seconds while running.
  func fractionRate(_ s: Segment, at t: Double) -> Double {
    guard case .running(_, _, let reversed, _, let seconds, _) = s.motion, seconds > 0 else { return 0 }
    return t - s.start >= remaining(s.motion) ? 0 : (reversed ? -1 : 1) / seconds
  }

  /// The left limit of the time fraction's rate at `t`.
  func fractionRate(before t: Double) -> Double {
    var i = 0
    for (j, s) in segments.enumerated() where s.start < t { i = j }
    let s = segments[i]
    guard case .running(_, _, let reversed, _, let seconds, _) = s.motion, seconds > 0 else { return 0 }
    return t - s.start > remaining(s.motion) ? 0 : (reversed ? -1 : 1) / seconds
  }

  /// The left limit of the time fraction at `t`.
  func fraction(before t: Double) -> Double {
    var i = 0
    for (j, s) in segments.enumerated() where s.start < t { i = j }
    return evaluate(segments[i], at: min(t, segments[i].start + remaining(segments[i].motion)).nextDown).u
  }

  /// The left limit of progress at `t`.
  public func progress(before t: Double) -> Double {
    var i = 0
    for (j, s) in segments.enumerated() where s.start < t { i = j }
    return evaluate(segments[i], at: min(t, segments[i].start + remaining(segments[i].motion)).nextDown).p
  }

  /// The rate of a running segment just before `t` (its end velocity at its end).
  func leftRate(_ s: Segment, at t: Double) -> Double {
    guard case .running(_, _, _, _, _, let takeover) = s.motion else { return 0 }
    let elapsed = max(0, t - s.start)
    if let takeover { return takeover.velocity(before: elapsed) }
    return progressRate(s, at: s.start + min(elapsed, remaining(s.motion)).nextDown)
  }

  func segmentIndex(at t: Double) -> Int {
    var i = 0
    for (j, s) in segments.enumerated() where s.start <= t { i = j }
    return i
  }

  /// The state at scene time `t`.
  public func state(at t: Double) -> State {
    let s = segments[segmentIndex(at: t)]
    if evaluate(s, at: t).ended { return pausesOnCompletion ? .active : .inactive }
    return s.state
  }

  /// Whether the animation is running (started, not paused, not in its start delay) at `t`.
  public func isRunning(at t: Double) -> Bool {
    let s = segments[segmentIndex(at: t)]
    if case .running = s.motion { return !evaluate(s, at: t).ended }
    return false
  }

  /// `fractionComplete` at `t`: the time fraction 0…1 (reversed runs go back toward 0).
  public func fractionComplete(at t: Double) -> Double { evaluate(segments[segmentIndex(at: t)], at: t).u }

  /// The animated progress at `t` (the timing curve's value; may overshoot with springs).
  public func progress(at t: Double) -> Double { evaluate(segments[segmentIndex(at: t)], at: t).p }

  /// The model at `t`: every property animation written at the progress of that instant.
  public func sample(at t: Double) -> Root {
    let s = segments[segmentIndex(at: t)]
    let e = evaluate(s, at: t)
    var root = initialModel
    for (i, track) in tracks.enumerated() where i < s.tracksVisible || track.retiredAt.map({ $0 <= t }) == true {
      if let at = track.retiredAt, at <= t {
        track.write(&root, track.retiredQ)
      } else if i < s.tracksVisible {
        track.write(&root, track.q(u: e.u, p: e.p))
      }
    }
    return root
  }

  /// Every completion (time, position) up to and including `t`, with the natural end of the
  /// last run if it falls by then.
  public func completions(through t: Double) -> [(time: Double, position: Position)] {
    var out = completionTimes.filter { $0.time <= t }
    if let last = segments.last, case .running(_, _, let reversed, _, _, _) = last.motion, !pausesOnCompletion {
      let end = last.start + remaining(last.motion)
      if end <= t { out.append((end, reversed ? .start : .end)) }
    }
    return out
  }
}
