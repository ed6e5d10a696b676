extension TimedAnimation {
  /// The base curve's breaks and spacing on the parent timeline, with the timing's own breaks:
  /// the begin time, every iteration boundary (a repeat jumps back to the start, an autoreverse
  /// turns there), the wrap of a `timeOffset` and the end. Spacings shrink by the speed.
  public func turns(after parentTime: Double) -> CurveTurns { turns(parentTime, forward: true) }

  public func turns(before parentTime: Double) -> CurveTurns { turns(parentTime, forward: false) }

  private func turns(_ p: Double, forward: Bool) -> CurveTurns {
    let begin = timing.beginTime
    let end = duration
    if forward ? p < begin : p > end { return CurveTurns(next: forward ? begin : end) }
    if forward ? p >= end : p <= begin { return .none(forward: forward) }
    let speed = timing.speed
    // Frozen (speed 0): the value holds.
    guard speed > 0 else { return CurveTurns(next: forward ? end : begin) }
    var found = CurveTurns(next: forward ? end : begin)
    let d = base.duration
    let activeLength = timing.activeDuration(simpleDuration: d)
    var a = (p - begin) * speed
    // Shifted active time `x` is at parent time p + (x − a)/speed.
    func parent(_ x: Double) -> Double { p + (x - a) / speed }
    if timing.timeOffset != 0 {
      a += timing.timeOffset
      if activeLength.isFinite && activeLength > 0 {
        a = a.truncatingRemainder(dividingBy: activeLength)
        if a < 0 { a += activeLength }
        if forward || a > 0 {
          found = found.merged(with: CurveTurns(next: parent(forward ? activeLength : 0)), forward: forward)
        }
      }
    }
    guard d > 0, d.isFinite else {
      let inner = forward ? base.turns(after: a) : base.turns(before: a)
      return found.merged(
        with: CurveTurns(next: inner.next.isFinite ? parent(inner.next) : inner.next, spacing: inner.spacing / speed),
        forward: forward)
    }
    var k = (a / d).rounded(.down)
    if !forward && a - k * d <= 0 && k > 0 { k -= 1 }
    let start = k * d
    let u = a - start
    found = found.merged(with: CurveTurns(next: parent(forward ? start + d : start)), forward: forward)
    let reversed = timing.autoreverses && abs(k.truncatingRemainder(dividingBy: 2)) == 1
    // Played backwards, the base's break before d − u comes next, at start + d − break.
    let inner =
      reversed
      ? (forward ? base.turns(before: d - u) : base.turns(after: d - u))
      : (forward ? base.turns(after: u) : base.turns(before: u))
    let next =
      inner.next.isFinite
      ? parent(reversed ? start + d - inner.next : start + inner.next) : (forward ? .infinity : -.infinity)
    return found.merged(with: CurveTurns(next: next, spacing: inner.spacing / speed), forward: forward)
  }
}
