import FlickMotion

/// Which way a value must go through a level to count as crossing it.
package enum CrossingDirection: String, Sendable, CaseIterable {
  /// From below the level to the level or above.
  case up
  /// From above the level to the level or below.
  case down
}

/// What a search for a crossing found on a track
/// (``PropertyTracks/firstCrossing(of:direction:from:to:breakpoints:turns:budget:read:)``).
package struct CrossingSearch: Sendable {
  /// The first crossing: scene time (seconds) and whether it went up; nil when there is none.
  package var crossing: (time: Double, isUp: Bool)?
  /// The lowest and highest values met over the searched interval (extremes between scan
  /// steps included), for messages.
  package var range: ClosedRange<Double>
  /// The scene time the search had reached when its budget of reads ran out, nil when it
  /// searched the whole interval (or found the crossing).
  package var stoppedAt: Double?
}

extension PropertyTracks {
  /// Longest scan step of ``firstCrossing(of:direction:from:to:breakpoints:turns:budget:read:)``,
  /// seconds: a binary fraction, so the scan's times are exact and the same at any frame rate.
  package static let crossingScanStep = 1.0 / 1024
  /// Width of the bracket a crossing is refined to, seconds.
  package static let crossingTolerance = 1e-9

  /// The scene times in `range` where `name` on `layerID` may jump: the begin and end of every
  /// segment writing its state, and, through links, of what they read (sorted, unique).
  package func breakpoints(of name: String, layerID: String, in range: ClosedRange<Double>) -> [Double] {
    var visited = 0
    return breakpoints(of: name, layerID: layerID, in: range, visited: &visited)
  }

  /// ``breakpoints(of:layerID:in:)``, adding to `visited` the segments it looked at (the ones
  /// ``settleTime(of:layerID:)`` looks at too: every segment of the state and of what it reads).
  package func breakpoints(of name: String, layerID: String, in range: ClosedRange<Double>, visited: inout Int)
    -> [Double]
  {
    var out: Set<Double> = []
    var seen: Set<LinkNode> = []
    var pending = [LinkNode(layerID: layerID, name: name)]
    while let node = pending.popLast() {
      guard seen.insert(node).inserted, let byName = segments[node.layerID] else { continue }
      for related in AnyLayerProperty.overlapping(node.name) {
        visited += byName[related]?.count ?? 0
        for segment in byName[related] ?? [] {
          for t in [segment.begin, segment.begin + segment.duration] where range.contains(t) { out.insert(t) }
          if let read = segment.sourceRead { pending.append(LinkNode(layerID: read.layerID, name: read.name)) }
        }
      }
    }
    return out.sorted()
  }

  /// The first time in `from…to` at which a number read from the tracks reaches `level` coming
  /// from the other side (going up: from below to `level` or above; down: the reverse; nil
  /// `direction`: either). A value that starts exactly at `level` has not crossed it until it
  /// leaves and comes back; a jump through `level` (a `set`) crosses it at the jump.
  ///
  /// The search walks the track piece by piece between `breakpoints` (where animations begin and
  /// end) and the breaks `turns` gives (``CurveTurns``: where the value may jump or turn at a known
  /// instant: an iteration of a repeat, the turn of an autoreverse, a key time, a Bézier's or a
  /// bounce's turn), in steps of ``crossingScanStep`` or half the turn spacing `turns` gives
  /// (half a period of the fastest spring moving it), whichever is shorter. So a step holds at
  /// most one turn of the value: where the velocity changes sign inside it, the extreme is found
  /// too, so a value that goes through `level` and back within one step is not missed, and a
  /// step whose ends bracket the level holds only the first crossing. The crossing is then
  /// refined inside its bracket by bisection and secant steps (Illinois) to
  /// ``crossingTolerance``, and the returned time is the bracket's end on the reached side.
  /// Nothing here depends on a frame rate.
  ///
  /// Every read is taken from `budget`; when it runs out before a scan step (a search of an
  /// hour in steps of 1/1024 s reads the track about 3.7 million times), the search stops there
  /// and says where (``CrossingSearch/stoppedAt``), so many searches together cost at most their budget.
  ///
  /// - Parameters:
  ///   - turns: the breaks and turn spacing of the track after a scene time (``PropertyTracks/turns(of:layerID:at:forward:)``).
  ///   - read: the value and velocity at a scene time, from a side.
  package static func firstCrossing(
    of level: Double, direction: CrossingDirection?, from: Double, to: Double, breakpoints: [Double],
    turns: (Double) -> CurveTurns = { _ in .none(forward: true) }, budget: inout Int,
    read readTrack: (Double, TrackLimit) -> (value: Double, velocity: Double)
  ) -> CrossingSearch {
    func read(_ t: Double, _ side: TrackLimit) -> (value: Double, velocity: Double) {
      budget -= 1
      return readTrack(t, side)
    }
    return scan(
      level, direction, from: from, to: to, breakpoints: breakpoints, turns: turns, budget: { budget }, read: read)
  }

  /// ``firstCrossing(of:direction:from:to:breakpoints:turns:budget:read:)`` without a budget.
  package static func firstCrossing(
    of level: Double, direction: CrossingDirection?, from: Double, to: Double, breakpoints: [Double],
    turns: (Double) -> CurveTurns = { _ in .none(forward: true) },
    read: (Double, TrackLimit) -> (value: Double, velocity: Double)
  ) -> CrossingSearch {
    var budget = Int.max
    return firstCrossing(
      of: level, direction: direction, from: from, to: to, breakpoints: breakpoints, turns: turns, budget: &budget,
      read: read)
  }

  /// ``firstCrossing(of:direction:from:to:breakpoints:turns:budget:read:)`` with its reads counted by
  /// `read` itself; `budget` says how many are left.
  private static func scan(
    _ level: Double, _ direction: CrossingDirection?, from: Double, to: Double, breakpoints: [Double],
    turns: (Double) -> CurveTurns, budget: () -> Int, read: (Double, TrackLimit) -> (value: Double, velocity: Double)
  ) -> CrossingSearch {
    func crossed(_ a: Double, _ b: Double) -> Bool? {
      if direction != .down, a < level, b >= level { return true }
      if direction != .up, a > level, b <= level { return false }
      return nil
    }
    var previous = read(from, .left)
    var low = previous.value
    var high = previous.value
    func note(_ v: Double) {
      low = min(low, v)
      high = max(high, v)
    }
    let end = max(from, to)
    let knots = breakpoints.filter { $0 > from && $0 < end } + [end]
    var k = 0
    var a = from
    while true {
      let start = read(a, .right)
      note(start.value)
      if let up = crossed(previous.value, start.value) {
        return CrossingSearch(crossing: (a, up), range: min(low, start.value)...max(high, start.value))
      }
      previous = start
      guard a < end else { break }
      while knots[k] <= a { k += 1 }
      // The next stop: an animation's begin or end, or a break of what moves the track now.
      var plan = turns(a)
      if plan.next <= a + crossingTolerance {
        // The break it gives is here (rounding put it on this side of it): ask past it.
        let later = turns(a + crossingTolerance)
        plan = CurveTurns(next: later.next, spacing: min(plan.spacing, later.spacing))
      }
      let b = plan.next > a ? min(knots[k], plan.next) : knots[k]
      let step = max(min(crossingScanStep, plan.spacing / 2), 4 * a.ulp)
      let steps = max(1, Int(min(((b - a) / step).rounded(.up), Double(Int.max / 2))))
      var t0 = a
      for i in 1...steps {
        guard budget() > 0 else { return CrossingSearch(crossing: nil, range: low...high, stoppedAt: t0) }
        let t1 = i == steps ? b : a + Double(i) * step
        let s = read(t1, i == steps ? .left : .right)
        note(s.value)
        // A break inside an animation (a repeat's jump back) that only approaches the level is not
        // a crossing: the value shown at the break decides (read at the top of the loop).
        if i == steps, b < knots[k], s.value == level { break }
        var bracket: (end: Double, up: Bool)? = crossed(previous.value, s.value).map { (t1, $0) }
        if bracket == nil, previous.velocity * s.velocity < 0 {
          // An extreme inside the step: the value may go through the level and back.
          let e = extreme(between: t0, t1, read: read)
          let v = read(e, .right).value
          note(v)
          bracket = crossed(previous.value, v).map { (e, $0) }
        }
        if let bracket {
          let time = refine(level, up: bracket.up, low: t0, high: bracket.end, read: read)
          return CrossingSearch(crossing: (time, bracket.up), range: low...high)
        }
        previous = s
        t0 = t1
      }
      a = b
    }
    return CrossingSearch(crossing: nil, range: low...high)
  }

  /// The time in `a…b` where the velocity changes sign (bisection on its sign).
  private static func extreme(
    between a: Double, _ b: Double, read: (Double, TrackLimit) -> (value: Double, velocity: Double)
  ) -> Double {
    var lo = a
    var hi = b
    let sign = read(a, .right).velocity
    for _ in 0..<60 where hi - lo > crossingTolerance {
      let mid = lo + (hi - lo) / 2
      if read(mid, .right).velocity * sign > 0 { lo = mid } else { hi = mid }
    }
    return hi
  }

  /// Narrows `low…high` (level not reached at `low`, reached at `high`) to the tolerance: the
  /// Illinois variant of regula falsi, with a bisection every third step so it always converges.
  private static func refine(
    _ level: Double, up: Bool, low: Double, high: Double,
    read: (Double, TrackLimit) -> (value: Double, velocity: Double)
  ) -> Double {
    func f(_ t: Double) -> Double { read(t, .right).value - level }
    func reached(_ v: Double) -> Bool { up ? v >= 0 : v <= 0 }
    var lo = low
    var hi = high
    var flo = f(lo)
    var fhi = f(hi)
    var iteration = 0
    while hi - lo > crossingTolerance, iteration < 200 {
      iteration += 1
      var x = lo + (hi - lo) / 2
      if iteration % 3 != 0, fhi != flo {
        let secant = hi - fhi * (hi - lo) / (fhi - flo)
        if secant > lo, secant < hi { x = secant }
      }
      let fx = f(x)
      if reached(fx) {
        hi = x
        fhi = fx
        flo /= 2
      } else {
        lo = x
        flo = fx
        fhi /= 2
      }
    }
    return hi
  }
}
