import Foundation

extension TimingFunction {
  /// Which half of a classic ease is slow: `in` (start), `out` (end) or `inOut` (both).
  public enum EaseMode: String, Sendable, Hashable, Codable, CaseIterable {
    case `in`, out, inOut
  }

  /// Where a step function jumps (CSS `steps()` positions).
  public enum StepPosition: String, Sendable, Hashable, Codable, CaseIterable {
    /// Jumps at the start of each interval (CSS `jump-start`/`start`).
    case jumpStart
    /// Jumps at the end of each interval (CSS `jump-end`/`end`, the default).
    case jumpEnd
    /// No jump at 0 or 1: `count` levels from 0 to 1 inclusive.
    case jumpNone
    /// Jumps at both ends: `count + 1` jumps.
    case jumpBoth
  }

  /// The shape of a ``TimingFunction``.
  public enum Kind: Sendable, Hashable, Codable {
    /// A cubic Bézier through the control points.
    case bezier
    /// `count` (≥ 1) equal steps.
    case steps(count: Int, position: StepPosition)
    /// Penner's back ease: `x²((s+1)x − s)` in, overshoot `s` (1.70158 gives 10 % overshoot).
    case back(EaseMode, overshoot: Double)
    /// framer-motion's anticipate: back-in to the midpoint, then an exponential ease out.
    case anticipate(overshoot: Double)
    /// Penner's bounce (four parabolic bounces).
    case bounce(EaseMode)
    /// Penner's elastic: amplitude ≥ 1, period in progress units (0.3 classic).
    case elastic(EaseMode, amplitude: Double, period: Double)
  }

  private init(kind: Kind) {
    self.init(0, 0, 1, 1)
    self.kind = kind
  }

  /// `count` equal steps (CSS `steps(count, position)`); `count` below 1 is treated as 1.
  public static func steps(_ count: Int, position: StepPosition = .jumpEnd) -> TimingFunction {
    TimingFunction(kind: .steps(count: max(1, count), position: position))
  }
  /// Penner's back ease with overshoot `s` (default 1.70158).
  public static func back(_ mode: EaseMode, overshoot: Double = 1.70158) -> TimingFunction {
    TimingFunction(kind: .back(mode, overshoot: overshoot))
  }
  /// framer-motion's `anticipate` (pulls back first, then shoots out).
  public static func anticipate(overshoot: Double = 1.70158) -> TimingFunction {
    TimingFunction(kind: .anticipate(overshoot: overshoot))
  }
  /// Penner's bounce.
  public static func bounce(_ mode: EaseMode) -> TimingFunction { TimingFunction(kind: .bounce(mode)) }
  /// Penner's elastic ease (amplitude ≥ 1, default 1; period default 0.3).
  public static func elastic(_ mode: EaseMode, amplitude: Double = 1, period: Double = 0.3)
    -> TimingFunction
  {
    TimingFunction(kind: .elastic(mode, amplitude: max(1, amplitude), period: max(period, 1e-6)))
  }
}

extension TimingFunction.Kind {
  /// Progress for `x` in the open interval (0, 1).
  func progress(_ x: Double) -> Double {
    switch self {
    case .bezier: return x
    case .steps(let n, let position):
      var step = (x * Double(n)).rounded(.down)
      var jumps = Double(n)
      switch position {
      case .jumpStart: step += 1
      case .jumpEnd: break
      case .jumpNone: jumps = Double(max(n - 1, 1))
      case .jumpBoth:
        step += 1
        jumps = Double(n + 1)
      }
      return min(max(step / jumps, 0), 1)
    case .back(let mode, let s): return Self.eased(mode, x) { Self.backIn($0, s) }
    case .bounce(let mode): return Self.eased(mode, x) { (1 - Self.bounceOut(1 - $0).0) }
    case .elastic(let mode, let a, let p): return Self.eased(mode, x) { Self.elasticIn($0, a, p).0 }
    case .anticipate(let s):
      return x < 0.5 ? 0.5 * Self.backIn(2 * x, s) : 0.5 * (2 - pow(2, -10 * (2 * x - 1)))
    }
  }

  /// d(progress)/dx for `x` in 0…1.
  func slope(_ x: Double) -> Double {
    switch self {
    case .bezier: return 1
    case .steps: return 0
    case .back(let mode, let s):
      return Self.easedSlope(mode, x) { 3 * (s + 1) * $0 * $0 - 2 * s * $0 }
    case .bounce(let mode): return Self.easedSlope(mode, x) { Self.bounceOut(1 - $0).1 }
    case .elastic(let mode, let a, let p): return Self.easedSlope(mode, x) { Self.elasticIn($0, a, p).1 }
    case .anticipate(let s):
      if x < 0.5 {
        let u = 2 * x
        return 3 * (s + 1) * u * u - 2 * s * u
      }
      return 10 * log(2) * pow(2, -10 * (2 * x - 1))
    }
  }

  /// Builds out and in-out from an ease-in `f`.
  private static func eased(_ mode: TimingFunction.EaseMode, _ x: Double, _ f: (Double) -> Double)
    -> Double
  {
    switch mode {
    case .in: return f(x)
    case .out: return 1 - f(1 - x)
    case .inOut: return x < 0.5 ? f(2 * x) / 2 : 1 - f(2 - 2 * x) / 2
    }
  }

  /// The slope of ``eased(_:_:_:)`` given the ease-in's derivative `df`.
  private static func easedSlope(
    _ mode: TimingFunction.EaseMode, _ x: Double, _ df: (Double) -> Double
  ) -> Double {
    switch mode {
    case .in: return df(x)
    case .out: return df(1 - x)
    case .inOut: return x < 0.5 ? df(2 * x) : df(2 - 2 * x)
    }
  }

  private static func backIn(_ x: Double, _ s: Double) -> Double { x * x * ((s + 1) * x - s) }

  /// Penner's bounce-out and its derivative.
  private static func bounceOut(_ x: Double) -> (Double, Double) {
    let n1 = 7.5625
    let d1 = 2.75
    let (c, k): (Double, Double)
    if x < 1 / d1 {
      (c, k) = (0, 0)
    } else if x < 2 / d1 {
      (c, k) = (1.5 / d1, 0.75)
    } else if x < 2.5 / d1 {
      (c, k) = (2.25 / d1, 0.9375)
    } else {
      (c, k) = (2.625 / d1, 0.984375)
    }
    let u = x - c
    return (n1 * u * u + k, 2 * n1 * u)
  }

  /// Penner's elastic-in and its derivative.
  private static func elasticIn(_ x: Double, _ a: Double, _ p: Double) -> (Double, Double) {
    let s = p / (2 * Double.pi) * asin(1 / a)
    let e = pow(2, 10 * (x - 1))
    let w = 2 * Double.pi / p
    let theta = (x - 1 - s) * w
    // Typed steps: as one expression over literals this took the type checker about 3 s.
    let ln2: Double = log(2.0)
    let sine: Double = sin(theta)
    let slope: Double = 10 * ln2 * e * sine + e * w * cos(theta)
    return (-a * e * sine, -a * slope)
  }
}

extension TimingFunction: Codable {
  private enum CodingKeys: String, CodingKey { case c1, c2, kind }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      controlPoint1: try c.decode(Point.self, forKey: .c1), controlPoint2: try c.decode(Point.self, forKey: .c2))
    kind = try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .bezier
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(c1, forKey: .c1)
    try c.encode(c2, forKey: .c2)
    if kind != .bezier { try c.encode(kind, forKey: .kind) }
  }
}
