extension KeyframeAnimation {
  /// Every key time is a break (the velocity may jump there, a discrete value does); inside a key
  /// interval, the turn points of its timing function, or, for cubic keyframes, the zeros of the
  /// Hermite cubic's velocity in each component.
  package func turns(after t: Double) -> CurveTurns { turns(t, forward: true) }

  package func turns(before t: Double) -> CurveTurns { turns(t, forward: false) }

  private func turns(_ t: Double, forward: Bool) -> CurveTurns {
    let keys = keyTimes
    guard values.count > 1, duration > 0, !keys.isEmpty else { return .none(forward: forward) }
    let p = t / duration
    // The key interval i (keys[i] ≤ p < keys[i + 1] forward, keys[i] < p ≤ keys[i + 1] back).
    var lo = 0
    var hi = keys.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if forward ? keys[mid] <= p : keys[mid] < p { lo = mid + 1 } else { hi = mid }
    }
    let i = lo - 1
    guard i >= 0, i + 1 < keys.count else { return .nearest(to: t, in: keys.map { $0 * duration }, forward: forward) }
    let length = keys[i + 1] - keys[i]
    var inside: [Double] = []
    var spacing = Double.infinity
    if calculationMode == .cubic, i + 1 < values.count, i + 1 < tangents.count {
      if let roots = cubicTurns(i, length) {
        inside = roots
      } else {
        spacing = length * duration / 8
      }
    } else if calculationMode == .linear, i < timingFunctions.count {
      inside = timingFunctions[i].turnPoints
      spacing = timingFunctions[i].turnSpacing * length * duration
    }
    let points = ([keys[i]] + inside.sorted().map { keys[i] + $0 * length } + [keys[i + 1]]).map { $0 * duration }
    return .nearest(to: t, in: points, forward: forward, spacing: spacing)
  }

  /// The fractions of key interval `i` where a component of the Hermite cubic turns: the zeros
  /// of its velocity `A f² + B f + C`; nil for values whose components cannot be read.
  private func cubicTurns(_ i: Int, _ length: Double) -> [Double]? {
    let (v0, v1, t0, t1) = (
      values[i], values[i + 1], tangents[i].scaled(by: length), tangents[i + 1].scaled(by: length)
    )
    let a = (v0 - v1).scaled(by: 6) + (t0 + t1).scaled(by: 3)
    let b = (v1 - v0).scaled(by: 6) - t0.scaled(by: 4) - t1.scaled(by: 2)
    guard let ca = Self.components(a), let cb = Self.components(b), let cc = Self.components(t0) else { return nil }
    return zip(zip(ca, cb), cc).flatMap { ab, c in unitRoots(ab.0, ab.1, c) }
  }

  /// The components of `v` (a number, point, size, …), nil when it has none to read.
  static func components(_ v: Value) -> [Double]? {
    guard let c = v as? any ComponentwiseAnimatable else { return nil }
    return list(c)
  }

  private static func list<C: ComponentwiseAnimatable>(_ c: C) -> [Double] {
    var out: [Double] = []
    _ = c.mapComponents { x in
      out.append(x)
      return x
    }
    return out
  }
}

extension DragCurve {
  /// The path's breaks where the eased progress reaches them, and the timing's own turns. A
  /// timing that goes back over the path (an overshooting Bézier) is stepped by a 64th of the drag.
  package func turns(after t: Double) -> CurveTurns { turns(t, forward: true) }

  package func turns(before t: Double) -> CurveTurns { turns(t, forward: false) }

  private func turns(_ t: Double, forward: Bool) -> CurveTurns {
    guard duration > 0 else { return .none(forward: forward) }
    let own = timing.turnPoints
    guard own.isEmpty else {
      return .nearest(to: t, in: own.map { $0 * duration }, forward: forward, spacing: duration / 64)
    }
    let x = min(max(t / duration, 0), 1)
    let s = timing.progress(at: x) * duration
    let path = forward ? self.path.turns(after: s) : self.path.turns(before: s)
    let spacing = path.spacing.isFinite ? min(path.spacing, duration / 64) : .infinity
    guard path.next.isFinite else { return CurveTurns(next: path.next, spacing: spacing) }
    // The progress goes one way: the first x past which it reaches the break (bisection).
    var lo = forward ? x : 0
    var hi = forward ? 1 : x
    for _ in 0..<80 where hi - lo > 1e-15 {
      let mid = lo + (hi - lo) / 2
      if timing.progress(at: mid) * duration < path.next { lo = mid } else { hi = mid }
    }
    return CurveTurns(next: (forward ? hi : lo) * duration, spacing: spacing)
  }
}
