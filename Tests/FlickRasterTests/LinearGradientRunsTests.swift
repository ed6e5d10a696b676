import FlickMotion
import FlickTestSupport
import Testing

@testable import FlickRaster

/// ``LinearGradientRaster`` finds the runs of `t` that share a colour by searching between stops,
/// which relies on every channel being monotone in `t` there. These tests hold the runs to
/// pixman's walker evaluated at every single `t`, for random gradients: many stops, stops on one
/// offset or out of order, extreme and nearly equal colours.
@Suite struct LinearGradientRunsTests {
  @Test(arguments: 0..<3)
  func runsGiveTheWalkersColourAtEveryT(seed: UInt64) throws {
    var rng = SeededGenerator(seed: 0x5275_6E73 + seed)
    for trial in 0..<12 {
      let n = Int.random(in: 2...7, using: &rng)
      func channel() -> Double {
        switch trial % 4 {
        case 0: return [0, 1][Int.random(in: 0...1, using: &rng)]  // extremes
        case 1: return 0.4 + Double.random(in: 0...0.02, using: &rng)  // nearly equal: long runs
        default: return Double.random(in: 0...1, using: &rng)
        }
      }
      let stops = (0..<n).map { i -> (location: Double, color: Color) in
        let location = trial % 3 == 2 ? Double(Int.random(in: -2...12, using: &rng)) / 10 : Double(i) / Double(n - 1)
        return (location, Color(red: channel(), green: channel(), blue: channel()))
      }
      guard
        let raster = LinearGradientRaster(start: Point(x: 0, y: 0), end: Point(x: 100, y: 30), stops: stops)
      else { continue }
      let range = raster.parameterRange
      let want = raster.walkerColors(range)
      let got = range.map { raster.color(at: $0) }
      let first = got.indices.first { got[$0] != want[$0] }
      #expect(
        first == nil, "trial \(trial): stops \(stops), first t \(first.map { range.lowerBound + Int64($0) } ?? 0)")
    }
  }

  /// A right-to-left gradient is painted run by run too (its `t` falls along a row); the bytes
  /// are Cairo's.
  @Test func descendingRowsMatchCairo() throws {
    let stops: [(location: Double, color: Color)] = [
      (0, Color(red: 0.05, green: 0.1, blue: 0.3)), (0.4, Color(red: 0.9, green: 0.2, blue: 0.1)),
      (1, Color(red: 0.2, green: 0.8, blue: 0.6)),
    ]
    for (start, end) in [
      (Point(x: 300, y: 10), Point(x: -20, y: 90)), (Point(x: 250.5, y: 0), Point(x: 3.25, y: 0)),
      (Point(x: 280, y: 200), Point(x: 0, y: 0)),
    ] {
      let raster = try #require(LinearGradientRaster(start: start, end: end, stops: stops))
      let area = (0, 0, 300, 120)
      let want = LinearGradientRasterTests.cairoPixels(start: start, end: end, stops: stops, w: 300, h: 120, area: area)
      let got = LinearGradientRasterTests.rasterPixels(raster, w: 300, h: 120, area: area)
      #expect(got.indices.first { got[$0] != want[$0] } == nil, "\(start) → \(end)")
    }
  }
}
