import Foundation

/// The closed-form solution of `m·x″ + c·x′ + k·x = 0` as two scalar basis functions.
///
/// For start displacement `d₀` and velocity `v₀`: `x(t) = A(t)·d₀ + B(t)·v₀` and
/// `x′(t) = A′(t)·d₀ + B′(t)·v₀`. Because `A` and `B` are scalars, the same solver animates any
/// ``Animatable`` vector. Every regime is exact in double precision: underdamped (sin/cos),
/// critically damped (polynomial × exponential) and overdamped (two exponentials, written with
/// `expm1` so nothing cancels near ζ = 1).
@usableFromInline package struct SpringSolver: Sendable, Hashable, Codable {
  /// The damping regime of a spring.
  @usableFromInline package enum Regime: String, Sendable, Hashable, Codable {
    case underdamped, criticallyDamped, overdamped
  }

  /// ζ·ω₀ (decay rate of the envelope, 1/s).
  @usableFromInline package let decayRate: Double
  /// ω₀ = √(k/m).
  @usableFromInline package let naturalFrequency: Double
  /// ωd (underdamped) or γ = ω₀√(ζ² − 1) (overdamped); 0 when critically damped.
  @usableFromInline package let frequency: Double
  /// Which closed form applies.
  @usableFromInline package let regime: Regime

  package init(_ p: SpringParameters) {
    let omega0 = p.naturalFrequency
    let zeta = p.dampingRatio
    naturalFrequency = omega0
    decayRate = zeta * omega0
    if zeta < 1 {
      regime = .underdamped
      frequency = omega0 * (1 - zeta * zeta).squareRoot()
    } else if zeta == 1 {
      regime = .criticallyDamped
      frequency = 0
    } else {
      regime = .overdamped
      frequency = omega0 * ((zeta - 1) * (zeta + 1)).squareRoot()
    }
  }

  /// The basis functions and their derivatives at `t` seconds: `(A, B, A′, B′)`.
  @inlinable
  package func basis(at t: Double) -> (a: Double, b: Double, da: Double, db: Double) {
    let z = decayRate
    switch regime {
    case .underdamped:
      let w = frequency
      let e = exp(-z * t)
      let s = sin(w * t)
      let c = cos(w * t)
      let sw = s / w
      return (
        e * (c + z * sw), e * sw,
        -e * (naturalFrequency * naturalFrequency) * sw, e * (c - z * sw)
      )
    case .criticallyDamped:
      let w0 = naturalFrequency
      let e = exp(-w0 * t)
      return (e * (1 + w0 * t), e * t, -e * w0 * w0 * t, e * (1 - w0 * t))
    case .overdamped:
      let g = frequency
      let r1 = -z + g  // slow root
      let r2 = -z - g  // fast root
      let e1 = exp(r1 * t)
      let e2 = exp(r2 * t)
      // (e1 − e2)/(2γ), without cancellation when γt is small.
      let d = 2 * g * t < 1 ? e2 * expm1(2 * g * t) / (2 * g) : (e1 - e2) / (2 * g)
      // A = (r1·e2 − r2·e1)/(2γ) = e2 + (−r2)·d ; B = d
      // A′ = r1·r2·(e2 − e1)/(2γ) = −r1·r2·d ; B′ = (r1·e1 − r2·e2)/(2γ) = e1 + r2·d
      return (e2 - r2 * d, d, -r1 * r2 * d, e1 + r2 * d)
    }
  }

  /// The earliest time after which the displacement stays within `positionThreshold` and the
  /// speed within `velocityThreshold`, for start displacement magnitude `d0` and speed `v0`.
  ///
  /// Uses upper-bound envelopes of |x| and |x′|, so the result is conservative: the value is
  /// guaranteed to stay inside the thresholds from then on (which is what lets it snap).
  /// Infinite for an undamped spring.
  package func settlingTime(
    displacement d0: Double, speed v0: Double, positionThreshold: Double, velocityThreshold: Double
  ) -> Double {
    if d0 == 0 && v0 == 0 { return 0 }
    guard decayRate > 0 else { return .infinity }
    // The time is the same for a motion and its thresholds scaled alike: scaled by the power of
    // two that brings the largest to about 1 (exact: the same bits wherever nothing overflows or
    // underflows), a spring of 10²⁰⁰ units squares no number past the largest `Double`.
    let largest = max(d0, v0, positionThreshold, velocityThreshold)
    let s =
      largest.isFinite && largest > 0 ? Double(sign: .plus, exponent: -max(largest.exponent, -1000), significand: 1) : 1
    let (d0, v0) = (d0 * s, v0 * s)
    let pt = max(positionThreshold * s, .leastNormalMagnitude)
    let vt = max(velocityThreshold * s, .leastNormalMagnitude)
    if regime == .underdamped {
      return underdampedSettlingTime(d0: d0, v0: v0, pt: pt, vt: vt)
    }
    // Critically and over-damped: A, B ≥ 0 and every |term| is unimodal, so the envelope
    // g(t) = max(posEnv/pt, velEnv/vt) eventually decreases. Find a time past the last crossing
    // by doubling, then the last crossing by a scan and bisection.
    func g(_ t: Double) -> Double {
      let (a, b, da, db) = basis(at: t)
      return max((abs(a) * d0 + abs(b) * v0) / pt, (abs(da) * d0 + abs(db) * v0) / vt)
    }
    let slowRate = regime == .criticallyDamped ? naturalFrequency : decayRate - frequency
    var hi = 4 / max(slowRate, 1e-12)
    var guardCount = 0
    while g(hi) > 1 && guardCount < 64 {
      hi *= 2
      guardCount += 1
    }
    if g(hi) > 1 { return .infinity }
    return Self.lastCrossing(of: g, before: hi)
  }

  /// The underdamped settling time: the last time the bound `e^{−ζω₀t}·M(t)` exceeds the
  /// thresholds, where `M` is the running maximum of the triangle bound
  /// `|A|·d₀ + |B|·v₀` with the exponential factored out (position; likewise `|A′|·d₀ + |B′|·v₀`
  /// for the velocity). `M` is exact up to its first peak and then holds the peak (the
  /// sinusoid's amplitude), so:
  ///
  /// - an oscillating spring settles where the amplitude envelope crosses the threshold (the
  ///   closed form; for a spring starting at rest this is the classic amplitude bound);
  /// - as ζ → 1⁻ the period grows without bound, the peak is never reached, and `M` tends to the
  ///   critically damped bound: the settle time is continuous across ζ = 1 (and rises
  ///   monotonically through it, as the physics does).
  func underdampedSettlingTime(d0: Double, v0: Double, pt: Double, vt: Double) -> Double {
    let w = frequency
    let w0 = naturalFrequency
    let z = decayRate
    let k = z / w
    let q = (1 + k * k).squareRoot()
    // Position: |cos θ + k·sin θ|·d₀ + |sin θ|·v₀/ω_d = d₀·cos θ + c·sin θ up to θ = ψ, then its peak.
    let c = k * d0 + v0 / w
    let psi = atan2(c, d0)
    let positionPeak = v0 == 0 ? d0 * q : (d0 * d0 + c * c).squareRoot()
    // Velocity: |cos θ − k·sin θ|·v₀ + |sin θ|·ω₀²d₀/ω_d; two sinusoids either side of θ₁.
    let a2 = w0 * w0 * d0 / w
    let theta1 = atan2(1, k)
    let c1 = a2 - k * v0
    let s1 = (v0 * v0 + c1 * c1).squareRoot()
    let chi1 = atan2(c1, v0)
    let c2 = a2 + k * v0
    let velocityPeak = v0 == 0 ? a2 : (v0 * v0 + c2 * c2).squareRoot()
    let chi2 = atan2(c2, -v0)
    func positionBound(_ theta: Double) -> Double {
      theta < psi ? d0 * cos(theta) + c * sin(theta) : positionPeak
    }
    func velocityBound(_ theta: Double) -> Double {
      let first = s1 * cos(min(min(theta, theta1), max(chi1, 0)) - chi1)
      guard theta > theta1 else { return first }
      return max(first, theta < chi2 ? velocityPeak * cos(theta - chi2) : velocityPeak)
    }
    // Both bounds at their peaks: the closed form.
    let closed = max(0, max(log(positionPeak / pt), log(velocityPeak / vt)) / z)
    if closed * w >= max(psi, chi2) { return closed }
    func g(_ t: Double) -> Double {
      let e = exp(-z * t)
      return max(e * positionBound(w * t) / pt, e * velocityBound(w * t) / vt)
    }
    // The crossing is before `closed` (the bound is at most its peak): scan down and bisect.
    if g(closed) > 1 { return closed }
    return Self.lastCrossing(of: g, before: closed)
  }

  /// The last time in `0…end` where the envelope `g` falls to 1 (`g(end) ≤ 1`): a scan down in
  /// 512 steps finds the last step above 1, then 60 bisections close in on the crossing. 0 when
  /// `g` never exceeds 1 on the scan.
  private static func lastCrossing(of g: (Double) -> Double, before end: Double) -> Double {
    let steps = 512
    var lo = 0.0
    var hi = end
    var i = steps
    var found = false
    while i > 0 {
      let t = end * Double(i - 1) / Double(steps)
      if g(t) > 1 {
        lo = t
        hi = end * Double(i) / Double(steps)
        found = true
        break
      }
      i -= 1
    }
    if !found { return 0 }
    for _ in 0..<60 {
      let mid = (lo + hi) / 2
      if g(mid) > 1 { lo = mid } else { hi = mid }
    }
    return hi
  }
}
