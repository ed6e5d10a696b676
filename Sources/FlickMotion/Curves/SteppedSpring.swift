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
  /// state (Pop's clock therefore runs slow). Pop's rest rules: the solver has converged when
  /// every |p| < threshold/2, |v|² < 25·threshold and |Δv|² < 625·threshold², or the last
  /// written values are within threshold/5 of the target and of each other; then it snaps.
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
public struct SteppedSpring<Value: Animatable>: AnimationCurve {
  public let fromValue: Value
  public let toValue: Value
  public let initialVelocity: Value
  public let parameters: SpringParameters
  /// The engine.
  public let stepping: Stepping
  /// The property threshold (Pop's `POPAnimatableProperty.threshold`, GPUAnimation's `threshold`).
  public let threshold: Double
  public let duration: Double
  /// The replayed frames: (value, velocity) after `n` frames.
  let frames: [(value: Value, velocity: Value)]
  let fps: Double

  /// The most frames replayed (10 minutes at 120 fps); a spring still moving then snaps.
  public static var maximumFrames: Int { 72_000 }

  /// A spring from `fromValue` to `toValue` with `velocity` (units/s), stepped by `stepping`.
  ///
  /// - Parameters:
  ///   - threshold: the engine's rest threshold in value units (default 0.01, GPUAnimation's
  ///     default and Pop's for scalars such as opacity; Pop uses 1 for points).
  ///   - stepping: ``Stepping/analytic`` is treated as Pop at 60 fps; use ``SpringAnimation`` for the closed form.
  public init(
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
      frames = Self.gpuAnimation(from: fromValue, to: toValue, velocity: velocity, parameters, self.threshold, dt: 1 / rate)
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

  public func value(at t: Double) -> Value { frames[frame(at: t)].value }

  /// The engine's velocity at the frame shown at `t` (0 once it has come to rest).
  public func velocity(at t: Double) -> Value {
    if t < 0 { return initialVelocity }
    return frames[frame(at: t)].velocity
  }

  /// The largest component magnitude (the engines test each component).
  static func largest(_ v: Value) -> Double {
    if let c = v as? any ComponentwiseAnimatable { return largestComponent(c) }
    return v.magnitudeSquared.squareRoot()
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

  /// Pop's `SpringSolver::advance` and the animation's convergence tests, frame by frame.
  static func pop(
    from: Value, to: Value, velocity: Value, _ p: SpringParameters, _ threshold: Double, dt: Double
  ) -> [(value: Value, velocity: Value)] {
    let k = p.stiffness / p.mass
    let b = p.damping / p.mass
    let h = Double(Float(0.001))  // Pop's `solverDt = 0.001f`
    // Solver state: p = displacement from the target, v = velocity.
    var pos = from - to
    var vel = velocity
    var accumulated = 0.0
    var out: [(value: Value, velocity: Value)] = [(from, velocity)]
    var written: [Value] = [from]
    func accel(_ x: Value, _ v: Value) -> Value { x.scaled(by: -k) - v.scaled(by: b) }
    while out.count <= maximumFrames {
      // advance(dt)
      let previousVelocity = vel
      var prevP = pos, prevV = vel, curP = pos, curV = vel
      accumulated += dt
      while accumulated >= h {
        prevP = curP
        prevV = curV
        // Classic RK4 on (p, v).
        let a1 = accel(curP, curV)
        let p2 = curP + curV.scaled(by: h / 2), v2 = curV + a1.scaled(by: h / 2)
        let a2 = accel(p2, v2)
        let p3 = curP + v2.scaled(by: h / 2), v3 = curV + a2.scaled(by: h / 2)
        let a3 = accel(p3, v3)
        let p4 = curP + v3.scaled(by: h), v4 = curV + a3.scaled(by: h)
        let a4 = accel(p4, v4)
        curP = curP + (curV + (v2 + v3).scaled(by: 2) + v4).scaled(by: h / 6)
        curV = curV + (a1 + (a2 + a3).scaled(by: 2) + a4).scaled(by: h / 6)
        accumulated -= h
      }
      let alpha = accumulated / h
      pos = prevP + (curP - prevP).scaled(by: alpha)
      vel = prevV + (curV - prevV).scaled(by: alpha)
      let value = to + pos
      written.append(value)
      // Solver convergence (`SpringSolver::hasConverged`).
      let dv = vel - previousVelocity
      let solverConverged =
        largest(pos) < threshold / 2 && vel.magnitudeSquared < 25 * threshold && dv.magnitudeSquared < 625 * threshold * threshold
      // Animation convergence: the last two written values within threshold/5 of the target and each other.
      var animConverged = false
      if written.count >= 3 {
        let last = written[written.count - 2]
        let before = written[written.count - 3]
        animConverged = largest(to - last) < threshold / 5 && largest(before - last) < threshold / 5
      }
      if solverConverged || animConverged || out.count == maximumFrames {
        out.append((to, .zero))  // finalizeProgress: snap to toValue
        break
      }
      out.append((value, vel))
    }
    return out
  }

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
