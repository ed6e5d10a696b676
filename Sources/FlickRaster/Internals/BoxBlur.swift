/// A deterministic approximation of a Gaussian blur on an 8-bit alpha buffer: three box blurs
/// in each direction whose widths match the Gaussian's variance (Kutskir's method), computed in
/// integers so every run gives the same bytes.
enum BoxBlur {
  /// Widths (odd) of three boxes whose combined variance is close to `sigma²` (`sigma` is
  /// clamped to 0…4096 pixels; a wider blur spreads any shape below one level of alpha).
  static func boxes(sigma: Double) -> [Int] {
    let sigma = sigma.isNaN ? 0 : min(max(sigma, 0), 4096)
    let n = 3.0
    let ideal = (12 * sigma * sigma / n + 1).squareRoot()
    var wl = Int(ideal.rounded(.down))
    if wl % 2 == 0 { wl -= 1 }
    wl = max(1, wl)
    let wu = wl + 2
    let mIdeal = (12 * sigma * sigma - n * Double(wl * wl) - 4 * n * Double(wl) - 3 * n) / (-4 * Double(wl) - 4)
    let m = Int(mIdeal.rounded())
    return (0..<3).map { $0 < m ? wl : wu }
  }

  /// How far the blur spreads, in pixels (the sum of the box radii).
  static func reach(sigma: Double) -> Int {
    boxes(sigma: sigma).reduce(0) { $0 + ($1 - 1) / 2 }
  }

  /// Blurs `height` rows of `width` bytes (`stride` bytes apart) in place; pixels outside are 0.
  static func blur(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
    guard sigma > 0.05, width > 0, height > 0 else { return }
    let temp = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
    defer { temp.deallocate() }
    let sums = UnsafeMutablePointer<Int32>.allocate(capacity: max(width, 1))
    defer { sums.deallocate() }
    for size in boxes(sigma: sigma) where size > 1 {
      horizontal(from: data, to: temp, width: width, height: height, stride: stride, radius: (size - 1) / 2)
      vertical(from: temp, to: data, width: width, height: height, stride: stride, radius: (size - 1) / 2, sums: sums)
    }
  }

  private static func horizontal(
    from src: UnsafeMutablePointer<UInt8>, to dst: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
    stride: Int, radius r: Int
  ) {
    let size = 2 * r + 1
    let mul = Int64((1 << 24) / size)
    for y in 0..<height {
      let row = src + y * stride
      let out = dst + y * stride
      var sum: Int64 = 0
      for x in 0..<min(r, width) { sum += Int64(row[x]) }
      for x in 0..<width {
        if x + r < width { sum += Int64(row[x + r]) }
        if x - r - 1 >= 0 { sum -= Int64(row[x - r - 1]) }
        out[x] = UInt8(truncatingIfNeeded: min(255, (sum * mul + (1 << 23)) >> 24))
      }
    }
  }

  private static func vertical(
    from src: UnsafeMutablePointer<UInt8>, to dst: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
    stride: Int, radius r: Int, sums: UnsafeMutablePointer<Int32>
  ) {
    let size = 2 * r + 1
    let mul = Int64((1 << 24) / size)
    for x in 0..<width { sums[x] = 0 }
    for y in 0..<min(r, height) {
      let row = src + y * stride
      for x in 0..<width { sums[x] += Int32(row[x]) }
    }
    for y in 0..<height {
      if y + r < height {
        let add = src + (y + r) * stride
        for x in 0..<width { sums[x] += Int32(add[x]) }
      }
      if y - r - 1 >= 0 {
        let sub = src + (y - r - 1) * stride
        for x in 0..<width { sums[x] -= Int32(sub[x]) }
      }
      let out = dst + y * stride
      for x in 0..<width {
        out[x] = UInt8(truncatingIfNeeded: min(255, (Int64(sums[x]) * mul + (1 << 23)) >> 24))
      }
    }
  }
}
