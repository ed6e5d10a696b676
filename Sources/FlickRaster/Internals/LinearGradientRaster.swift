internal import CCairo
import FlickMotion

/// Paints an opaque linear (axial, pad-extended) gradient straight into an ARGB32 image, byte for
/// byte as Cairo 1.16 and pixman 0.42 paint it, at a fraction of their instructions.
///
/// pixman computes each pixel's gradient parameter `t` (a 16.16 fixed-point number) from the pixel
/// centre, then runs its float "gradient walker" on `t`. The colour depends on `t` alone, so this
/// type finds, once, the runs of `t` that share a colour between the first and the last stop
/// (a few hundred for a background, where there are up to 65,536 `t`s) and, per pixel, only
/// repeats pixman's arithmetic for `t` (the same doubles, the same truncations): a row is
/// painted run by run. Every conversion Cairo makes on the way
/// (stop offsets and points to 16.16 fixed point, colours to 16 bits, stops sorted stably by
/// offset) is repeated here. `LinearGradientRasterTests` compares the result with Cairo's own
/// rendering for random gradients.
///
/// Only what that reasoning covers is accepted (`init` returns nil otherwise): an identity
/// user-to-device matrix (so pixman gets no transform), opaque stops that are not all one colour
/// (Cairo paints a single colour itself), distinct end points, and coordinates within Cairo's
/// unscaled range (±16,383). The caller paints a pixel-aligned rectangle with OVER or SOURCE, where
/// an opaque source's colour is the result.
struct LinearGradientRaster {
  /// Whether the libraries loaded are the ones whose arithmetic this type repeats: Cairo 1.16 and
  /// pixman 0.42 (Debian 12's). With any other version Cairo paints every gradient itself, so a
  /// different pixman never gets a copy of an older one's pixels.
  static let matchesLoadedLibraries: Bool = {
    RendererFingerprint.cairoVersion.hasPrefix("1.16.") && RendererFingerprint.pixmanVersion.hasPrefix("0.42.")
  }()

  private let p1: (x: Int64, y: Int64)
  private let dx: Int64
  private let dy: Int64
  private let l: Int64
  /// The runs of one colour of `t`, shared by every gradient with these stops.
  private let runs: GradientColorRuns
  private var starts: [Int64] { runs.starts }
  private var colors: [UInt32] { runs.colors }
  private var first: Int64 { runs.first }
  private var last: Int64 { runs.last }
  private var below: UInt32 { runs.below }
  private var above: UInt32 { runs.above }

  /// Device-space end points and stops as Flick passes them to `cairo_pattern_add_color_stop_rgba`.
  init?(start: Point, end: Point, stops: [(location: Double, color: Color)]) {
    let limit = 16_383.0
    for v in [start.x, start.y, end.x, end.y] { guard v.isFinite, abs(v) <= limit else { return nil } }
    // Cairo rescales a gradient whose end points or their distance exceed that range.
    guard abs(end.x - start.x) <= limit, abs(end.y - start.y) <= limit else { return nil }
    guard abs(end.x - start.x) >= 1e-6 || abs(end.y - start.y) >= 1e-6, stops.count >= 2 else { return nil }
    guard stops.allSatisfy({ $0.color.alpha >= 1 }), let pixmanStops = GradientStop.pixmanStops(stops) else {
      return nil
    }
    let c0 = pixmanStops[0]
    guard pixmanStops.contains(where: { $0.red != c0.red || $0.green != c0.green || $0.blue != c0.blue })
    else { return nil }
    p1 = (GradientStop.fixed(start.x), GradientStop.fixed(start.y))
    dx = GradientStop.fixed(end.x) - p1.x
    dy = GradientStop.fixed(end.y) - p1.y
    l = dx * dx + dy * dy
    guard l != 0 else { return nil }
    runs = GradientColorRuns.shared(pixmanStops)
  }

  /// The `t`s (16.16) whose colour can differ from their neighbours': from just below the first
  /// stop to the last.
  var parameterRange: ClosedRange<Int64> { (first - 1)...last }

  /// The colour painted for `t` (16.16), from the runs.
  func color(at t: Int64) -> UInt32 {
    starts.withUnsafeBufferPointer { starts in
      colors.withUnsafeBufferPointer { colors in run(containing: t, starts: starts, colors: colors).color }
    }
  }

  /// The colours pixman's walker gives the `t`s of `range`, each evaluated (for tests: the runs
  /// must agree with it at every `t`).
  func walkerColors(_ range: ClosedRange<Int64>) -> [UInt32] {
    GradientWalker(stops: runs.stops).table(range)
  }

  /// Writes the gradient over the device rectangle `x0..<x1 × y0..<y1` of an ARGB32 image whose
  /// first byte is `data`, rows `stride` bytes apart: what pixman writes when Cairo composites
  /// that rectangle as one box.
  func paint(into data: UnsafeMutableRawPointer, stride: Int, x0: Int, y0: Int, x1: Int, y1: Int) {
    let width = x1 - x0
    let height = y1 - y0
    guard width > 0, height > 0 else { return }
    // pixman's linear_gradient_is_horizontal: when `t` moves by less than 1 over the whole
    // height, it computes the first row and repeats it.
    let repeatsFirstRow = isHorizontal(rows: height)
    let v0 = Int64(x0) * 65536 + 32_768
    // Many rows whose `t` changes along them (a diagonal background): a table of every `t`'s
    // colour and of the steps along a row, the same in every row, costs a load a pixel where
    // the runs cost a search each.
    let table = width * height >= 1 << 16 && changes(along: width) ? GradientRowTable(self, maxCount: width) : nil
    for y in y0..<y1 {
      let row = (data + (y - y0) * stride + x0 * 4).assumingMemoryBound(to: UInt32.self)
      let v1 = Int64(repeatsFirstRow ? y0 : y) * 65536 + 32_768
      if let table {
        table.paintRow(row, count: width, v0: v0, v1: v1)
      } else {
        paintRow(row, count: width, v0: v0, v1: v1)
      }
    }
  }

  /// Whether `t` changes along a call `count` pixels wide (pixman's `trunc(inc · count)` is not 0).
  func changes(along count: Int) -> Bool {
    let inc = Double(dx * 65536) * (65536.0 * 65536.0 / (Double(l) * 65536.0))
    return Int64(inc * Double(count)) != 0
  }

  /// Whether `t` does not depend on the row (the end points share their 16.16 y).
  var isVerticallyConstant: Bool { dy == 0 }

  /// Whether pixman takes the gradient as horizontal for a call `rows` high (no transform or
  /// a translation): `t` moves by less than 1 over those rows, and pixman repeats the first.
  func isHorizontal(rows: Int) -> Bool {
    let vertical = Double(rows) * 65536.0 * 65536.0 * Double(dy * 65536) / (65536.0 * Double(l))
    return -1 < vertical && vertical < 1
  }

  /// pixman's `t` (16.16) for a call whose first pixel centre is `(v0, v1)` in gradient space
  /// (16.16 fixed point: the pixel's integer coordinates plus one half, plus the translation
  /// pixman applies).
  func parameter(v0: Int64, v1: Int64) -> Int64 {
    let invden = 65536.0 * 65536.0 / (Double(l) * 65536.0)
    return Int64((Double(dx * v0 + dy * v1) - Double(p1.x * dx + p1.y * dy) * 1.0) * invden)
  }

  /// The colour of every `t` from just below the first stop to the last, in order (index 0 is
  /// `first − 1`), and that first `t`; nil when there are more than 2¹⁷.
  func colorTable() -> (low: Int64, colors: [UInt32])? { runs.colorTable }

  /// pixman's `trunc(inc · i)` for `i` in `0..<count`: how far pixel `i` of a call is from the
  /// call's first pixel in `t`, the same in every row.
  func parameterSteps(count: Int) -> [Int64] {
    let inc = Double(dx * 65536) * (65536.0 * 65536.0 / (Double(l) * 65536.0))
    return (0..<max(0, count)).map { Int64(inc * Double($0)) }
  }

  /// The colour pixman gives the first pixel of a call whose first pixel centre is `(v0, v1)`.
  func color(v0: Int64, v1: Int64) -> UInt32 { color(at: parameter(v0: v0, v1: v1)) }

  /// Writes `count` pixels from `row` as one pixman call of one row whose first pixel centre is
  /// `(v0, v1)` (see ``parameter(v0:v1:)``): pixel `i` has `t + trunc(inc · i)`.
  func paintRow(_ row: UnsafeMutablePointer<UInt32>, count: Int, v0: Int64, v1: Int64) {
    guard count > 0 else { return }
    let invden = 65536.0 * 65536.0 / (Double(l) * 65536.0)
    let inc = Double(dx * 65536) * invden
    let t = parameter(v0: v0, v1: v1)
    starts.withUnsafeBufferPointer { starts in
      colors.withUnsafeBufferPointer { colors in
        if !changes(along: count) {
          row.update(repeating: run(containing: t, starts: starts, colors: colors).color, count: count)
        } else {
          paintRuns(row, width: count, t: t, inc: inc, starts: starts, colors: colors)
        }
      }
    }
  }

  /// The colour of `t` and the `t`s that share it: `low..<high` (unbounded below the first stop
  /// and above the last), with the index of its run (−1 below, `colors.count` above).
  private func run(
    containing t: Int64, starts: UnsafeBufferPointer<Int64>, colors: UnsafeBufferPointer<UInt32>, near hint: Int? = nil
  ) -> (color: UInt32, low: Int64, high: Int64, index: Int) {
    if t < first { return (below, .min, first, -1) }
    if t >= last { return (above, last, .max, colors.count) }
    var i: Int
    if let hint, hint >= 0, hint < colors.count {
      // A row's `t` moves steadily: the run is usually the hint's neighbour.
      i = hint
      while i + 1 < colors.count, starts[i + 1] <= t { i += 1 }
      while starts[i] > t { i -= 1 }
    } else {
      var (lo, hi) = (0, colors.count)  // starts[lo] <= t < starts[hi] (or last)
      while hi - lo > 1 {
        let middle = (lo + hi) / 2
        if starts[middle] <= t { lo = middle } else { hi = middle }
      }
      i = lo
    }
    return (colors[i], starts[i], i + 1 < colors.count ? starts[i + 1] : last, i)
  }

  /// One row whose `t` changes along it: pixel `i` has `t + trunc(inc · i)`, as in pixman,
  /// monotone in `i`. Each run of pixels whose `t` stays inside one run of one colour is filled
  /// at once; its end is estimated by a division and then settled on the exact `t`s.
  private func paintRuns(
    _ row: UnsafeMutablePointer<UInt32>, width: Int, t: Int64, inc: Double, starts: UnsafeBufferPointer<Int64>,
    colors: UnsafeBufferPointer<UInt32>
  ) {
    func tAt(_ i: Int) -> Int64 { i == 0 ? t : t + Int64(inc * Double(i)) }
    var i = 0
    var hint: Int?
    while i < width {
      let r = run(containing: tAt(i), starts: starts, colors: colors, near: hint)
      hint = r.index
      func inside(_ j: Int) -> Bool {
        let tj = tAt(j)
        return r.low <= tj && tj < r.high
      }
      // The run's edge in the direction `t` moves.
      let edge = inc > 0 ? r.high : r.low
      var j = width
      if edge != .max, edge != .min {
        let estimate = (Double(edge - t) / inc).rounded(.up)
        j = estimate >= Double(width) ? width : max(i + 1, Int(estimate))
        while j > i + 1, !inside(j - 1) { j -= 1 }
        while j < width, inside(j) { j += 1 }
      }
      (row + i).update(repeating: r.color, count: j - i)
      i = j
    }
  }
}
