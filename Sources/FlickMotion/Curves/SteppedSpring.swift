/// How a spring is evaluated: Flick's exact closed form, or the arithmetic a device engine runs.
///
/// Pop and GPUAnimation do not draw their own closed form: they integrate once per display
/// frame, so what an app shows depends on the display rate. A designer previewing what the app
/// will show picks the engine and the rate (see docs/motion.md for measured differences).
public enum Stepping: Sendable, Hashable {
  /// The exact closed form (default): the same at every frame rate.
  case analytic
  /// Pop's `POPSpringSolver`: RK4 in fixed `0.001f` s steps with an accumulator; every frame
  /// the state interpolated at the accumulator's remainder is written back as the simulation
  /// state (Pop's clock therefore runs slow). Pop's rest rules, tested after each frame is
  /// written: the solver has converged when every |p| < threshold/2, |v|² < 25·threshold and
  /// the last RK4 step's |dv/dt|² < 625·threshold², or the frame just written and the one
  /// before are within threshold/5 of the target and of each other; then that frame snaps to
  /// the target.
  case pop(fps: Double)
  /// GPUAnimation's kernel: one semi-implicit Euler step per frame with the nominal frame
  /// period, running while any component has |v| or |x − target| above the threshold, then it
  /// snaps to the target.
  case gpuAnimation(fps: Double)

  /// The display rate, frames per second (nil for ``analytic``).
  public var fps: Double? {
    switch self {
    case .analytic: return nil
    case .pop(let fps), .gpuAnimation(let fps): return fps
    }
  }
}

/// A spring stepped the way a device engine steps it (``Stepping/pop(fps:)``,
/// ``Stepping/gpuAnimation(fps:)``): frame `n` (at `n/fps` s) shows the engine's state after `n`
/// frames, held until the next frame.
///
/// Deterministic and seekable: the frames are replayed from the animation's start once, at
/// init (at most ``maximumFrames``), so `value(at:)` is a pure function of time like every
/// other curve. ``duration`` is the time of the frame at which the engine came to rest (and
/// snapped to the target). Double precision throughout (GPUAnimation computes in float32).
package struct SteppedSpring<Value: Animatable>: AnimationCurve {
  package let fromValue: Value
  package let toValue: Value
  package let initialVelocity: Value
  package let parameters: SpringParameters
  /// The engine.
  package let stepping: Stepping
  /// The property threshold (Pop's `POPAnimatableProperty.threshold`, GPUAnimation's `threshold`).
  package let threshold: Double
  package let duration: Double
  /// The replayed frames: (value, velocity) after `n` frames.
  let frames: [(value: Value, velocity: Value)]
  let fps: Double

  /// The most frames replayed (10 minutes at 120 fps); a spring still moving then snaps.
  package static var maximumFrames: Int { 72_000 }

  /// A spring from `fromValue` to `toValue` with `velocity` (units/s), stepped by `stepping`.
  ///
  /// - Parameters:
  ///   - threshold: the engine's rest threshold in value units (default 0.01, GPUAnimation's
  ///     default and Pop's for scalars such as opacity; Pop uses 1 for points).
  ///   - stepping: ``Stepping/analytic`` is treated as Pop at 60 fps; use ``SpringAnimation`` for the closed form.
  package init(
    from fromValue: Value, to toValue: Value, velocity: Value = .zero, parameters: SpringParameters = .popDefault,
    threshold: Double = 0.01, stepping: Stepping
  ) {
    self.fromValue = fromValue
    self.toValue = toValue
    self.initialVelocity = velocity
    self.parameters = parameters
    let stepping = stepping == .analytic ? .pop(fps: 60) : stepping
    self.stepping = stepping
    self.threshold = threshold.isFinite ? max(threshold, 0) : 0.01
    let rate = stepping.fps.map { $0.isFinite && $0 > 0 ? min($0, 10_000) : 60 } ?? 60
    fps = rate
    switch stepping {
    case .gpuAnimation:
      frames = Self.gpuAnimation(
        from: fromValue, to: toValue, velocity: velocity, parameters, self.threshold, dt: 1 / rate)
    default:
      frames = Self.pop(from: fromValue, to: toValue, velocity: velocity, parameters, self.threshold, dt: 1 / rate)
    }
    duration = Double(frames.count - 1) / rate
  }

  /// The frame shown at `t`.
  func frame(at t: Double) -> Int {
    if t <= 0 { return 0 }
    // A sample at n/fps must land on frame n even when n/fps·fps rounds just below n.
    let n = (t * fps + 1e-7).rounded(.down)
    return n >= Double(frames.count - 1) ? frames.count - 1 : Int(n)
  }

  /// The frame shown just before `t`: at frame `n`'s instant (within the rounding
  /// ``frame(at:)`` allows), frame `n − 1`, the state the engine had written when `t` came.
  func frame(before t: Double) -> Int {
    if t <= 0 { return 0 }
    let x = t * fps
    let n = (x + 1e-7).rounded(.down)
    let shown = x - n < 1e-7 ? n - 1 : n
    return shown >= Double(frames.count - 1) ? frames.count - 1 : Int(max(shown, 0))
  }

  package func value(at t: Double) -> Value { frames[frame(at: t)].value }

  /// The left limit: the frame shown just before `t` (``frame(before:)``), not the one `t` lands on.
  package func value(before t: Double) -> Value { frames[frame(before: t)].value }

  /// The engine's velocity at the frame shown just before `t`; before the start, the initial velocity.
  package func velocity(before t: Double) -> Value {
    if t <= 0 { return initialVelocity }
    return frames[frame(before: t)].velocity
  }

  /// The engine's velocity at the frame shown at `t` (0 once it has come to rest).
  package func velocity(at t: Double) -> Value {
    if t < 0 { return initialVelocity }
    return frames[frame(at: t)].velocity
  }

  /// The largest component magnitude (the engines test each component).
  static func largest(_ v: Value) -> Double {
    if let c = v as? any ComponentwiseAnimatable { return largestComponent(c) }
    return v.norm
  }

  private static func largestComponent<C: ComponentwiseAnimatable>(_ c: C) -> Double {
    var m = 0.0
    _ = c.mapComponents { x in
      m = max(m, abs(x))
      return x
    }
    return m
  }

  // MARK: - Pop

  /// Pop's frame loop for one spring, frame by frame: `POPSpringAnimationState::advance` (the
  /// solver works on `p = to − value`, `v = −velocity`), `SpringSolver::advance` (RK4 in fixed
  /// `0.001f` s steps; the state interpolated at the accumulator's remainder is written back),
  /// `updateAnimatable` (the value written becomes `previousVec`, the one before `previous2Vec`)
  /// and `isDone`, tested after every frame's write, frame 0 included (its dt is 0):
  /// - the solver has converged when every |p| < threshold/2, |v|² < 25·threshold and
  ///   |`_lastDv`|² < 625·threshold², `_lastDv` being the last RK4 step's dv/dt (kept from an
  ///   earlier frame when this one took no step);
  /// - the animation has converged when the frame just written and the one before it are both
  ///   within threshold/5 of the target and of each other (Pop compares in `float`, `fabsf`).
  /// Then the frame shows the target (`finalizeProgress`).
  static func pop(
    from: Value, to: Value, velocity: Value, _ p: SpringParameters, _ threshold: Double, dt: Double
  ) -> [(value: Value, velocity: Value)] {
    let solver = PopSolver<Value>(stiffness: p.stiffness, damping: p.damping, mass: p.mass, threshold: threshold)
    var accumulated = 0.0
    var lastDv = Value.zero
    var value = from
    var speed = velocity
    var previous: Value?
    var previous2: Value?
    var out: [(value: Value, velocity: Value)] = []
    while true {
      // POPSpringAnimationState::advance → SpringSolver::advance (frame 0 has dt = 0).
      var state = (p: to - value, v: speed.scaled(by: -1))
      accumulated += out.isEmpty ? 0 : dt
      var previousState = state
      var currentState = state
      while accumulated >= PopSolver<Value>.solverDt {
        previousState = currentState
        lastDv = solver.integrate(&currentState)
        accumulated -= PopSolver<Value>.solverDt
      }
      let alpha = accumulated / PopSolver<Value>.solverDt
      state = (
        currentState.p.scaled(by: alpha) + previousState.p.scaled(by: 1 - alpha),
        currentState.v.scaled(by: alpha) + previousState.v.scaled(by: 1 - alpha)
      )
      value = to - state.p
      speed = state.v.scaled(by: -1)
      // updateAnimatable: the written value moves into previousVec.
      previous2 = previous
      previous = value
      // isDone: the animation's test on the last two written values, or the solver's.
      var animationConverged = false
      if let last = previous, let before = previous2 {
        let t = threshold / 5
        animationConverged = Self.popFloat(to - last) < t && Self.popFloat(before - last) < t
      }
      let solverConverged =
        largest(state.p) < solver.tp && state.v.magnitudeSquared < solver.tv && lastDv.magnitudeSquared < solver.ta
      if animationConverged || solverConverged || out.count >= maximumFrames {
        out.append((to, .zero))  // finalizeProgress: the frame shows toValue
        return out
      }
      out.append((value, speed))
    }
  }

  /// The largest component magnitude as Pop's `fabsf` sees it (rounded to `float`).
  static func popFloat(_ v: Value) -> Double { Double(Float(largest(v))) }

  // MARK: - GPUAnimation

  /// GPUAnimation's kernel: semi-implicit Euler, one step per frame of nominal length `dt`.
  static func gpuAnimation(
    from: Value, to: Value, velocity: Value, _ p: SpringParameters, _ threshold: Double, dt: Double
  ) -> [(value: Value, velocity: Value)] {
    let k = p.stiffness / p.mass
    let c = p.damping / p.mass
    var x = from
    var v = velocity
    var out: [(value: Value, velocity: Value)] = [(from, velocity)]
    while out.count <= maximumFrames {
      let diff = x - to
      let running = largest(v) > threshold || largest(diff) > threshold
      if !running || out.count == maximumFrames {
        out.append((to, .zero))
        break
      }
      let a = diff.scaled(by: -k) - v.scaled(by: c)
      v = v + a.scaled(by: dt)
      x = x + v.scaled(by: dt)
      out.append((x, v))
    }
    return out
  }
}
