import FlickMotion

/// What an opaque axial gradient's colours depend on, its stops, worked out once and shared:
/// the runs of `t` (16.16) that share a colour in pixman's gradient walker, and on demand the
/// colour of every single `t` (``colorTable``). Card faces and backgrounds keep their stops
/// from frame to frame while their end points move, so ``shared(_:)`` hands out one instance
/// per stop list: a frame no longer walks the runs again (1.4 M instructions a 1080p card-swap
/// frame) nor refills a 65,537-entry table (3.3 M).
///
/// Immutable but for the table, which is filled once under a lock; the values are a function
/// of the stops alone, so sharing changes no byte.
final class GradientColorRuns: Sendable {
  /// The stops as pixman holds them, sorted.
  let stops: [GradientStop]
  /// Run `i` covers `starts[i]..<starts[i + 1]` (the last one ends at `last`) and has colour
  /// `colors[i]`; neighbouring runs differ. Below `first` the colour is `below`; from `last`
  /// on, `above`.
  let starts: [Int64]
  let colors: [UInt32]
  let first: Int64
  let last: Int64
  let below: UInt32
  let above: UInt32
  private let table = Locked<(low: Int64, colors: [UInt32])??>(nil)

  /// The instances handed out, by stop list: at most `cacheLimit`, all dropped when full (a
  /// gradient whose stops animate makes a new list every frame).
  private static let cache = Locked<[[GradientStop]: GradientColorRuns]>([:])
  private static let cacheLimit = 32

  /// The runs of `stops` (pixman's, sorted; at least two), shared with every earlier caller
  /// that passed the same list.
  static func shared(_ stops: [GradientStop]) -> GradientColorRuns {
    if let runs = cache.withLock({ $0[stops] }) { return runs }
    let runs = GradientColorRuns(stops)
    cache.withLock { cache in
      if cache.count >= cacheLimit { cache.removeAll() }
      cache[stops] = runs
    }
    return runs
  }

  private init(_ stops: [GradientStop]) {
    self.stops = stops
    let walker = GradientWalker(stops: stops)
    first = stops[0].x
    last = stops[stops.count - 1].x
    below = walker.pixel(first - 1)
    above = walker.pixel(last)
    (starts, colors) = Self.runs(walker, from: first, stopsAt: stops.map(\.x))
  }

  /// The runs of one colour of `t` in `first..<` the last of `stops` (16.16 positions, sorted).
  ///
  /// Between two stops the walker's parameters are fixed, and each channel is a monotone
  /// function of `t` (float products and sums with fixed operands, then a truncation), so the
  /// `t`s that share the colour of a given `t` form an interval: a run's end is found by
  /// doubling steps and then halving them, a few dozen walker evaluations a run instead of one
  /// for every `t` (65,536 between 0 and 1). `LinearGradientRasterTests` compares the runs with
  /// the colour of every single `t`.
  private static func runs(
    _ walker: GradientWalker, from first: Int64, stopsAt stops: [Int64]
  ) -> (starts: [Int64], colors: [UInt32]) {
    var starts: [Int64] = []
    var colors: [UInt32] = []
    var k = first
    for end in stops where end > k {
      while k < end {
        let color = walker.pixel(k)
        // `low` has the colour; `high` is `end` or the first `t` known to differ.
        var low = k
        var high = end
        var step: Int64 = 1
        while low + step < end {
          if walker.pixel(low + step) != color {
            high = low + step
            break
          }
          low += step
          step *= 2
        }
        while high - low > 1 {
          let middle = low + (high - low) / 2
          if walker.pixel(middle) == color { low = middle } else { high = middle }
        }
        if colors.last != color {
          starts.append(k)
          colors.append(color)
        }
        k = high
      }
    }
    return (starts, colors)
  }

  /// The colour of every `t` from just below the first stop to the last, in order (index 0 is
  /// `first − 1`), and that first `t`; nil when there are more than 2¹⁷. Built from the runs
  /// the first time it is asked for.
  var colorTable: (low: Int64, colors: [UInt32])? {
    table.withLock { table in
      if let table { return table }
      let made = makeColorTable()
      table = .some(made)
      return made
    }
  }

  private func makeColorTable() -> (low: Int64, colors: [UInt32])? {
    let low = first - 1
    guard last - low < 1 << 17 else { return nil }
    var table = [UInt32](repeating: below, count: Int(last - low) + 1)
    table[table.count - 1] = above
    for (i, color) in colors.enumerated() {
      let end = i + 1 < colors.count ? starts[i + 1] : last
      for t in starts[i]..<end { table[Int(t - low)] = color }
    }
    return (low, table)
  }
}
