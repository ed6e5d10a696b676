/// One gradient's colour for every `t` and the steps of `t` along a call, for painting many
/// rows of one shape: a pixel costs an addition, a clamp and a load, where
/// ``LinearGradientRaster/paintRow(_:count:v0:v1:)`` searches runs of one colour (cheaper only
/// when runs are long). The bytes are the same: the table holds the runs' colours.
struct GradientRowTable {
  private let raster: LinearGradientRaster
  private let low: Int64
  private let colors: [UInt32]
  private let steps: [Int64]

  /// Nil when the gradient's `t`s are too many for a table (stops beyond 0…1 are clamped, so
  /// only a stop list Cairo would not pass).
  init?(_ raster: LinearGradientRaster, maxCount: Int) {
    guard let (low, colors) = raster.colorTable() else { return nil }
    self.raster = raster
    self.low = low
    self.colors = colors
    steps = raster.parameterSteps(count: maxCount)
  }

  /// The colour of the first pixel of a call whose first pixel centre is `(v0, v1)`.
  func color(v0: Int64, v1: Int64) -> UInt32 { color(at: raster.parameter(v0: v0, v1: v1)) }

  private func color(at t: Int64) -> UInt32 {
    colors[Int(min(max(t, low), low + Int64(colors.count) - 1) - low)]
  }

  /// ``LinearGradientRaster/paintRow(_:count:v0:v1:)`` for `count` up to the `maxCount` given.
  func paintRow(_ row: UnsafeMutablePointer<UInt32>, count: Int, v0: Int64, v1: Int64) {
    precondition(count <= steps.count)
    let t0 = Int(raster.parameter(v0: v0, v1: v1) - low)
    let top = colors.count - 1
    colors.withUnsafeBufferPointer { colors in
      steps.withUnsafeBufferPointer { steps in
        // `t0 + steps[i]` is monotone in `i`, so the pixels whose index leaves the table (and
        // takes its end colour) are a prefix and a suffix; the rest are read without a clamp.
        func clamped(_ i: Int) -> (inside: Bool, color: UInt32) {
          let k = t0 + Int(steps[i])
          return (k >= 0 && k <= top, colors[min(max(k, 0), top)])
        }
        var i = 0
        while i < count {
          let (inside, color) = clamped(i)
          if inside { break }
          row[i] = color
          i += 1
        }
        var end = count
        while end > i {
          let (inside, color) = clamped(end - 1)
          if inside { break }
          end -= 1
          row[end] = color
        }
        guard i < end, let base = colors.baseAddress, let offsets = steps.baseAddress else { return }
        let origin = base + t0
        for k in i..<end { row[k] = origin[Int(offsets[k])] }
      }
    }
  }
}
