// Where each curve's value may jump or turn (``AnimationCurve/turns(after:)``), for the search of
// a template's `when` crossing. TimedAnimation, keyframes and drags are in their own files.

extension SpringSolver {
  /// The time between two turns of a spring's value: half a period of its damped oscillation
  /// (its velocity is a decaying sinusoid, zero every π/ω_d); a critically or over-damped spring
  /// turns at most once (its velocity is a sum of two exponentials).
  package var turnSpacing: Double {
    regime == .underdamped && frequency > 0 ? Double.pi / frequency : .infinity
  }
}

extension SpringAnimation {
  public func turns(after t: Double) -> CurveTurns { CurveTurns(next: .infinity, spacing: solver.turnSpacing) }
  public func turns(before t: Double) -> CurveTurns { CurveTurns(next: -.infinity, spacing: solver.turnSpacing) }
}

extension RubberBandDecay {
  /// The decay goes one way; at the bound the edge spring takes over.
  package func turns(after t: Double) -> CurveTurns {
    guard let crossingTime, let edgeSpring else { return .none(forward: true) }
    if t < crossingTime { return CurveTurns(next: crossingTime) }
    return edgeSpring.turns(after: t - crossingTime).mapped(origin: crossingTime, scale: 1)
  }

  package func turns(before t: Double) -> CurveTurns {
    guard let crossingTime, let edgeSpring else { return .none(forward: false) }
    if t <= crossingTime { return .none(forward: false) }
    return CurveTurns(next: crossingTime, spacing: edgeSpring.turns(before: t - crossingTime).spacing)
  }
}

extension SteppedSpring {
  /// A stepped spring holds each frame: it jumps at every frame boundary and is flat in between.
  package func turns(after t: Double) -> CurveTurns {
    var n = (max(t, 0) * fps + 1e-7).rounded(.down) + 1
    if (n - 1e-7) / fps <= t { n += 1 }
    return CurveTurns(next: n >= Double(frames.count) ? .infinity : (n - 1e-7) / fps)
  }

  package func turns(before t: Double) -> CurveTurns {
    var n = (t * fps + 1e-7).rounded(.down)
    if (n - 1e-7) / fps >= t { n -= 1 }
    return CurveTurns(next: n < 1 ? -.infinity : (n - 1e-7) / fps)
  }
}

extension SpinCurve {
  /// The speed eases along a Bézier: between its turn points it goes one way, so the angle turns
  /// at most once; after the ramp it turns no more.
  package func turns(after t: Double) -> CurveTurns { turns(t, forward: true) }
  package func turns(before t: Double) -> CurveTurns { turns(t, forward: false) }

  private func turns(_ t: Double, forward: Bool) -> CurveTurns {
    guard rampDuration > 0 else { return .none(forward: forward) }
    return .nearest(to: t, in: (timing.turnPoints + [1]).map { $0 * rampDuration }, forward: forward)
  }
}

extension ContinuingTween {
  /// The tween's own turns, with a step of an eighth of its length besides: the correction that
  /// keeps the incoming velocity is a cubic that may add up to two more.
  package func turns(after t: Double) -> CurveTurns { turns(t, forward: true) }
  package func turns(before t: Double) -> CurveTurns { turns(t, forward: false) }

  private func turns(_ t: Double, forward: Bool) -> CurveTurns {
    let own = forward ? tween.turns(after: t) : tween.turns(before: t)
    return CurveTurns(next: own.next, spacing: min(own.spacing, duration / 8))
  }
}

extension ClampedAnimation {
  // Clamping and rounding stop the value at a bound; they add no turn of their own.
  package func turns(after t: Double) -> CurveTurns { base.turns(after: t) }
  package func turns(before t: Double) -> CurveTurns { base.turns(before: t) }
}

extension ColorSpaceAnimation {
  package func turns(after t: Double) -> CurveTurns { base.turns(after: t) }
  package func turns(before t: Double) -> CurveTurns { base.turns(before: t) }
}
