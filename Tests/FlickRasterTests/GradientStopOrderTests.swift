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

  @Test func conicColoursAreTheFirstStopAtOrAfterEachFraction() {
    var rng = SeededGenerator(seed: 12)
    for n in [1, 2, 3, 9, 40] {
      for _ in 0..<20 {
        var stops = Self.randomStops(n, rng: &rng)
        if Bool.random(using: &rng) { stops.sort { $0.location < $1.location } }
        let fractions = (0...72).map { Double($0) / 72 } + stops.map(\.location)
        let sorted = Set(fractions.filter { $0 >= 0 && $0 <= 1 }).sorted()
        // The search per fraction the conic fill used to make.
        let expected = sorted.map { f -> Color in
          guard let first = stops.first, let last = stops.last else { return .clear }
          if f <= first.location { return first.color }
          if f >= last.location { return last.color }
          for i in 1..<stops.count where f <= stops[i].location {
            let span = stops[i].location - stops[i - 1].location
            let t = span > 0 ? (f - stops[i - 1].location) / span : 1
            return stops[i - 1].color.interpolated(to: stops[i].color, amount: t)
          }
          return last.color
        }
        expectEqual(LayerPainter.conicColors(stops, at: sorted), expected)
      }
    }
  }
}
