import Foundation

/// The physics of a damped spring: mass, stiffness and damping, with every parameterisation the
/// reference engines use and exact conversions between them.
///
/// Physical form (Core Animation `CASpringAnimation`, framer-motion, GPUAnimation):
/// `m·x″ = −k·(x − target) − c·x′`. All designer forms are converted to (m, k, c) once, at init.
///
/// | form | defaults | mapping |
/// |---|---|---|
/// | ``init(mass:stiffness:damping:)`` | 1 / 100 / 10 (`CASpringAnimation`) | as given |
/// | ``pop(bounciness:speed:)`` | 4 / 12 → k 342.10, c 30.49, m 1 | Pop's Quartz Composer fit |
/// | ``pop(tension:friction:mass:)`` | — | k = tension, c = friction |
/// | ``init(duration:bounce:mass:)`` | 0.5 / 0 (SwiftUI) | ω₀ = 2π/duration, ζ = 1 − bounce (bounce < 0: ζ = 1/(1+bounce)) |
/// | ``init(response:dampingRatio:mass:)`` | — | ω₀ = 2π/response |
/// | ``framer(visualDuration:bounce:)`` | 0.3 / 0.3 | ω₀ = 2π/(1.2·visualDuration), ζ = clamp(1 − bounce, 0.05…1) |
/// | ``gpuAnimation`` | 200 / 10 / 1 | as given |
///
/// Here k = m·ω₀² and c = 2ζ·√(k·m).
public struct SpringParameters: Sendable, Hashable, Codable {
  /// Mass (> 0). Default 1.
  public var mass: Double
  /// Stiffness k (> 0), force per unit of displacement.
  public var stiffness: Double
  /// Damping c (≥ 0), force per unit of velocity.
  public var damping: Double

  /// A spring with physical parameters; non-positive mass or stiffness and negative damping are
  /// replaced by the nearest legal value (mass and stiffness 1e-9, damping 0).
  public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10) {
    self.mass = mass.isFinite ? max(mass, 1e-9) : 1
    self.stiffness = stiffness.isFinite ? max(stiffness, 1e-9) : 100
    self.damping = damping.isFinite ? max(damping, 0) : 10
  }

  /// SwiftUI's `Spring(response:dampingRatio:)`: ω₀ = 2π/response (seconds), ζ = `dampingRatio`.
  public init(response: Double, dampingRatio: Double, mass: Double = 1) {
    let omega = 2 * Double.pi / max(response, 1e-9)
    let k = mass * omega * omega
    self.init(mass: mass, stiffness: k, damping: 2 * dampingRatio * (k * mass).squareRoot())
  }

  /// SwiftUI's `Spring(duration:bounce:)` (defaults 0.5 s, 0): ω₀ = 2π/duration and
  /// ζ = 1 − bounce for bounce ≥ 0, ζ = 1/(1 + bounce) for bounce in −1…0 (overdamped).
  ///
  /// Apple's example: `(duration: 0.5, bounce: 0.3)` → mass 1, stiffness 157.9, damping 17.6.
  public init(duration: Double = 0.5, bounce: Double = 0, mass: Double = 1) {
    let b = min(max(bounce, -0.999_999), 1)
    let zeta = b >= 0 ? 1 - b : 1 / (1 + b)
    self.init(response: duration, dampingRatio: zeta, mass: mass)
  }

  /// Pop's `dynamicsTension`, `dynamicsFriction`, `dynamicsMass`.
  public static func pop(tension: Double, friction: Double, mass: Double = 1) -> SpringParameters {
    SpringParameters(mass: mass, stiffness: tension, damping: friction)
  }

  /// Pop's `springBounciness` and `springSpeed` (each 0…20; defaults 4 and 12), converted with
  /// Pop's exact Quartz Composer mapping (`POPAnimationExtras.mm`): defaults give tension 342.10,
  /// friction 30.49, mass 1.
  public static func pop(bounciness: Double = 4, speed: Double = 12) -> SpringParameters {
    let b = 0.8 * (bounciness / 1.7) / 20
    let s = (speed / 1.7) / 20
    let tensionQC = 0.5 + s * (200 - 0.5)
    let w = 2 * b - b * b
    let frictionQC = w * 0.01 + (1 - w) * popNoBounce(tensionQC)
    let tension = 194 + (tensionQC - 30) / 50 * (375 - 194)
    let friction = 25 + (frictionQC - 8) / 2 * (25 - 19)
    return .pop(tension: tension, friction: friction, mass: 1)
  }

  /// Pop's `QCFrictionForTension` no-bounce curve (three fitted cubics).
  static func popNoBounce(_ x: Double) -> Double {
    if x <= 18 { return 0.0007 * x * x * x - 0.031 * x * x + 0.64 * x + 1.28 }
    if x <= 44 { return 0.000044 * x * x * x - 0.006 * x * x + 0.36 * x + 2 }
    return 0.00000045 * x * x * x - 0.000332 * x * x + 0.1078 * x + 5.84
  }

  /// framer-motion's `visualDuration`/`bounce` spring (defaults 0.3 s, 0.3 → k 304.6, c 24.43).
  public static func framer(visualDuration: Double = 0.3, bounce: Double = 0.3) -> SpringParameters {
    let omega = 2 * Double.pi / (1.2 * max(visualDuration, 1e-9))
    let zeta = min(max(1 - bounce, 0.05), 1)
    return SpringParameters(mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega)
  }

  /// Core Animation's `CASpringAnimation` defaults: mass 1, stiffness 100, damping 10.
  public static let coreAnimation = SpringParameters(mass: 1, stiffness: 100, damping: 10)
  /// GPUAnimation's `animate` defaults: stiffness 200, damping 10 (mass 1).
  public static let gpuAnimation = SpringParameters(mass: 1, stiffness: 200, damping: 10)
  /// Pop's default spring (bounciness 4, speed 12).
  public static let popDefault = SpringParameters.pop(bounciness: 4, speed: 12)
  /// SwiftUI `.smooth` (duration 0.5, bounce 0 + `extraBounce`).
  public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> SpringParameters {
    SpringParameters(duration: duration, bounce: extraBounce)
  }
  /// SwiftUI `.snappy` (duration 0.5, bounce 0.15 + `extraBounce`).
  public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> SpringParameters {
    SpringParameters(duration: duration, bounce: 0.15 + extraBounce)
  }
  /// SwiftUI `.bouncy` (duration 0.5, bounce 0.3 + `extraBounce`).
  public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> SpringParameters {
    SpringParameters(duration: duration, bounce: 0.3 + extraBounce)
  }

  // MARK: - Derived quantities

  /// Undamped natural angular frequency ω₀ = √(k/m), radians per second.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
  /// Damping ratio ζ = c / (2√(k·m)); < 1 under-, = 1 critically, > 1 over-damped.
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }
  /// SwiftUI's `response`/`duration`: 2π/ω₀, seconds.
  public var response: Double { 2 * Double.pi / naturalFrequency }
  /// SwiftUI's `bounce`: 1 − ζ when ζ ≤ 1, 1/ζ − 1 when overdamped (negative).
  public var bounce: Double {
    let z = dampingRatio
    return z <= 1 ? 1 - z : 1 / z - 1
  }

  /// SwiftUI's `settlingDuration`: the time after which a unit move (0 → 1, at rest) stays within
  /// `epsilon` of the target (default 0.001), in seconds.
  public func settlingDuration(epsilon: Double = 0.001) -> Double {
    SpringAnimation(from: 0.0, to: 1.0, parameters: self, restThreshold: epsilon).duration
  }
}

extension SpringParameters {
  /// Pop's bounciness and speed for these tension (stiffness) and friction (damping) values —
  /// the inverse of ``pop(bounciness:speed:)`` (Pop's `convertTension:friction:toBounciness:speed:`),
  /// or `nil` when no bounciness in Pop's range reproduces the friction.
  public var popBouncinessAndSpeed: (bounciness: Double, speed: Double)? {
    let tensionQC = (stiffness - 194) * 50 / (375 - 194) + 30
    let frictionQC = (damping - 25) * 2 / (25 - 19) + 8
    let speed = (tensionQC - 0.5) / (200 - 0.5) * 20 * 1.7
    let nb = Self.popNoBounce(tensionQC)
    // (nb − 0.01)·x² + 2(0.01 − nb)·x + (nb − F) = 0, x = b in 0…0.8.
    let a = nb - 0.01
    let b = 2 * (0.01 - nb)
    let c = nb - frictionQC
    guard a != 0 else { return nil }
    let disc = b * b - 4 * a * c
    guard disc >= 0 else { return nil }
    let roots = [(-b - disc.squareRoot()) / (2 * a), (-b + disc.squareRoot()) / (2 * a)]
    guard let x = roots.filter({ $0 >= -1e-12 && $0 <= 0.8 + 1e-12 }).min() else { return nil }
    return (max(0, x) / 0.8 * 20 * 1.7, speed)
  }
}
