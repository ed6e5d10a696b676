extension PropertyAnimator {
  // MARK: - Control

  /// Brings the script up to `t`: drops anything scheduled after it and records a natural end
  /// that happened by then. Times compare as every start and end in a scene does
  /// (``MediaTiming/hasReached(_:at:leftLimit:)``): a call at 0.3 s and a run started at 0.1 s for
  /// 0.2 s (ending at 0.30000000000000004) meet at the same instant, after the end.
  private mutating func settle(_ t: Double) throws(AnimatorError) {
    guard t.isFinite else { throw AnimatorError("control time must be finite, found \(t)") }
    guard MediaTiming.hasReached(lastTime, at: t) else {
      throw AnimatorError("control calls must come in time order: \(t) s is before the previous call at \(lastTime) s")
    }
    lastTime = Swift.max(lastTime, t)
    segments.removeAll { !MediaTiming.hasReached($0.start, at: t) }
    guard let last = segments.last, case .running(_, _, let reversed, _, _, _) = last.motion else { return }
    let end = last.start + remaining(last.motion)
    guard MediaTiming.hasReached(end, at: t) else { return }
    let pEnd = reversed ? 0.0 : 1.0
    if pausesOnCompletion {
      segments.append(
        Segment(start: end, motion: .held(u: pEnd, p: pEnd), state: .active, tracksVisible: last.tracksVisible))
    } else {
      retire(at: end, u: pEnd, p: pEnd, count: last.tracksVisible)
      completionTimes.append((end, reversed ? .start : .end))
      segments.append(Segment(start: end, motion: .held(u: 0, p: 0), state: .inactive, tracksVisible: 0))
      self.reversed = false
    }
  }

  private mutating func retire(at t: Double, u: Double = 0, p: Double = 0, q fixed: Double? = nil, count: Int) {
    for i in 0..<min(count, tracks.count) where tracks[i].retiredAt == nil {
      tracks[i].retiredAt = t
      tracks[i].retiredQ = fixed ?? tracks[i].q(u: u, p: p)
      tracks[i].retiredBlendAt = fixed == nil ? t : .infinity
    }
  }

  var current: Segment { segments[segments.count - 1] }

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
    from t: Double, parameters: TimingParameters, seconds: Double, scrub: ScrubMotion?
  ) {
    let (u, p, running) = now(t)
    // The velocity of the motion in force at t: a pause or reverse at this same instant counts
    // (pause + reverse + continue at one time starts at rest and heads straight for the start);
    // paused, the velocity of a scrub that moved the progress right up to t.
    let v = running ? leftRate(current, at: t) : scrub?.progressRate ?? 0
    let target = reversed ? 0.0 : 1.0
    let curve = parameters.takeover(from: p, velocity: v, to: target, seconds: seconds)
    var segment = Segment(
      start: t,
      motion: .running(u0: u, p0: p, reversed: reversed, curve: currentCurve, seconds: currentSeconds, takeover: curve),
      state: .active, tracksVisible: current.tracksVisible)
    // A scrub still moving the time fraction hands its rate over too (the animations added with
    // a delay follow the fraction): the fraction eases from that rate onto its straight run and
    // reaches the destination at the same instant.
    if !running, let rate = scrub?.fractionRate, rate != 0, seconds > 0 {
      segment.fractionTakeover = AnyAnimationCurve(
        ContinuingTween(
          BasicAnimation(from: u, to: target, duration: remaining(segment.motion), timingFunction: .linear),
          initialVelocity: rate))
    }
    segments.append(segment)
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
        "startAnimation at \(t) s: a stopped animator cannot restart; call finishAnimation(to:at:) first")
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
      throw AnimatorError("pauseAnimation at \(t) s: the animator is stopped; only finishAnimation(to:at:) is allowed")
    }
    if !now(t).running && current.state == .active { return }
    hold(at: t, state: .active)
  }

  /// Sets `fractionComplete` (clamped to 0…1) while paused or inactive (which makes it active, paused).
  public mutating func setFractionComplete(_ fraction: Double, at t: Double) throws(AnimatorError) {
    try settle(t)
    guard current.state != .stopped else {
      throw AnimatorError(
        "fractionComplete at \(t) s: the animator is stopped; only finishAnimation(to:at:) is allowed")
    }
    guard !now(t).running else {
      throw AnimatorError("fractionComplete at \(t) s: the animator is running; pause it before scrubbing")
    }
    guard fraction.isFinite else { throw AnimatorError("fractionComplete must be a number in 0…1, found \(fraction)") }
    let u = min(max(fraction, 0), 1)
    hold(at: t, u: u, p: scrubsLinearly ? u : currentCurve.progress(u), state: .active)
  }

  /// ``setFractionComplete(_:at:)`` showing `progress` at the fraction instead of what
  /// ``scrubsLinearly`` maps it to: where a scrub gliding from the progress on screen is at `t`
  /// when it stops (the glide moves the fraction and the progress side by side).
  package mutating func setFractionComplete(_ fraction: Double, progress: Double, at t: Double) throws(AnimatorError) {
    try setFractionComplete(fraction, at: t)
    guard progress.isFinite else { throw AnimatorError("the progress shown must be a finite number") }
    segments[segments.count - 1].motion = .held(u: min(max(fraction, 0), 1), p: progress)
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
  /// and no completions; false → stopped, waiting for ``finishAnimation(to:at:)``.
  public mutating func stopAnimation(withoutFinishing: Bool, at t: Double) throws(AnimatorError) {
    try settle(t)
    guard current.state == .active else {
      throw AnimatorError("stopAnimation at \(t) s needs an active animator; it is \(quoted: current.state)")
    }
    let e = now(t)
    if withoutFinishing {
      retire(at: t, u: e.u, p: e.p, count: current.tracksVisible)
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
    case .end: retire(at: t, q: 1, count: current.tracksVisible)
    case .start: retire(at: t, q: 0, count: current.tracksVisible)
    case .current: retire(at: t, u: e.u, p: e.p, count: current.tracksVisible)
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
    try continueAnimation(withTimingParameters: parameters, durationFactor: durationFactor, scrub: nil, at: t)
  }

  /// ``continueAnimation(withTimingParameters:durationFactor:at:)`` after a scrub that was still
  /// moving the progress at `t` (a finger gliding a slider and letting go): a paused animator's
  /// new timing takes over the scrub's progress rate instead of starting at rest, as UIKit apps
  /// pass the gesture's velocity in the timing parameters, and its time fraction eases from the
  /// scrub's fraction rate onto the rest of the run (so animations added with a delay keep their
  /// velocity too). Running, the animator's own velocity is taken and `scrub` is ignored.
  package mutating func continueAnimation(
    withTimingParameters parameters: TimingParameters?, durationFactor: Double, scrub: ScrubMotion?, at t: Double
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
    takeOver(from: t, parameters: currentParameters, seconds: left > 0 ? seconds : 0, scrub: scrub)
  }

  /// `addAnimations(_:delayFactor:)` for one property: animates it from its value at `t` to
  /// `target`, ending with the animator.
  ///
  /// - Added to an inactive animator without a delay, it follows the animator's progress.
  /// - Otherwise, as in UIKit, it waits `delayFactor` (0…1) × the animator's remaining *time*
  ///   (0.5 with 1 s to go: 0.5 s), then plays the animator's timing curve afresh over the time
  ///   left, from its value and — with a curve that starts at rest, as the default
  ///   ease-in-ease-out does — from rest. It follows the animator's time fraction, so pausing,
  ///   scrubbing and reversing move it too (reversed far enough, it goes back to where it
  ///   started). It keeps the curve in force when it was added through a later `continue`.
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
    let (from, excess, blend) = handover(of: property, at: t)
    let e = now(t)
    let run: Track.Run
    if current.state == .inactive && delayFactor == 0 {
      run = .follows
    } else {
      let u = current.state == .inactive ? 0 : e.u
      let end = reversed && current.state != .inactive ? 0.0 : 1.0
      run = .fresh(start: u + delayFactor * (end - u), end: end, curve: currentCurve)
    }
    let write: @Sendable (inout Root, Double, Double) -> Void = { root, q, time in
      let value = from.interpolated(to: target, amount: q)
      property.write(&root, blend > 0 ? value + Self.fading(excess, over: blend, at: time - t) : value)
    }
    tracks.append(Track(write: write, run: run, name: property.name, start: t))
    var copy = current
    copy.start = t
    if case .running = copy.motion {
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
    copy.fractionTakeover = copy.fractionTakeover.map {
      AnyAnimationCurve(ShiftedCurve(base: $0, shift: t - current.start))
    }
    copy.tracksVisible = tracks.count
    segments.append(copy)
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
