import FlickExpectations
import FlickMotion
import FlickTestSupport
import Testing

@testable import FlickRaster

/// The stop orderings drawing relies on, each now found in one pass or one sort: the same
/// results as the per-stop searches they replace, for stops in any order and with ties.
@Suite struct GradientStopOrderTests {
  static func randomStops(_ n: Int, rng: inout SeededGenerator) -> [(location: Double, color: Color)] {
    (0..<n).map { _ in
      // Eighths, so that several stops often share a location.
      let location = Double(Int.random(in: -1...9, using: &rng)) / 8
      let color = Color(
        red: .random(in: 0...1, using: &rng), green: .random(in: 0...1, using: &rng),
        blue: .random(in: 0...1, using: &rng), alpha: .random(in: 0...1, using: &rng))
      return (location, color)
    }
  }

  @Test func pixmanStopsAreCairosStableInsertionOrder() {
    var rng = SeededGenerator(seed: 11)
    for n in [2, 3, 5, 17, 64] {
      for _ in 0..<20 {
        let stops = Self.randomStops(n, rng: &rng)
        // Cairo's order: each stop inserted before the first with a larger offset.
        var inserted: [(offset: Double, stop: GradientStop)] = []
        for s in stops {
          let offset = min(max(s.location, 0), 1)
          let c = s.color
          let g = GradientStop(
            x: GradientStop.fixed(offset), red: GradientStop.short(c.red), green: GradientStop.short(c.green),
            blue: GradientStop.short(c.blue), alpha: GradientStop.short(c.alpha))
          inserted.insert((offset, g), at: inserted.firstIndex { offset < $0.offset } ?? inserted.count)
        }
        expectEqual(GradientStop.pixmanStops(stops), inserted.map(\.stop))
      }
    }
  }

  /// The colour just before (`before`) and just after (`after`) each fraction of stops sorted by
  /// location, found by a search per fraction: at a location several stops share, the first of
  /// them before it and the last after it.
  static func limit(
    _ stops: [(location: Double, color: Color)], at f: Double, side: LayerPainter.StopSide
  ) -> Color {
    guard let first = stops.first, let last = stops.last else { return .clear }
    switch side {
    case .before:
      if f <= first.location { return first.color }
      if f > last.location { return last.color }
      let i = stops.firstIndex { $0.location >= f }!
      if stops[i].location == f { return stops[i].color }
      let t = (f - stops[i - 1].location) / (stops[i].location - stops[i - 1].location)
      return stops[i - 1].color.interpolated(to: stops[i].color, amount: t)
    case .after:
      if f < first.location { return first.color }
      if f >= last.location { return last.color }
      let j = stops.lastIndex { $0.location <= f }!
      if stops[j].location == f { return stops[j].color }
      let t = (f - stops[j].location) / (stops[j + 1].location - stops[j].location)
      return stops[j].color.interpolated(to: stops[j + 1].color, amount: t)
    }
  }

  @Test func conicColoursAreEachSidesLimitAtEveryFraction() {
    var rng = SeededGenerator(seed: 12)
    for n in [1, 2, 3, 9, 40] {
      for _ in 0..<20 {
        let stops = Self.randomStops(n, rng: &rng).enumerated()
          .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
        let fractions = (0...72).map { Double($0) / 72 } + stops.map(\.location)
        let sorted = Set(fractions.filter { $0 >= 0 && $0 <= 1 }).sorted()
        for side in [LayerPainter.StopSide.before, .after] {
          let expected = sorted.map { Self.limit(stops, at: $0, side: side) }
          expectEqual(LayerPainter.conicColors(stops, at: sorted, side: side), expected, "\(side)")
        }
      }
    }
  }
}
