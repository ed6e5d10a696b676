import Foundation

@testable import FlickMotion

/// A straight transcription, for one scalar property, of Pop's spring as `facebook/pop` runs it
/// (`POPSpringSolver.h`'s `SpringSolver`, `POPSpringAnimationInternal.h`'s `advance` and
/// `hasConverged`/`isDone`, `POPAnimator.mm`'s `updateAnimatable` and frame order), kept apart
/// from ``SteppedSpring`` so the two can be compared frame by frame.
struct PopReference {
  struct SSState {
    var p: Double
    var v: Double
  }

  struct SSDerivative {
    var dp: Double
    var dv: Double
  }

  /// `const CFTimeInterval solverDt = 0.001f;`
  static let solverDt: Double = Double(Float(0.001))

  // SpringSolver's fields.
  var k: Double
  var b: Double
  var m: Double
  var tp = 0.0
  var tv = 0.0
  var ta = 0.0
  var accumulatedTime = 0.0
  var lastState = SSState(p: 0, v: 0)
  var lastDv = 0.0
  var started = false

  init(k: Double, b: Double, m: Double, threshold: Double) {
    self.k = k
    self.b = b
    self.m = m
    setThreshold(threshold)
  }

  mutating func setThreshold(_ t: Double) {
    tp = t / 2
    tv = 25.0 * t
    ta = 625.0 * t * t
  }

  func acceleration(_ state: SSState, _ t: Double) -> Double { state.p * (-k / m) - state.v * (b / m) }

  func evaluate(_ initial: SSState, _ t: Double) -> SSDerivative {
    SSDerivative(dp: initial.v, dv: acceleration(initial, t))
  }

  func evaluate(_ initial: SSState, _ t: Double, _ dt: Double, _ d: SSDerivative) -> SSDerivative {
    let state = SSState(p: initial.p + d.dp * dt, v: initial.v + d.dv * dt)
    return SSDerivative(dp: state.v, dv: acceleration(state, t + dt))
  }

  mutating func integrate(_ state: inout SSState, _ t: Double, _ dt: Double) {
    let a = evaluate(state, t)
    let b = evaluate(state, t, dt * 0.5, a)
    let c = evaluate(state, t, dt * 0.5, b)
    let d = evaluate(state, t, dt, c)
    let dpdt = (a.dp + (b.dp + c.dp) * 2.0 + d.dp) * (1.0 / 6.0)
    let dvdt = (a.dv + (b.dv + c.dv) * 2.0 + d.dv) * (1.0 / 6.0)
    state.p = state.p + dpdt * dt
    state.v = state.v + dvdt * dt
    lastDv = dvdt
  }

  func interpolate(_ previous: SSState, _ current: SSState, _ alpha: Double) -> SSState {
    SSState(p: current.p * alpha + previous.p * (1 - alpha), v: current.v * alpha + previous.v * (1 - alpha))
  }

  mutating func advance(_ state: inout SSState, _ time: Double, _ dt: Double) {
    var t = time
    started = true
    accumulatedTime += dt
    var previousState = state
    var currentState = state
    while accumulatedTime >= Self.solverDt {
      previousState = currentState
      integrate(&currentState, t, Self.solverDt)
      t += Self.solverDt
      accumulatedTime -= Self.solverDt
    }
    let alpha = accumulatedTime / Self.solverDt
    state = interpolate(previousState, currentState, alpha)
    lastState = state
  }

  func hasConverged() -> Bool {
    if !started { return false }
    if abs(lastState.p) >= tp { return false }
    return (lastState.v * lastState.v < tv) && (lastDv * lastDv < ta)
  }

  /// The values Pop writes, frame by frame (frame `n` at `n/fps`; the first frame's dt is 0, as
  /// `startIfNeeded` sets `lastTime = time`), and the frame at which `isDone` first holds (that
  /// frame then shows `to`, `finalizeProgress`).
  static func frames(
    from: Double, to: Double, velocity: Double, tension: Double, friction: Double, mass: Double,
    threshold: Double, fps: Double
  ) -> (written: [Double], done: Int) {
    var solver = PopReference(k: tension, b: friction, m: mass, threshold: threshold)
    var currentVec = from
    var velocityVec = velocity
    var previousVec: Double?
    var previous2Vec: Double?
    var written: [Double] = []
    var n = 0
    while n < 100_000 {
      let dt = n == 0 ? 0 : 1 / fps
      // _POPSpringAnimationState::advance
      var state = SSState(p: to - currentVec, v: velocityVec * -1)
      solver.advance(&state, Double(n) / fps, dt)
      currentVec = to - state.p
      velocityVec = state.v * -1
      // updateAnimatable
      previous2Vec = previousVec
      previousVec = currentVec
      written.append(currentVec)
      // isDone → hasConverged (no rounding): fabsf on the differences.
      var animationConverged = false
      if let previous = previousVec, let previous2 = previous2Vec {
        let t = threshold / 5
        animationConverged =
          !(Double(fabsf(Float(to - previous))) >= t || Double(fabsf(Float(previous2 - previous))) >= t)
      }
      if solver.started && (animationConverged || solver.hasConverged()) { return (written, n) }
      n += 1
    }
    return (written, n)
  }
}
