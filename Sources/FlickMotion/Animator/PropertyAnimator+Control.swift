extension PropertyAnimator {
  // MARK: - Evaluation (pure)

  /// Seconds of the running motion until it reaches its end (u = 1, or 0 reversed).
  private func remaining(_ m: Motion) -> Double {
    guard case .running(let u0, _, let reversed, _, let seconds, _) = m else { return .infinity }
    return (reversed ? u0 : 1 - u0) * seconds
  }

  /// (time fraction, progress, reached the end) of segment `s` at time `t`.
  func evaluate(_ s: Segment, at t: Double) -> (u: Double, p: Double, ended: Bool) {
    switch s.motion {
    case .held(let u, let p): return (u, p, false)
    case .running(let u0, let p0, let reversed, let curve, let seconds, let takeover):
      let elapsed = max(0, t - s.start)
      let ended = elapsed >= remaining(s.motion)
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
    if elapsed >= remaining(s.motion) || seconds <= 0 { return 0 }
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

  /// The left limit of progress at `t`.
  public func progress(before t: Double) -> Double {
    var i = 0
    for (j, s) in segments.enumerated() where s.start < t { i = j }
    return evaluate(segments[i], at: min(t, segments[i].start + remaining(segments[i].motion)).nextDown).p
  }

  /// The rate of a running segment just before `t` (its end velocity at its end).
  private func leftRate(_ s: Segment, at t: Double) -> Double {
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
    let p = evaluate(s, at: t).p
    var root = initialModel
    for (i, track) in tracks.enumerated() where i < s.tracksVisible || track.retiredAt.map({ $0 <= t }) == true {
      if let at = track.retiredAt, at <= t {
        track.write(&root, track.retiredQ)
      } else if i < s.tracksVisible {
        track.write(&root, track.q(p))
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

  // MARK: - Control

  /// Brings the script up to `t`: drops anything scheduled after it and records a natural end
  /// that happened before it.
  private mutating func settle(_ t: Double) throws(AnimatorError) {
    guard t.isFinite else { throw AnimatorError("control time must be finite, found \(t)") }
    guard t >= lastTime else {
      throw AnimatorError("control calls must come in time order: \(t) s is before the previous call at \(lastTime) s")
    }
    lastTime = t
    segments.removeAll { $0.start > t }
    guard let last = segments.last, case .running(_, _, let reversed, _, _, _) = last.motion else { return }
    let end = last.start + remaining(last.motion)
    guard end <= t else { return }
    let pEnd = reversed ? 0.0 : 1.0
    if pausesOnCompletion {
      segments.append(
        Segment(start: end, motion: .held(u: pEnd, p: pEnd), state: .active, tracksVisible: last.tracksVisible))
    } else {
      retire(at: end, p: pEnd, count: last.tracksVisible)
      completionTimes.append((end, reversed ? .start : .end))
      segments.append(Segment(start: end, motion: .held(u: 0, p: 0), state: .inactive, tracksVisible: 0))
      self.reversed = false
    }
  }

  private mutating func retire(at t: Double, p: Double?, q fixed: Double? = nil, count: Int) {
    for i in 0..<min(count, tracks.count) where tracks[i].retiredAt == nil {
      tracks[i].retiredAt = t
      tracks[i].retiredQ = fixed ?? tracks[i].q(p ?? 0)
    }
  }

  private var current: Segment { segments[segments.count - 1] }

  private func now(_ t: Double) -> (u: Double, p: Double, running: Bool) {
    let e = evaluate(current, at: t)
    if case .running = current.motion { return (e.u, e.p, true) }
    return (e.u, e.p, false)
  }

  private mutating func run(from t: Double, state: State = .active) {
    let (u, p, _) = now(t)
    segments.append(
      Segment(
        start: t,
        motion: .running(u0: u, p0: p, reversed: reversed, curve: currentCurve, seconds: currentSeconds, takeover: nil),
        state: state, tracksVisible: current.tracksVisible))
  }

  /// Runs from `t` with `parameters` taking over from the progress and velocity on screen, toward
  /// the current destination (1, or 0 reversed), in `seconds`.
  private mutating func takeOver(
    from t: Double, parameters: TimingParameters, seconds: Double, scrubVelocity: Double?
  ) {
    let (u, p, running) = now(t)
    // The velocity of the motion in force at t: a pause or reverse at this same instant counts
    // (pause + reverse + continue at one time starts at rest and heads straight for the start);
    // paused, the velocity of a scrub that moved the progress right up to t.
    let v = running ? leftRate(current, at: t) : scrubVelocity ?? 0
    let curve = parameters.takeover(from: p, velocity: v, to: reversed ? 0 : 1, seconds: seconds)
    segments.append(
      Segment(
        start: t,
        motion: .running(
          u0: u, p0: p, reversed: reversed, curve: currentCurve, seconds: currentSeconds, takeover: curve),
        state: .active, tracksVisible: current.tracksVisible))
  }

  private mutating func hold(at t: Double, u: Double? = nil, p: Double? = nil, state: State) {
    let e = now(t)
    segments.append(
      Segment(start: t, motion: .held(u: u ?? e.u, p: p ?? e.p), state: state, tracksVisible: current.tracksVisible))
  }

  /// `startAnimation()`: runs from the current fraction. Throws when stopped.
  public mutating func startAnimation(at t: Double) throws(AnimatorError) {
    try settle(t)
    switch current.state {
    case .stopped:
      throw AnimatorError(
        "startAnimation at \(t) s: a stopped animator cannot restart; call finishAnimation(at:) first")
    case .inactive, .active:
      if now(t).running { return }
      run(from: t)
    }
  }

  /// `startAnimation(afterDelay:)`: only from inactive; the animator is active at once and runs after `delay` seconds.
  public mutating func startAnimation(afterDelay delay: Double, at t: Double) throws(AnimatorError) {
    try settle(t)
    guard current.state == .inactive else {
      throw AnimatorError(
        "startAnimation(afterDelay:) at \(t) s needs an inactive animator; it is "
          + "\(quoted: current.state)")
    }
    guard delay.isFinite, delay >= 0 else { throw AnimatorError("the start delay must be seconds ≥ 0, found \(delay)") }
    hold(at: t, state: .active)
    run(from: t + delay)
    lastTime = t
  }

  /// `pauseAnimation()`: holds at the current fraction (inactive → active, paused).
  public mutating func pauseAnimation(at t: Double) throws(AnimatorError) {
    try settle(t)
    guard current.state != .stopped else {
      throw AnimatorError("pauseAnimation at \(t) s: the animator is stopped; only finishAnimation(at:) is allowed")
    }
    if !now(t).running && current.state == .active { return }
    hold(at: t, state: .active)
  }

  /// Sets `fractionComplete` (clamped to 0…1) while paused or inactive (which makes it active, paused).
  public mutating func setFractionComplete(_ fraction: Double, at t: Double) throws(AnimatorError) {
    try settle(t)
    guard current.state != .stopped else {
      throw AnimatorError("fractionComplete at \(t) s: the animator is stopped; only finishAnimation(at:) is allowed")
    }
    guard !now(t).running else {
      throw AnimatorError("fractionComplete at \(t) s: the animator is running; pause it before scrubbing")
    }
    guard fraction.isFinite else { throw AnimatorError("fractionComplete must be a number in 0…1, found \(fraction)") }
    let u = min(max(fraction, 0), 1)
    hold(at: t, u: u, p: scrubsLinearly ? u : currentCurve.progress(u), state: .active)
  }

  /// Sets `isReversed`: a running animator turns around on the spot; ignored when stopped.
  public mutating func setReversed(_ value: Bool, at t: Double) throws(AnimatorError) {
    try settle(t)
    guard current.state != .stopped, value != reversed else { return }
    reversed = value
    if now(t).running { run(from: t) }
  }

  /// `isReversed` at the latest control call.
  public var isReversed: Bool { reversed }

  /// `stopAnimation(_ withoutFinishing:)`: true → inactive with the properties where they are
  /// and no completions; false → stopped, waiting for ``finishAnimation(at:time:)``.
  public mutating func stopAnimation(withoutFinishing: Bool, at t: Double) throws(AnimatorError) {
    try settle(t)
    guard current.state == .active else {
      throw AnimatorError("stopAnimation at \(t) s needs an active animator; it is \(quoted: current.state)")
    }
    let e = now(t)
    if withoutFinishing {
      retire(at: t, p: e.p, count: current.tracksVisible)
      segments.append(Segment(start: t, motion: .held(u: 0, p: 0), state: .inactive, tracksVisible: 0))
      reversed = false
    } else {
      hold(at: t, state: .stopped)
    }
  }

  /// `finishAnimation(at:)`: legal only when stopped; moves the properties to the end, the
  /// start or leaves them, becomes inactive and runs the completions with `position`.
  @available(*, deprecated, renamed: "finishAnimation(to:at:)", message: "at: is a time in every other call")
  public mutating func finishAnimation(at position: Position, time t: Double) throws(AnimatorError) {
    try _finishAnimation(at: position, time: t)
  }

  mutating func _finishAnimation(at position: Position, time t: Double) throws(AnimatorError) {
    try settle(t)
    guard current.state == .stopped else {
      throw AnimatorError(
        "finishAnimation(at: .\(position)) at \(t) s needs a stopped animator (call stopAnimation(withoutFinishing: false) first); it is \(quoted: current.state)"
      )
    }
    let e = now(t)
    switch position {
    case .end: retire(at: t, p: nil, q: 1, count: current.tracksVisible)
    case .start: retire(at: t, p: nil, q: 0, count: current.tracksVisible)
    case .current: retire(at: t, p: e.p, count: current.tracksVisible)
    }
    completionTimes.append((t, position))
    segments.append(Segment(start: t, motion: .held(u: 0, p: 0), state: .inactive, tracksVisible: 0))
    reversed = false
  }

  /// `continueAnimation(withTimingParameters:durationFactor:)`: runs the rest with a new timing
  /// (nil keeps the current one), from paused, running or reversed. As in UIKit the new timing
  /// *takes over*: it starts from the progress on screen **and** its velocity (0 when paused; the
  /// live velocity when running or just reversed) and heads for the current destination (the end,
  /// or the start when reversed), so value and velocity are continuous at the join. The part
  /// that is left takes `durationFactor ×` the original duration ("as if started from its current
  /// position with a new duration"). Active only.
  ///
  /// Cubic timing takes over as a ``ContinuingTween`` along the curve; a spring as a
  /// ``SpringAnimation`` from the current progress with the current velocity plus its own
  /// `initialVelocity` (`.spring(dampingRatio:)` tuned to settle in the time left).
  public mutating func continueAnimation(
    withTimingParameters parameters: TimingParameters?, durationFactor: Double, at t: Double
  ) throws(AnimatorError) {
    try continueAnimation(withTimingParameters: parameters, durationFactor: durationFactor, scrubVelocity: nil, at: t)
  }

  /// ``continueAnimation(withTimingParameters:durationFactor:at:)`` after a scrub that was still
  /// moving the progress at `t` (a finger gliding a slider and letting go): a paused animator's
  /// new timing takes over `scrubVelocity` (progress per second) instead of starting at rest, as
  /// UIKit apps pass the gesture's velocity in the timing parameters. Running, the animator's
  /// own velocity is taken and `scrubVelocity` is ignored.
  package mutating func continueAnimation(
    withTimingParameters parameters: TimingParameters?, durationFactor: Double, scrubVelocity: Double?, at t: Double
  ) throws(AnimatorError) {
    try settle(t)
    guard current.state == .active else {
      throw AnimatorError("continueAnimation at \(t) s needs an active animator; it is \(quoted: current.state)")
    }
    guard durationFactor.isFinite, durationFactor >= 0 else {
      throw AnimatorError("durationFactor must be ≥ 0, found \(durationFactor)")
    }
    // The running segment maps a full 0…1 span onto `currentSeconds`; scale it so that the
    // fraction still to go takes durationFactor × duration.
    let u = fractionComplete(at: t)
    let left = reversed ? u : 1 - u
    let seconds = duration * durationFactor
    currentSeconds = left > 0 ? seconds / left : seconds
    if let parameters {
      currentParameters = parameters
      currentCurve = parameters.curve(duration: currentSeconds)
    }
    takeOver(from: t, parameters: currentParameters, seconds: left > 0 ? seconds : 0, scrubVelocity: scrubVelocity)
  }

  /// `addAnimations(_:delayFactor:)` for one property: animates it from its value at `t` to
  /// `target`, ending with the animator. As in UIKit, `delayFactor` (0…1) delays its start by that
  /// fraction of the animator's remaining *time* (0.5 with 1 s to go: it starts 0.5 s later);
  /// from there it follows the rest of the animator's progress. (With a spring that overshoots,
  /// where progress is not monotonic in time, the delay is a fraction of the remaining progress.)
  public mutating func addAnimation<Value: Animatable>(
    _ property: AnimatableProperty<Root, Value>, to target: Value, delayFactor: Double = 0, at t: Double
  ) throws(AnimatorError) {
    try settle(t)
    guard current.state != .stopped else {
      throw AnimatorError("addAnimations at \(t) s: the animator is stopped")
    }
    guard delayFactor.isFinite, (0...1).contains(delayFactor) else {
      throw AnimatorError("delayFactor must be in 0…1, found \(delayFactor)")
    }
    let from = property.read(sample(at: t))
    let e = now(t)
    let start =
      current.state == .inactive
      ? progressStart(u: 0, p: 0, delayFactor: delayFactor)
      : progressStart(u: e.u, p: e.p, delayFactor: delayFactor)
    let write: @Sendable (inout Root, Double) -> Void = { root, q in
      property.write(&root, from.interpolated(to: target, amount: q))
    }
    tracks.append(Track(write: write, progressStart: start))
    var copy = current
    copy.start = t
    if case .running = copy.motion {
      let e = now(t)
      if case .running(_, _, _, _, _, let takeover?) = copy.motion {
        // Same motion, re-anchored at t (the takeover curve's clock starts at its own start).
        let shift = t - current.start
        copy.motion = .running(
          u0: e.u, p0: e.p, reversed: reversed, curve: currentCurve, seconds: currentSeconds,
          takeover: AnyAnimationCurve(ShiftedCurve(base: takeover, shift: shift)))
      } else {
        copy.motion = .running(
          u0: e.u, p0: e.p, reversed: reversed, curve: currentCurve, seconds: currentSeconds, takeover: nil)
      }
    }
    copy.tracksVisible = tracks.count
    segments.append(copy)
  }

  /// The animator progress at which an animation added at time fraction `u` (progress `p`)
  /// starts, `delayFactor` of the remaining time later, if the current curve then runs on.
  private func progressStart(u: Double, p: Double, delayFactor: Double) -> Double {
    let fallback = p + delayFactor * (1 - p)
    guard delayFactor > 0 else { return p }
    let uEnd = reversed ? 0.0 : 1.0
    let us = u + delayFactor * (uEnd - u)
    let c0 = currentCurve.progress(u)
    let cEnd = currentCurve.progress(uEnd)
    guard c0 != cEnd else { return fallback }
    let start = uEnd + (p - uEnd) * (currentCurve.progress(us) - cEnd) / (c0 - cEnd)
    // Progress must lie between now and the end for the animation to run from its start.
    guard start.isFinite, start >= min(p, uEnd), start <= max(p, uEnd), start < 1 else { return fallback }
    return start
  }

  /// `addCompletion(_:)`: run with the final position when the animator completes.
  public mutating func addCompletion(_ completion: @escaping @Sendable (Position) -> Void) {
    completionHandlers.append(completion)
  }

  /// Plays the clock to `t`, running completions whose time has come, in order.
  ///
  /// - Returns: The positions completed in `(previous, t]`.
  @discardableResult
  public mutating func advance(to t: Double) -> [Position] {
    let all = completions(through: t)
    let new = all.dropFirst(firedCompletions)
    firedCompletions = all.count
    for c in new { for h in completionHandlers { h(c.position) } }
    return new.map(\.position)
  }
}

extension PropertyAnimator.Track {
  /// The track's own progress for animator progress `p`.
  func q(_ p: Double) -> Double {
    if progressStart >= 1 { return p >= 1 ? 1 : 0 }
    let q = (p - progressStart) / (1 - progressStart)
    return progressStart > 0 ? max(q, 0) : q
  }
}
