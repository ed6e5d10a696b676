import Foundation

/// A scalar decay confined to bounds: when the momentum carries the value past `bounds`, a spring
/// takes over at the edge with the exact position and velocity of the decay (C¹) and pulls the
/// value back to the bound — the rubber band of a scroll view.
///
/// A start outside the bounds springs straight to the nearest bound with the velocity the decay
/// starts with (`velocity` scaled by Pop's start factor, as everywhere in the decay).
/// Pure in time: before the crossing it is the ``DecayAnimation``, after it the spring.
package struct RubberBandDecay: AnimationCurve, Equatable {
  /// The free decay.
  package let decay: DecayAnimation<Double>
  /// The allowed range of values.
  package let bounds: ClosedRange<Double>
  /// When the decay crosses a bound (local seconds), or `nil` if it never does.
  package let crossingTime: Double?
  /// The spring that pulls back to the bound after ``crossingTime``.
  package let edgeSpring: SpringAnimation<Double>?
  package let duration: Double

  /// The default edge spring: critically damped, stiffness 300 (settles in about 0.5 s).
  package static let defaultEdgeParameters = SpringParameters(
    mass: 1, stiffness: 300, damping: 2 * 300.0.squareRoot())

  /// A bounded decay.
  ///
  /// - Parameters:
  ///   - from: Start value.
  ///   - velocity: Units per second.
  ///   - bounds: The range the value returns into.
  ///   - deceleration, threshold: As for ``DecayAnimation``.
  ///   - edge: The spring that takes over at the bound (default ``defaultEdgeParameters``).
  package init(
    from: Double, velocity: Double, bounds: ClosedRange<Double>, deceleration: Double = 0.998,
    threshold: Double = 1, edge: SpringParameters = RubberBandDecay.defaultEdgeParameters
  ) {
    let decay = DecayAnimation(from: from, velocity: velocity, deceleration: deceleration, threshold: threshold)
    self.decay = decay
    self.bounds = bounds
    let restThreshold = max(threshold, 1e-9) / 2
    if !bounds.contains(from) {
      let target = from < bounds.lowerBound ? bounds.lowerBound : bounds.upperBound
      crossingTime = 0
      // The decay's own start velocity (Pop's closed form starts at −d·ln d/(1 − d) of its
      // parameter), as at an in-bounds crossing: a hand-over scaled for the decay stays exact.
      edgeSpring = SpringAnimation(
        from: from, to: target, velocity: velocity * decay.reach * decay.rate, parameters: edge,
        restThreshold: restThreshold)
    } else {
      let end = decay.finalValue
      let bound: Double? =
        end > bounds.upperBound ? bounds.upperBound : end < bounds.lowerBound ? bounds.lowerBound : nil
      if let bound {
        // x(t) = x₀ + v₀·reach·(1 − e^{−λt}) = bound.
        let fraction = (bound - from) / (velocity * decay.reach)
        let t = -log1p(-fraction) / decay.rate
        crossingTime = t
        edgeSpring = SpringAnimation(
          from: bound, to: bound, velocity: decay.velocity(at: t), parameters: edge,
          restThreshold: restThreshold)
      } else {
        crossingTime = nil
        edgeSpring = nil
      }
    }
    if let crossingTime, let edgeSpring {
      duration = crossingTime + edgeSpring.duration
    } else {
      duration = decay.duration
    }
  }

  package func value(at t: Double) -> Double {
    if let crossingTime, let edgeSpring, t >= crossingTime { return edgeSpring.value(at: t - crossingTime) }
    return decay.value(at: t)
  }

  package func velocity(at t: Double) -> Double {
    if let crossingTime, let edgeSpring, t >= crossingTime {
      return edgeSpring.velocity(at: t - crossingTime)
    }
    return decay.velocity(at: t)
  }
}
