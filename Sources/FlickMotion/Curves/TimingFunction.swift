/// A timing curve that maps linear progress (`0…1`) to eased progress, as `CAMediaTimingFunction` does.
///
/// The named curves use Core Animation's control points. A cubic Bézier from (0, 0) to (1, 1)
/// is solved exactly: Newton's method on x(s) with a bisection fallback, to `1e-12` in x.
/// Beyond Core Animation, a timing function can also be a step function
/// (``steps(_:position:)``) or one of the classic eases `back`, `anticipate`, `bounce` and
/// `elastic` (see ``Kind``); for those `c1`/`c2` are (0, 0) and (1, 1) and unused.
///
///     TimingFunction.easeInEaseOut.progress(at: 0.5)  // 0.5
public struct TimingFunction: Sendable, Hashable {
  /// The shape of the curve; ``Kind/bezier`` for everything built from control points.
  public internal(set) var kind: Kind = .bezier

  /// First control point (x in `0…1`; y may overshoot).
  public var c1: Point
  /// Second control point (x in `0…1`; y may overshoot).
  public var c2: Point

  /// A cubic-Bézier timing curve through (0, 0), `c1`, `c2`, (1, 1).
  ///
  /// - Precondition: `c1.x` and `c2.x` lie in `0…1`, so the curve is a function of x.
  public init(controlPoint1 c1: Point, controlPoint2 c2: Point) {
    self.c1 = c1
    self.c2 = c2
  }

  /// `init(controlPoints:)` in Core Animation's argument order.
  public init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
    self.init(controlPoint1: Point(x: c1x, y: c1y), controlPoint2: Point(x: c2x, y: c2y))
  }

  /// Constant speed: (0, 0, 1, 1).
  public static let linear = TimingFunction(0, 0, 1, 1)
  /// Starts slowly: (0.42, 0, 1, 1).
  public static let easeIn = TimingFunction(0.42, 0, 1, 1)
  /// Ends slowly: (0, 0, 0.58, 1).
  public static let easeOut = TimingFunction(0, 0, 0.58, 1)
  /// Starts and ends slowly: (0.42, 0, 0.58, 1).
  public static let easeInEaseOut = TimingFunction(0.42, 0, 0.58, 1)
  /// Core Animation's `default` curve: (0.25, 0.1, 0.25, 1).
  public static let `default` = TimingFunction(0.25, 0.1, 0.25, 1)

  /// The names Core Animation uses for its built-in curves, for templates and the CLI.
  public static let named: [String: TimingFunction] = [
    "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut,
    "easeInEaseOut": .easeInEaseOut, "default": .default,
    "backIn": .back(.in), "backOut": .back(.out), "backInOut": .back(.inOut),
    "anticipate": .anticipate(),
    "bounceIn": .bounce(.in), "bounceOut": .bounce(.out), "bounceInOut": .bounce(.inOut),
    "elasticIn": .elastic(.in), "elasticOut": .elastic(.out), "elasticInOut": .elastic(.inOut),
  ]

  /// The eased progress for linear progress `x`.
  ///
  /// - Parameter x: Linear progress; clamped to `0…1`.
  /// - Returns: The curve's y at `x`; may leave `0…1` when a control point overshoots.
  public func progress(at x: Double) -> Double {
    if x < 0 { return 0 }
    // At 0 a steps curve that jumps at its start has jumped (CSS Easing, WebKit's
    // `TimingFunction::transformProgress`: 1/n for steps(n, jumpStart) in the active phase);
    // ``progress(before:)`` is the 0 before it.
    if x == 0 {
      if case .steps = kind { return kind.progress(0) }
      return 0
    }
    if x >= 1 { return 1 }
    guard case .bezier = kind else { return kind.progress(x) }
    if c1.x == c1.y && c2.x == c2.y { return x }  // a straight line
    let s = UnitBezier(c1: c1, c2: c2)
    return s.sampleY(s.solveX(x, epsilon: 1e-12))
  }

  /// The left limit of ``progress(at:)`` at `x`: equal to it except where the curve jumps (a
  /// `steps` curve just before a step, or `steps(n, jumpEnd)` just before 1).
  public func progress(before x: Double) -> Double {
    if x <= 0 { return 0 }
    if x > 1 { return 1 }
    if case .steps = kind { return kind.progress(x.nextDown) }
    return progress(at: x)
  }

  /// The derivative of ``progress(at:)`` with respect to `x` (0 outside `0…1` and on steps).
  ///
  /// A Bézier curve's slope is `y′(s) / x′(s)` at the curve parameter `s` of `x`, solved to the
  /// last bit (not to the `1e-12` of ``progress(at:)``, which near an end whose `x′` vanishes
  /// left the slope off by up to 3·10⁻⁷), from the end nearer `x`: above 0.5 on the curve turned
  /// end for end, so both derivatives are computed without cancellation where they are small.
  /// At 0 and 1 it is the end tangent, `c1.y / c1.x` and `(1 − c2.y) / (1 − c2.x)`; where that
  /// control point sits on its end (easeIn at 1, easeOut at 0) the ratio of the first
  /// derivatives that do not vanish (`c2.y / c2.x` for easeOut at 0). Where the tangent is
  /// vertical (`x′` is 0 and `y′` is not: a control point with x 0 or 1 and another y) the slope
  /// is the secant over the `10⁻⁶` of `x` around it.
  public func slope(at x: Double) -> Double {
    if x < 0 || x > 1 { return 0 }
    guard case .bezier = kind else { return kind.slope(min(max(x, 0), 1)) }
    if c1.x == c1.y && c2.x == c2.y { return 1 }
    let fromEnd = x > 0.5
    let b =
      fromEnd
      ? UnitBezier(c1: Point(x: 1 - c2.x, y: 1 - c2.y), c2: Point(x: 1 - c1.x, y: 1 - c1.y))
      : UnitBezier(c1: c1, c2: c2)
    let u = fromEnd ? 1 - x : x  // exact above 0.5
    if u == 0, let tangent = b.startSlope { return tangent }
    if u > 0 {
      let s = b.solveXExactly(u)
      let dx = b.sampleDerivativeX(s)
      let slope = b.sampleDerivativeY(s) / dx
      if dx > 0, slope.isFinite { return slope }
    }
    // A vertical tangent.
    let h = 1e-6
    let lo = max(0, x - h)
    let hi = min(1, x + h)
    return (progress(at: hi) - progress(at: lo)) / (hi - lo)
  }
}

/// The polynomial form of a cubic Bézier with fixed end points (0, 0) and (1, 1) (WebKit's UnitBezier).
struct UnitBezier {
  let ax, bx, cx, ay, by, cy: Double

  init(c1: Point, c2: Point) {
    cx = 3 * c1.x
    bx = 3 * (c2.x - c1.x) - cx
    ax = 1 - cx - bx
    cy = 3 * c1.y
    by = 3 * (c2.y - c1.y) - cy
    ay = 1 - cy - by
  }

  @inline(__always) func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
  @inline(__always) func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
  @inline(__always) func sampleDerivativeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
  @inline(__always) func sampleDerivativeY(_ s: Double) -> Double { (3 * ay * s + 2 * by) * s + cy }

  /// The curve parameter `s` whose x is `x`, to within `epsilon`.
  func solveX(_ x: Double, epsilon: Double) -> Double {
    var s = x
    for _ in 0..<8 {
      let err = sampleX(s) - x
      if abs(err) < epsilon { return s }
      let d = sampleDerivativeX(s)
      if abs(d) < 1e-6 { break }
      s -= err / d
    }
    var lo = 0.0
    var hi = 1.0
    s = x
    for _ in 0..<200 {
      let v = sampleX(s)
      if abs(v - x) < epsilon { return s }
      if x > v { lo = s } else { hi = s }
      s = (lo + hi) / 2
      if hi - lo < 1e-16 { break }
    }
    return s
  }

  /// The curve parameter whose x is nearest `x`, to the last bit: Newton's method from the
  /// ``solveX(_:epsilon:)`` solution, bisecting where a step would leave the bracket of the root.
  func solveXExactly(_ x: Double) -> Double {
    var lo = 0.0
    var hi = 1.0
    var s = solveX(x, epsilon: 1e-12)
    for _ in 0..<100 {
      let v = sampleX(s)
      if v == x { return s }
      if v < x { lo = s } else { hi = s }
      if lo.nextUp >= hi { return abs(sampleX(lo) - x) <= abs(sampleX(hi) - x) ? lo : hi }
      var next = s - (v - x) / sampleDerivativeX(s)
      if !(next > lo && next < hi) { next = lo + (hi - lo) / 2 }
      if next == s { return s }
      s = next
    }
    return s
  }

  /// The slope at (0, 0): the ratio of the first derivatives of x and y there that are not
  /// both 0 (`cy / cx`, or `by / bx` where the first control point is the start, and so on); nil
  /// where the tangent is vertical (y's derivative is not 0 where x's is).
  var startSlope: Double? {
    for (dx, dy) in [(cx, cy), (bx, by), (ax, ay)] {
      if dx != 0 { return dy / dx }
      if dy != 0 { return nil }
    }
    return nil
  }
}
