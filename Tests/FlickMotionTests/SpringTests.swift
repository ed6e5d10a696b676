import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

@Suite struct SpringTests {
  /// Independent reference: classic RK4 on m·x″ = −k(x − to) − c·x′ with a tiny fixed step,
  /// stepped exactly to `t` (the last step shortened).
  static func reference(_ p: SpringParameters, from: Double, to: Double, v0: Double, t: Double)
    -> (x: Double, v: Double)
  {
    func acc(_ x: Double, _ v: Double) -> Double { (-p.stiffness * (x - to) - p.damping * v) / p.mass }
    var x = from
    var v = v0
    let h = 2e-5
    var time = 0.0
    while time < t {
      let dt = min(h, t - time)
      let k1x = v, k1v = acc(x, v)
      let k2x = v + dt / 2 * k1v, k2v = acc(x + dt / 2 * k1x, v + dt / 2 * k1v)
      let k3x = v + dt / 2 * k2v, k3v = acc(x + dt / 2 * k2x, v + dt / 2 * k2v)
      let k4x = v + dt * k3v, k4v = acc(x + dt * k3x, v + dt * k3v)
      x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
      v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
      time += dt
    }
    return (x, v)
  }

  static let regimes: [(String, SpringParameters, Double)] = [
    ("underdamped ζ 0.3", SpringParameters(mass: 1, stiffness: 200, damping: 2 * 0.3 * 200.0.squareRoot()), 250),
    ("critically damped", SpringParameters(mass: 2, stiffness: 50, damping: 20), -80),
    ("overdamped ζ 3", SpringParameters(mass: 1, stiffness: 100, damping: 60), 400),
    ("near-critical ζ 1+1e-9", SpringParameters(mass: 1, stiffness: 100, damping: 20 * (1 + 1e-9)), 0),
    ("Pop default", .popDefault, -300),
  ]

  @Test(arguments: 0..<5)
  func matchesHighAccuracyIntegration(_ index: Int) {
    let (name, p, v0) = Self.regimes[index]
    let spring = SpringAnimation(from: 10.0, to: 110.0, velocity: v0, parameters: p, restThreshold: 1e-12)
    let scale = max(100, abs(v0) / p.naturalFrequency)
    for t in [0.01, 0.05, 0.137, 0.3, 0.71, 1.2] {
      let ref = Self.reference(p, from: 10, to: 110, v0: v0, t: t)
      expectLessOrEqual(abs(spring.value(at: t) - ref.x), 1e-9 * scale, "\(name) x at \(t)")
      expectLessOrEqual(abs(spring.velocity(at: t) - ref.v), 1e-9 * scale * p.naturalFrequency, "\(name) v at \(t)")
    }
  }

  @Test func regimesAreClassified() {
    expectEqual(SpringSolver(Self.regimes[0].1).regime, .underdamped)
    expectEqual(SpringSolver(Self.regimes[1].1).regime, .criticallyDamped)
    expectEqual(SpringSolver(Self.regimes[2].1).regime, .overdamped)
  }

  @Test func popBouncinessSpeedMapping() {
    let p = SpringParameters.pop(bounciness: 4, speed: 12)
    expectLess(abs(p.stiffness - 342.10), 0.005)
    expectLess(abs(p.damping - 30.49), 0.005)
    expectEqual(p.mass, 1)
    expectLess(abs(p.dampingRatio - 0.824), 0.001)
    expectLess(abs(p.naturalFrequency - 18.50), 0.005)
    // Published ζ table (speed 12): bounciness 0 → 0.998, 20 → 0.300; (bounciness 0) speed 0 → 0.309.
    expectLess(abs(SpringParameters.pop(bounciness: 0, speed: 12).dampingRatio - 0.998), 0.001)
    expectLess(abs(SpringParameters.pop(bounciness: 20, speed: 12).dampingRatio - 0.300), 0.001)
    expectLess(abs(SpringParameters.pop(bounciness: 0, speed: 0).dampingRatio - 0.309), 0.001)
  }

  @Test func popInverseMappingRoundTrips() throws {
    for (b, s) in [(4.0, 12.0), (0, 12), (20, 12), (8, 3), (12, 20)] {
      let r = try #require(SpringParameters.pop(bounciness: b, speed: s).popBouncinessAndSpeed)
      expectLess(abs(r.bounciness - b), 1e-9, "\(b), \(s) → \(r)")
      expectLess(abs(r.speed - s), 1e-9, "\(b), \(s) → \(r)")
    }
  }

  @Test func popDefaultValueAtTenthOfASecond() {
    // Reference figure: the default Pop spring 0 → 100 reaches 61.67 at t = 0.1 s analytically.
    let s = SpringAnimation(from: 0.0, to: 100, parameters: .popDefault)
    expectLess(abs(s.value(at: 0.1) - 61.67), 0.01)
  }

  @Test func swiftUIConversions() {
    let p = SpringParameters(duration: 0.5, bounce: 0.3)
    expectLess(abs(p.mass - 1), 1e-12)
    expectLess(abs(p.stiffness - 157.9), 0.05)
    expectLess(abs(p.damping - 17.6), 0.05)
    let ca = SpringParameters.coreAnimation
    expectLess(abs(ca.response - 0.63), 0.005)
    expectLess(abs(ca.bounce - 0.5), 1e-12)
    let r = SpringParameters(response: 0.5, dampingRatio: 0.7)
    expectLess(abs(r.stiffness - p.stiffness), 1e-9)
    expectLess(abs(r.damping - p.damping), 1e-9)
    // Negative bounce is overdamped: ζ = 1/(1 + bounce).
    expectLess(abs(SpringParameters(duration: 1, bounce: -0.5).dampingRatio - 2), 1e-12)
    expectLess(abs(SpringParameters.framer().stiffness - 304.6), 0.05)
    expectLess(abs(SpringParameters.framer().damping - 24.43), 0.005)
    expectEqual(SpringParameters.gpuAnimation, SpringParameters(mass: 1, stiffness: 200, damping: 10))
  }

  @Test func normalizedVelocityIsFractionOfDistance() {
    let s = SpringAnimation(from: 0.0, to: 200, normalizedVelocity: 0.5)
    expectEqual(s.initialVelocity, 100)
    expectEqual(s.velocity(at: 0), 100)
  }

  @Test(arguments: 0..<5)
  func settlesWithinThresholdAndSnaps(_ index: Int) {
    let (name, p, v0) = Self.regimes[index]
    let spring = SpringAnimation(from: 0.0, to: 100, velocity: v0, parameters: p, restThreshold: 0.5)
    #expect(spring.duration.isFinite, "\(name)")
    expectGreater(spring.duration, 0, "\(name)")
    expectEqual(spring.value(at: spring.duration), 100)
    expectEqual(spring.velocity(at: spring.duration), 0)
    // The unsnapped solution stays inside the thresholds from the settling time on.
    for i in 0..<400 {
      let t = spring.duration * (1 + Double(i) / 100)
      let (a, b, da, db) = spring.solver.basis(at: t)
      expectLessOrEqual(abs(-100 * a + v0 * b), 0.5 + 1e-12, "\(name) x at \(t)")
      expectLessOrEqual(abs(-100 * da + v0 * db), 0.5 * p.naturalFrequency + 1e-9, "\(name) v at \(t)")
    }
    // And not much later than needed: shortly before, the spring was still outside.
    let before = spring.duration * 0.8
    let (a, b, da, db) = spring.solver.basis(at: before)
    #expect(
      abs(-100 * a + v0 * b) > 0.5 || abs(-100 * da + v0 * db) > 0.5 * p.naturalFrequency || index == 0, "\(name)")
  }

  @Test func caDampingFiveSettlesNearDocumentedTime() {
    // Apple: a CASpringAnimation with damping 5 settles in about 2.85 s.
    let p = SpringParameters(mass: 1, stiffness: 100, damping: 5)
    let t = p.settlingDuration(epsilon: 0.001)
    expectGreater(t, 2.5, "settling \(t)")
    expectLess(t, 3.2, "settling \(t)")
  }

  @Test func vectorSpringIsComponentwise() {
    let p = SpringParameters.popDefault
    let s = SpringAnimation(
      from: Point(x: 0, y: 50), to: Point(x: 100, y: -50), velocity: Point(x: 30, y: 0), parameters: p)
    let sx = SpringAnimation(from: 0.0, to: 100, velocity: 30, parameters: p, restThreshold: s.restThreshold)
    expectLess(abs(s.value(at: 0.2).x - sx.value(at: 0.2)), 1e-12)
  }

  @Test func retargetKeepsPositionAndVelocity() {
    let s = SpringAnimation(from: 0.0, to: 100, parameters: .popDefault)
    let r = s.retargeted(to: 300, at: 0.15)
    expectEqual(r.value(at: 0), s.value(at: 0.15))
    expectEqual(r.velocity(at: 0), s.velocity(at: 0.15))
    expectEqual(r.finalValue, 300)
  }
}
