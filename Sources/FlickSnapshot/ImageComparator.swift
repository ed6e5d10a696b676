import FlickRaster
import Foundation

/// Compares an expected image with an actual one: pixelmatch's perceptual metric and
/// anti-aliasing detector, a pixel budget and a density check (see ``ComparisonOptions``).
///
/// Cheapest checks first: identical file bytes, then a size check, then identical decoded pixels
/// (one `memcmp` per row), and only then colour maths, and only on the pixels whose words differ.
///
/// ```swift
/// let comparator = ImageComparator(options: ComparisonOptions(maxDiffPixels: 20))
/// let result = try comparator.compareFiles(expected: "golden/50pct.png", actual: "out/50pct.png")
/// if !result.passed { print(result.summary) }
/// ```
public struct ImageComparator: Sendable {
  /// The tolerance used.
  public var options: ComparisonOptions

  public init(options: ComparisonOptions = ComparisonOptions()) {
    self.options = options
  }

  // MARK: - Files

  /// Compares two PNG files.
  ///
  /// Identical bytes match without decoding, once the file's PNG structure checks out (every
  /// chunk CRC), so a corrupt file never matches, not even itself.
  ///
  /// - Throws: ``SnapshotError/unreadableImage(path:reason:)`` when either file is missing,
  ///   unreadable or not a valid PNG. A comparison that could not run never passes.
  public func compareFiles(expected: String, actual: String) throws(SnapshotError) -> ImageComparison {
    let a = try PNGFile.read(expected)
    let b = try PNGFile.read(actual)
    if a.bytes == b.bytes {
      return ImageComparison(
        verdict: .identicalBytes, expectedSize: a.size, actualSize: b.size)
    }
    if a.size != b.size {
      return ImageComparison(verdict: .sizeMismatch, expectedSize: a.size, actualSize: b.size)
    }
    return compare(try PNGFile.decode(expected), try PNGFile.decode(actual))
  }

  /// Compares a golden PNG file with a frame rendered in memory.
  ///
  /// A translucent frame is round-tripped through PNG before a second look, as the golden was, so
  /// the rounding of premultiplied alpha in the PNG encoder never counts as a change.
  ///
  /// - Throws: ``SnapshotError/unreadableImage(path:reason:)`` when the golden cannot be read.
  public func compare(expectedFile: String, actual: Frame) throws(SnapshotError) -> ImageComparison {
    let golden = try PNGFile.read(expectedFile)
    if golden.size != (actual.width, actual.height) {
      return ImageComparison(
        verdict: .sizeMismatch, expectedSize: golden.size, actualSize: (actual.width, actual.height))
    }
    let expected = try PNGFile.decode(expectedFile)
    let first = compare(expected, actual)
    guard !first.passed, actual.hasTranslucentPixels else { return first }
    let roundTripped = try PNGFile.roundTrip(actual)
    return compare(expected, roundTripped)
  }

  // MARK: - Frames

  /// Compares two decoded frames.
  public func compare(_ expected: Frame, _ actual: Frame) -> ImageComparison {
    let w = expected.width, h = expected.height
    var result = ImageComparison(
      verdict: .identicalPixels, expectedSize: (w, h), actualSize: (actual.width, actual.height))
    guard w == actual.width, h == actual.height else {
      result.verdict = .sizeMismatch
      return result
    }
    if expected.samePixels(as: actual) { return result }

    let a = expected.packedWords()
    let b = actual.packedWords()
    let opts = options
    result.budget = opts.budget(pixelCount: w * h)
    result.windowLimit = opts.windowLimit
    var classes = [UInt8](repeating: 0, count: w * h)
    // Rows are split into bands compared in parallel; each band writes only its own rows.
    let bandCount = w * h >= 1 << 18 ? min(16, max(1, ProcessInfo.processInfo.activeProcessorCount * 2)) : 1
    let rowsPerBand = (h + bandCount - 1) / bandCount
    var bands = [BandResult](repeating: BandResult(), count: bandCount)
    a.withUnsafeBufferPointer { pa in
      b.withUnsafeBufferPointer { pb in
        classes.withUnsafeMutableBufferPointer { out in
          bands.withUnsafeMutableBufferPointer { results in
            let out = UncheckedSendable(out), results = UncheckedSendable(results)
            let pa = UncheckedSendable(pa), pb = UncheckedSendable(pb)
            DispatchQueue.concurrentPerform(iterations: bandCount) { band in
              let rows = min(h, band * rowsPerBand)..<min(h, (band + 1) * rowsPerBand)
              results.value[band] = Self.compareRows(
                rows, pa.value, pb.value, width: w, height: h, options: opts, into: out.value)
            }
          }
        }
      }
    }
    var total = BandResult()
    for band in bands { total.merge(band) }
    let changed = total.changed
    result.differingPixels = changed
    result.antiAliasedPixels = total.antiAliased
    if changed > 0 {
      result.boundingBox = PixelRegion(
        x: total.minX, y: total.minY, width: total.maxX - total.minX + 1, height: total.maxY - total.minY + 1)
    }
    // The density check only decides anything when the count is within the budget.
    if changed > 0 && changed <= result.budget {
      let densest = Self.densestWindow(classes, width: w, height: h, side: opts.densityWindow)
      result.densestWindow = densest.region
      result.densestWindowCount = densest.count
    }
    result.pixelClasses = classes
    let withinBudget = changed <= result.budget
    let sparseEnough = result.densestWindowCount <= result.windowLimit
    result.verdict = (changed == 0 || (withinBudget && sparseEnough)) ? .withinTolerance : .different
    return result
  }

  /// Counts and bounds of one band of rows.
  struct BandResult {
    var changed = 0
    var antiAliased = 0
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1

    mutating func merge(_ other: BandResult) {
      changed += other.changed
      antiAliased += other.antiAliased
      minX = min(minX, other.minX)
      minY = min(minY, other.minY)
      maxX = max(maxX, other.maxX)
      maxY = max(maxY, other.maxY)
    }
  }

  /// Classifies the pixels of `rows`, writing one ``ImageComparison/PixelClass`` per pixel.
  static func compareRows(
    _ rows: Range<Int>, _ pa: UnsafeBufferPointer<UInt32>, _ pb: UnsafeBufferPointer<UInt32>, width w: Int,
    height h: Int, options opts: ComparisonOptions, into out: UnsafeMutableBufferPointer<UInt8>
  ) -> BandResult {
    var r = BandResult()
    let metric = opts.metric
    let limit: Double = metric == .yiq ? 35215 * opts.threshold * opts.threshold : opts.threshold
    // Flat areas repeat the same pair of colours: remember the last verdict.
    var lastA: UInt32 = 0, lastB: UInt32 = 0, lastAbove = false, haveLast = false
    for y in rows {
      let row = y * w
      for x in 0..<w {
        let i = row + x
        let wa = pa[i], wb = pb[i]
        if wa == wb { continue }
        let above: Bool
        // The checkerboard background varies per pixel, so the cache is only valid for opaque pairs.
        if haveLast && wa == lastA && wb == lastB && (wa >> 24) == 0xFF && (wb >> 24) == 0xFF {
          above = lastAbove
        } else {
          let delta = metric == .yiq ? ColorDelta.yiq(wa, wb, k: i * 4) : ColorDelta.hyab(wa, wb, k: i * 4)
          above = abs(delta) > limit
          lastA = wa
          lastB = wb
          lastAbove = above
          haveLast = true
        }
        guard above else {
          out[i] = ImageComparison.PixelClass.similar.rawValue
          continue
        }
        if !opts.includeAntiAliasing
          && (AntiAliasing.isAntiAliased(pa, x: x, y: y, width: w, height: h, pa, pb)
            || AntiAliasing.isAntiAliased(pb, x: x, y: y, width: w, height: h, pb, pa))
        {
          out[i] = ImageComparison.PixelClass.antiAliased.rawValue
          r.antiAliased += 1
          continue
        }
        out[i] = ImageComparison.PixelClass.changed.rawValue
        r.changed += 1
        if x < r.minX { r.minX = x }
        if x > r.maxX { r.maxX = x }
        if y < r.minY { r.minY = y }
        if y > r.maxY { r.maxY = y }
      }
    }
    return r
  }

  /// The `side × side` window (clamped to the image) holding the most changed pixels, found with a
  /// summed-area table in O(width × height).
  static func densestWindow(_ classes: [UInt8], width w: Int, height h: Int, side: Int)
    -> (region: PixelRegion, count: Int)
  {
    let sw = min(max(1, side), w), sh = min(max(1, side), h)
    let stride = w + 1
    var table = [Int32](repeating: 0, count: stride * (h + 1))
    let changed = ImageComparison.PixelClass.changed.rawValue
    var best = -1
    var bestX = 0, bestY = 0
    table.withUnsafeMutableBufferPointer { t in
      classes.withUnsafeBufferPointer { c in
        for y in 0..<h {
          var rowSum: Int32 = 0
          for x in 0..<w {
            if c[y * w + x] == changed { rowSum += 1 }
            t[(y + 1) * stride + x + 1] = t[y * stride + x + 1] + rowSum
          }
        }
        for y in 0...(h - sh) {
          for x in 0...(w - sw) {
            let s = t[(y + sh) * stride + x + sw] - t[y * stride + x + sw] - t[(y + sh) * stride + x] + t[y * stride + x]
            if Int(s) > best {
              best = Int(s)
              bestX = x
              bestY = y
            }
          }
        }
      }
    }
    return (PixelRegion(x: bestX, y: bestY, width: sw, height: sh), max(0, best))
  }
}

extension ImageComparator {
  /// Runs the comparator on known pairs and returns a description of the first wrong answer, or
  /// nil when it behaves. Verification runs this first, so a broken comparator (a build or
  /// platform problem) is an infrastructure error instead of a silent pass.
  public func selfTestFailure() -> String? {
    var a = Frame(width: 8, height: 8)
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
      a.pixels[i] = 40
      a.pixels[i + 1] = 80
      a.pixels[i + 2] = 120
      a.pixels[i + 3] = 255
    }
    var b = a
    for y in 2..<6 {
      for x in 2..<6 {
        let i = y * b.bytesPerRow + x * 4
        b.pixels[i] = 255 &- b.pixels[i]
        b.pixels[i + 1] = 255 &- b.pixels[i + 1]
        b.pixels[i + 2] = 255 &- b.pixels[i + 2]
      }
    }
    let strict = ImageComparator(options: ComparisonOptions(metric: options.metric))
    let same = strict.compare(a, a)
    guard same.passed, same.differingPixels == 0 else { return "identical frames did not match" }
    let changed = strict.compare(a, b)
    guard !changed.passed, changed.differingPixels == 16,
      changed.boundingBox == PixelRegion(x: 2, y: 2, width: 4, height: 4)
    else { return "a 4×4 inverted block was not found (\(changed.summary))" }
    return nil
  }
}
