import FlickMotion

extension ShapePath {
  /// Segments of the path as cubic Béziers (lines have their controls at the thirds), each with
  /// whether it starts a new sub-path.
  private func segments() -> [(start: Bool, p: [Point])] {
    var out: [(Bool, [Point])] = []
    var subStart: Point?
    var current: Point?
    var newSub = true
    for e in elements {
      switch e {
      case .move(let p):
        subStart = p
        current = p
        newSub = true
      case .line(let p):
        let c = current ?? p
        out.append((newSub, [c, c.interpolated(to: p, amount: 1.0 / 3), c.interpolated(to: p, amount: 2.0 / 3), p]))
        newSub = false
        current = p
      case .curve(let p, let c1, let c2):
        let c = current ?? p
        out.append((newSub, [c, c1, c2, p]))
        newSub = false
        current = p
      case .closeSubpath:
        if let c = current, let s = subStart, c != s {
          out.append((newSub, [c, c.interpolated(to: s, amount: 1.0 / 3), c.interpolated(to: s, amount: 2.0 / 3), s]))
        }
        current = subStart
        newSub = true
      }
    }
    return out
  }

  private static let samples = 32

  /// Cumulative polyline lengths of a cubic at `samples + 1` evenly spaced parameters.
  private static func lengthTable(_ p: [Point]) -> [Double] {
    var table = [0.0]
    var previous = p[0]
    for k in 1...samples {
      let q = point(p, Double(k) / Double(samples))
      table.append(table[k - 1] + (q - previous).magnitudeSquared.squareRoot())
      previous = q
    }
    return table
  }

  private static func point(_ p: [Point], _ t: Double) -> Point {
    let u = 1 - t
    let a = u * u * u
    let b = 3 * u * u * t
    let c = 3 * u * t * t
    let d = t * t * t
    return Point(
      x: a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x, y: a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y)
  }

  /// The parameter at which the arc length along the cubic reaches `s`.
  private static func parameter(_ table: [Double], _ s: Double) -> Double {
    guard let total = table.last, total > 0 else { return 0 }
    if s <= 0 { return 0 }
    if s >= total { return 1 }
    var k = 1
    while k < table.count - 1 && table[k] < s { k += 1 }
    let span = table[k] - table[k - 1]
    let f = span > 0 ? (s - table[k - 1]) / span : 0
    return (Double(k - 1) + f) / Double(samples)
  }

  /// The part of a cubic between parameters `t0 ≤ t1` (de Casteljau).
  private static func split(_ p: [Point], _ t0: Double, _ t1: Double) -> [Point] {
    func right(_ p: [Point], _ t: Double) -> [Point] {
      let ab = p[0].interpolated(to: p[1], amount: t)
      let bc = p[1].interpolated(to: p[2], amount: t)
      let cd = p[2].interpolated(to: p[3], amount: t)
      let abc = ab.interpolated(to: bc, amount: t)
      let bcd = bc.interpolated(to: cd, amount: t)
      return [abc.interpolated(to: bcd, amount: t), bcd, cd, p[3]]
    }
    func left(_ p: [Point], _ t: Double) -> [Point] {
      let ab = p[0].interpolated(to: p[1], amount: t)
      let bc = p[1].interpolated(to: p[2], amount: t)
      let cd = p[2].interpolated(to: p[3], amount: t)
      let abc = ab.interpolated(to: bc, amount: t)
      let bcd = bc.interpolated(to: cd, amount: t)
      return [p[0], ab, abc, abc.interpolated(to: bcd, amount: t)]
    }
    let r = t0 > 0 ? right(p, t0) : p
    guard t1 < 1 else { return r }
    let t = t0 < 1 ? (t1 - t0) / (1 - t0) : 0
    return left(r, t)
  }

  /// The total length of every sub-path, in points (curves measured to well under a point).
  public var length: Double {
    segments().reduce(0) { $0 + (Self.lengthTable($1.p).last ?? 0) }
  }

  /// The part of the path between fractions `start` and `end` of its total length (`0…1`,
  /// clamped), as Core Animation's `strokeStart`/`strokeEnd` trim a stroke. Closed sub-paths
  /// become open ones. Returns an empty path when `end ≤ start`.
  public func trimmed(from start: Double, to end: Double) -> ShapePath {
    let s0 = min(max(start, 0), 1)
    let s1 = min(max(end, 0), 1)
    if s0 <= 0 && s1 >= 1 { return self }
    guard s1 > s0 else { return ShapePath() }
    let segs = segments()
    let tables = segs.map { Self.lengthTable($0.p) }
    let total = tables.reduce(0) { $0 + ($1.last ?? 0) }
    guard total > 0 else { return ShapePath() }
    let from = s0 * total
    let to = s1 * total
    var out = ShapePath()
    var offset = 0.0
    var connected = false
    for (seg, table) in zip(segs, tables) {
      let length = table.last ?? 0
      defer { offset += length }
      if seg.start { connected = false }
      let a = max(from, offset)
      let b = min(to, offset + length)
      guard b > a || (length == 0 && a == b && from <= offset && offset <= to) else { continue }
      let t0 = Self.parameter(table, a - offset)
      let t1 = Self.parameter(table, b - offset)
      let piece = Self.split(seg.p, t0, t1)
      if !connected { out.move(to: piece[0]) }
      out.addCurve(to: piece[3], control1: piece[1], control2: piece[2])
      connected = true
    }
    return out
  }
}
