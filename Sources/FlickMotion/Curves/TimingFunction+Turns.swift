extension TimingFunction {
  /// The progresses `x` (0 < x < 1, sorted) where the eased progress turns or its slope jumps: a
  /// Bézier's stationary points, the dip of a back or anticipate curve, a bounce's touches and
  /// tops, the middle of an in-out elastic. A steps curve only goes one way: none.
  package var turnPoints: [Double] {
    switch kind {
    case .bezier:
      if c1.x == c1.y && c2.x == c2.y { return [] }
      let b = UnitBezier(c1: c1, c2: c2)
      return unitRoots(3 * b.ay, 2 * b.by, b.cy).map { b.sampleX($0) }.filter { $0 > 0 && $0 < 1 }.sorted()
    case .steps: return []
    case .back(let mode, let s):
      let x0 = 2 * s / (3 * (s + 1))
      return Self.eased(mode, x0 > 0 && x0 < 1 ? [x0] : [])
    case .anticipate(let s):
      let x0 = 2 * s / (3 * (s + 1))
      return x0 > 0 && x0 < 1 ? [x0 / 2] : []
    case .bounce(let mode):
      // bounceOut's arcs meet at 1, 2 and 2.5 (÷ 2.75) and dip at 1.5, 2.25 and 2.625; the
      // eased curve is bounceIn, its mirror.
      let out = [1, 1.5, 2, 2.25, 2.5, 2.625].map { $0 / 2.75 }
      return Self.eased(mode, out.map { 1 - $0 }.reversed())
    case .elastic(let mode, _, _): return mode == .inOut ? [0.5] : []
    }
  }

  /// Between ``turnPoints`` any two turns of the progress are at least this far apart, in
  /// progress: half an elastic's period (its oscillation turns every half period), infinity for
  /// the others (at most one turn between two turn points).
  package var turnSpacing: Double {
    guard case .elastic(let mode, _, let p) = kind else { return .infinity }
    return mode == .inOut ? p / 4 : p / 2
  }

  /// The points `inPoints` of an ease-in curve `f` placed on the eased curve of `mode` (out: the
  /// mirror `1 − f(1 − x)`, in-out: `f(2x)/2` then its mirror), with the in-out middle.
  private static func eased(_ mode: EaseMode, _ inPoints: [Double]) -> [Double] {
    switch mode {
    case .in: return inPoints
    case .out: return inPoints.map { 1 - $0 }.reversed()
    case .inOut: return inPoints.map { $0 / 2 } + [0.5] + inPoints.map { 1 - $0 / 2 }.reversed()
    }
  }
}

/// The real roots of `a s² + b s + c` in 0 < s < 1.
func unitRoots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
  var out: [Double] = []
  if abs(a) < 1e-12 * max(abs(b), abs(c), 1) {
    if b != 0 { out = [-c / b] }
  } else {
    let d = b * b - 4 * a * c
    if d >= 0 {
      let q = -(b + (b < 0 ? -1 : 1) * d.squareRoot()) / 2
      out = [q / a] + (q != 0 ? [c / q] : [])
    }
  }
  return out.filter { $0 > 0 && $0 < 1 }
}

extension BasicAnimation {
  /// The timing function's turn points and spacing in this tween's seconds.
  public func turns(after t: Double) -> CurveTurns { turns(t, forward: true) }

  public func turns(before t: Double) -> CurveTurns { turns(t, forward: false) }

  private func turns(_ t: Double, forward: Bool) -> CurveTurns {
    guard duration > 0 else { return .none(forward: forward) }
    let points = timingFunction.turnPoints.map { $0 * duration }
    return .nearest(to: t, in: points, forward: forward, spacing: timingFunction.turnSpacing * duration)
  }
}

extension InterpolationMap {
  package var turns: (points: [Double], spacing: Double) {
    var points = input
    var spacing = Double.infinity
    for (i, f) in timing.enumerated() where i + 1 < input.count {
      let width = input[i + 1] - input[i]
      points += f.turnPoints.map { input[i] + $0 * width }
      spacing = min(spacing, f.turnSpacing * width)
    }
    return (points.sorted(), spacing)
  }
}

extension ColorSpaceInterpolationMap {
  package var turns: (points: [Double], spacing: Double) { components.turns }
}
