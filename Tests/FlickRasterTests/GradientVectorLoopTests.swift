import CGradient
import FlickTestSupport
import Testing

@testable import FlickRaster

/// CGradient's AVX2 loops (a radial gradient's table of colours, the radial row) must give the
/// scalar loops' bytes: the same float and double operations lane by lane, the same integer
/// wrap-around, the same composite. These tests run both on the same random input, with the
/// vector loops allowed and then limited to the scalar ones (`flick_gradient_limit_vectors`),
/// including what the vector loops hand back to the scalar ones: parameters outside what they
/// take (b or c past 2^51, a NaN or an infinite root, colours below and above that differ from
/// the table's ends) and row widths that are not a multiple of four. On a CPU without AVX2 both
/// runs are scalar and the tests pass trivially.
@Suite(.serialized) struct GradientVectorLoopTests {
  /// Runs `body` with the vector loops limited to `bits`, then lifts the limit.
  static func with<T>(vectors bits: Int32, _ body: () -> T) -> T {
    _ = flick_gradient_limit_vectors(bits)
    defer { _ = flick_gradient_limit_vectors(256) }
    return body()
  }

  /// The first index where `a` and `b` differ, with both values, for a readable failure.
  static func firstDifference(_ a: [UInt32], _ b: [UInt32]) -> String? {
    guard a.count == b.count else { return "\(a.count) values against \(b.count)" }
    guard let i = a.indices.first(where: { a[$0] != b[$0] }) else { return nil }
    return "at \(i): 0x\(String(a[i], radix: 16)) against 0x\(String(b[i], radix: 16))"
  }

  static func randomStops(_ rng: inout SeededGenerator) -> [GradientStop] {
    let count = Int.random(in: 2...6, using: &rng)
    var xs = (0..<count).map { _ in Int64.random(in: 0...65536, using: &rng) }.sorted()
    if Bool.random(using: &rng) { xs[0] = 0 }
    if Bool.random(using: &rng) { xs[count - 1] = 65536 }
    return xs.map { x in
      let alpha = Bool.random(using: &rng) ? UInt16.max : UInt16.random(in: 0...UInt16.max, using: &rng)
      func channel() -> UInt16 { UInt16.random(in: 0...UInt16.max, using: &rng) }
      return GradientStop(x: x, red: channel(), green: channel(), blue: channel(), alpha: alpha)
    }
  }

  @Test func tablesMatchTheScalarWalker() {
    var rng = SeededGenerator(seed: 0x7461_626c)
    for _ in 0..<40 {
      let stops = Self.randomStops(&rng)
      let low = stops[0].x - Int64.random(in: 0...40, using: &rng)
      let high = stops[stops.count - 1].x + Int64.random(in: 0...40, using: &rng)
      let vector = GradientWalker(stops: stops).table(low...high)
      let scalar = Self.with(vectors: 0) { GradientWalker(stops: stops).table(low...high) }
      let difference = Self.firstDifference(vector, scalar)
      #expect(difference == nil, "stops \(stops), t in \(low)...\(high)")
    }
  }

  /// One row of `width` pixels from the quadratic's state, with vectors allowed and without.
  static func rows(
    width: Int, start: [UInt32], state: (b: Int64, db: Int64, c: Int64, dc: Int64, ddc: Int64),
    gradient: flick_radial_gradient, table: [UInt32], low: Int64, below: UInt32, above: UInt32, clear: Bool
  ) -> (vector: [UInt32], scalar: [UInt32]) {
    func run() -> [UInt32] {
      var row = start
      table.withUnsafeBufferPointer { t in
        let colors = flick_radial_colors(
          table: t.baseAddress, low: low, high: low + Int64(t.count) - 1, below: below, above: above)
        row.withUnsafeMutableBufferPointer { r in
          flick_radial_over_row(
            r.baseAddress, Int32(width), state.b, state.db, state.c, state.dc, state.ddc, gradient, colors,
            clear ? 1 : 0)
        }
      }
      return row
    }
    return (run(), with(vectors: 0) { run() })
  }

  @Test func radialRowsMatchTheScalarLoop() {
    var rng = SeededGenerator(seed: 0x7261_6469_616c)
    for trial in 0..<400 {
      let stops = Self.randomStops(&rng)
      let low = stops[0].x - 1
      let high = stops[stops.count - 1].x
      let table = GradientWalker(stops: stops).table(low...high)
      let width = Int.random(in: 1...67, using: &rng)
      let clear = trial % 3 == 0
      let start: [UInt32] =
        clear
        ? Array(repeating: 0, count: width)
        : (0..<width).map { _ in
          let a = UInt32.random(in: 0...255, using: &rng)
          let c = (0..<3).map { _ in UInt32.random(in: 0...a, using: &rng) }
          return a << 24 | c[0] << 16 | c[1] << 8 | c[2]
        }
      // Flick's own gradients: circles (0, 0, 0) and (0, 0, 1), A = −2^32, one pattern unit a
      // 16.16 step per pixel of some scale; other trials take arbitrary A and magnitudes,
      // up to ones the vector loop hands back (|b|, |c| ≥ 2^51) and wrap-around.
      let gradient: flick_radial_gradient
      var state: (b: Int64, db: Int64, c: Int64, dc: Int64, ddc: Int64)
      switch trial % 4 {
      case 0, 1:
        let a = -4_294_967_296.0
        gradient = flick_radial_gradient(a: a, inva: 1.0 * 65536 / a, dr: 65536, mindr: -0.0)
        let unit = Int64.random(in: 1...4000, using: &rng)
        let px = Int64.random(in: -200_000...200_000, using: &rng)
        let py = Int64.random(in: -200_000...200_000, using: &rng)
        state = (
          b: 0, db: 0, c: px &* px &+ py &* py, dc: (2 &* px &+ unit) &* unit, ddc: 2 &* unit &* unit
        )
      case 2:
        let a = Double(Int64.random(in: -(1 << 40)...(1 << 40), using: &rng) | 1)
        gradient = flick_radial_gradient(
          a: a, inva: 1.0 * 65536 / a, dr: Double(Int32.random(in: -65536...65536, using: &rng)),
          mindr: -65536.0 * Double(Int32.random(in: 0...65536, using: &rng)))
        state = (
          b: Int64.random(in: -(1 << 45)...(1 << 45), using: &rng),
          db: Int64.random(in: -(1 << 30)...(1 << 30), using: &rng),
          c: Int64.random(in: -(1 << 48)...(1 << 48), using: &rng),
          dc: Int64.random(in: -(1 << 40)...(1 << 40), using: &rng),
          ddc: Int64.random(in: -(1 << 32)...(1 << 32), using: &rng)
        )
      default:
        let a = Double(Int64.random(in: -1000...1000, using: &rng) | 1)
        gradient = flick_radial_gradient(a: a, inva: 1.0 * 65536 / a, dr: 65536, mindr: 0)
        let edge = Int64(1) << 51
        state = (
          b: edge - Int64.random(in: -(1 << 20)...(1 << 20), using: &rng),
          db: Int64.random(in: -(1 << 19)...(1 << 19), using: &rng),
          c: Int64.random(in: Int64.min...Int64.max, using: &rng),
          dc: Int64.random(in: Int64.min...Int64.max, using: &rng),
          ddc: Int64.random(in: Int64.min...Int64.max, using: &rng)
        )
      }
      // Colours below and above: usually the table's ends (what RadialGradientRaster passes).
      let ends = trial % 7 != 6
      let below = ends ? table[0] : UInt32.random(in: 0...UInt32.max, using: &rng)
      let above = ends ? table[table.count - 1] : UInt32.random(in: 0...UInt32.max, using: &rng)
      let (vector, scalar) = Self.rows(
        width: width, start: start, state: state, gradient: gradient, table: table, low: low, below: below,
        above: above, clear: clear)
      let difference = Self.firstDifference(vector, scalar)
      #expect(difference == nil, "trial \(trial): width \(width), state \(state), gradient \(gradient)")
    }
  }
}
