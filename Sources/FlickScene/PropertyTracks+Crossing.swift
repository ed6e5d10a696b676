import FlickMotion

/// Which way a value must go through a level to count as crossing it.
package enum CrossingDirection: String, Sendable, CaseIterable {
  /// From below the level to the level or above.
  case up
  /// From above the level to the level or below.
  case down
}

/// What a search for a crossing found on a track
/// (``PropertyTracks/firstCrossing(of:direction:from:to:breakpoints:budget:read:)``).
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
  /// Scan step of ``firstCrossing(of:direction:from:to:breakpoints:budget:read:)``, seconds: a binary
  /// fraction, so the scan's times are exact and the same at any frame rate.
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
  /// The search walks the track piece by piece between `breakpoints` (where it may jump) in
  /// steps of ``crossingScanStep``; where the velocity changes sign inside a step, the extreme
  /// is found too, so a value that goes through `level` and back within one step is not
  /// missed. The crossing is then refined inside its bracket by bisection and secant steps
  /// (Illinois) to ``crossingTolerance``, and the returned time is the bracket's end on the
  /// reached side. Nothing here depends on a frame rate.
  ///
  /// Every read is taken from `budget`; when it runs out before a scan step (a search of an
  /// hour reads the track about 3.7 million times), the search stops there and says where
  /// (``CrossingSearch/stoppedAt``), so many searches together cost at most their budget.
  ///
  /// - Parameter read: the value and velocity at a scene time, from a side.
  package static func firstCrossing(
    of level: Double, direction: CrossingDirection?, from: Double, to: Double, breakpoints: [Double],
    budget: inout Int, read readTrack: (Double, TrackLimit) -> (value: Double, velocity: Double)
  ) -> CrossingSearch {
    func read(_ t: Double, _ side: TrackLimit) -> (value: Double, velocity: Double) {
      budget -= 1
      return readTrack(t, side)
    }
    return scan(level, direction, from: from, to: to, breakpoints: breakpoints, budget: { budget }, read: read)
  }

  /// ``firstCrossing(of:direction:from:to:breakpoints:budget:read:)`` without a budget.
  package static func firstCrossing(
    of level: Double, direction: CrossingDirection?, from: Double, to: Double, breakpoints: [Double],
    read: (Double, TrackLimit) -> (value: Double, velocity: Double)
  ) -> CrossingSearch {
    var budget = Int.max
    return firstCrossing(
      of: level, direction: direction, from: from, to: to, breakpoints: breakpoints, budget: &budget, read: read)
  }

  /// ``firstCrossing(of:direction:from:to:breakpoints:budget:read:)`` with its reads counted by
  /// `read` itself; `budget` says how many are left.
  private static func scan(
    _ level: Double, _ direction: CrossingDirection?, from: Double, to: Double, breakpoints: [Double],
    budget: () -> Int, read: (Double, TrackLimit) -> (value: Double, velocity: Double)
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
    let knots = ([from] + breakpoints.filter { $0 > from && $0 < to } + [max(from, to)])
    for k in knots.indices {
      let a = knots[k]
      let start = read(a, .right)
      note(start.value)
      if let up = crossed(previous.value, start.value) {
        return CrossingSearch(crossing: (a, up), range: min(low, start.value)...max(high, start.value))
      }
      previous = start
      guard k + 1 < knots.count else { break }
      let b = knots[k + 1]
      let steps = max(1, Int(((b - a) / crossingScanStep).rounded(.up)))
      var t0 = a
      for i in 1...steps {
        guard budget() > 0 else { return CrossingSearch(crossing: nil, range: low...high, stoppedAt: t0) }
        let t1 = i == steps ? b : a + Double(i) * crossingScanStep
        let s = read(t1, i == steps ? .left : .right)
        note(s.value)
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
