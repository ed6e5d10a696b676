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
      let u = s.fractionTakeover?.value(at: elapsed) ?? (reversed ? u0 - elapsed / seconds : u0 + elapsed / seconds)
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
  /// the end at `t` (what ``continueAnimation(withTimingParameters:durationFactor:at:)`` continues;
  /// at the natural end, the rate the motion arrives with).
  public func progressVelocity(before t: Double) -> Double { leftLimit(at: t).rate }

  /// d(time fraction)/dt of segment `s` at `t` (the right limit): ±1/seconds while running.
  func fractionRate(_ s: Segment, at t: Double) -> Double {
    guard case .running(_, _, let reversed, _, let seconds, _) = s.motion, seconds > 0 else { return 0 }
    let elapsed = max(0, t - s.start)
    if elapsed >= remaining(s.motion) - MediaTiming.boundaryTolerance(t, s.start) { return 0 }
    return s.fractionTakeover?.velocity(at: elapsed) ?? (reversed ? -1 : 1) / seconds
  }

  /// The left limit of the time fraction's rate at `t`.
  func fractionRate(before t: Double) -> Double { leftLimit(at: t).uRate }

  /// The left limit of the time fraction at `t`.
  func fraction(before t: Double) -> Double { leftLimit(at: t).u }

  /// The left limit of progress at `t` (at the natural end, the progress the motion arrives
  /// with: 1 for a cubic curve, a spring's not quite settled value for a spring curve).
  public func progress(before t: Double) -> Double { leftLimit(at: t).p }

  /// The rate of a running segment just before `t` (its end velocity at its end).
  func leftRate(_ s: Segment, at t: Double) -> Double { evaluate(s, before: t).rate }

  /// The segment in force just before `t`: the last one starting before it. A segment starting
  /// within ``MediaTiming/boundaryTolerance(_:_:)`` of `t` starts at `t` (the natural end
  /// computed in decimals, 0.5 + 0.5 s, is the instant an entry placed after it reads).
  func leftSegmentIndex(at t: Double) -> Int {
    var i = 0
    for (j, s) in segments.enumerated() where MediaTiming.hasReached(s.start, at: t, leftLimit: true) { i = j }
    return i
  }

  /// (time fraction, progress, their rates per second) just before `t`.
  func leftLimit(at t: Double) -> (u: Double, p: Double, rate: Double, uRate: Double) {
    evaluate(segments[leftSegmentIndex(at: t)], before: t)
  }

  /// The left limit of segment `s` at `t`: (u, p, dp/dt, du/dt) as the motion approaches `t`.
  /// At its end (within the boundary tolerance, on either side) that is the motion arriving
  /// there — the curve's value and slope at the end, not the ended state at rest; past it, the
  /// ended state.
  func evaluate(_ s: Segment, before t: Double) -> (u: Double, p: Double, rate: Double, uRate: Double) {
    guard case .running(let u0, let p0, let reversed, let curve, let seconds, let takeover) = s.motion else {
      let e = evaluate(s, at: t)
      return (e.u, e.p, 0, 0)
    }
    let uEnd = reversed ? 0.0 : 1.0
    let rem = remaining(s.motion)
    let elapsed = max(0, t - s.start)
    let tolerance = MediaTiming.boundaryTolerance(t, s.start)
    if seconds <= 0 || elapsed > rem + tolerance { return (uEnd, uEnd, 0, 0) }
    let arriving = elapsed >= rem - tolerance
    let sign = reversed ? -1.0 : 1.0
    var uRate = sign / seconds
    var u = arriving ? uEnd : u0 + sign * elapsed / seconds
    if let f = s.fractionTakeover {
      let x = arriving ? min(rem, f.duration) : elapsed
      (u, uRate) = (arriving ? uEnd : f.value(before: x), f.velocity(before: x))
    }
    if let takeover {
      // The takeover's own end is the animator's (to rounding): read it there, not past it.
      let x = arriving ? (takeover.duration >= rem - tolerance ? min(rem, takeover.duration) : rem) : elapsed
      return (u, takeover.value(before: x), takeover.velocity(before: x), uRate)
    }
    let cEnd = curve.progress(uEnd)
    let denominator = curve.progress(u0) - cEnd
    guard denominator != 0 else { return (u, uEnd, 0, uRate) }
    let k = (p0 - uEnd) / denominator
    let c = arriving && !reversed ? curve.progress(arriving: uEnd) : curve.progress(u)
    let slope = arriving && !reversed ? curve.slope(arriving: uEnd) : curve.slope(u)
    return (u, uEnd + k * (c - cEnd), k * slope * uRate, uRate)
  }

  /// The segment in force at `t`: the last one started by then, a start within
  /// ``MediaTiming/boundaryTolerance(_:_:)`` after `t` counting as started
  /// (``MediaTiming/hasReached(_:at:leftLimit:)``).
  func segmentIndex(at t: Double) -> Int {
    var i = 0
    for (j, s) in segments.enumerated() where MediaTiming.hasReached(s.start, at: t) { i = j }
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
    for (i, track) in tracks.enumerated()
    where i < s.tracksVisible || track.retiredAt.map({ MediaTiming.hasReached($0, at: t) }) == true {
      if let at = track.retiredAt, MediaTiming.hasReached(at, at: t) {
        track.write(&root, track.retiredQ, track.retiredBlendAt)
      } else if i < s.tracksVisible {
        track.write(&root, track.q(u: e.u, p: e.p), t)
      }
    }
    return root
  }

  /// Every completion (time, position) up to and including `t`, with the natural end of the
  /// last run if it falls by then (reached within the boundary tolerance,
  /// ``MediaTiming/hasReached(_:at:leftLimit:)``).
  public func completions(through t: Double) -> [(time: Double, position: Position)] {
    var out = completionTimes.filter { MediaTiming.hasReached($0.time, at: t) }
    if let last = segments.last, case .running(_, _, let reversed, _, _, _) = last.motion, !pausesOnCompletion {
      let end = last.start + remaining(last.motion)
      if MediaTiming.hasReached(end, at: t) { out.append((end, reversed ? .start : .end)) }
    }
    return out
  }
}
