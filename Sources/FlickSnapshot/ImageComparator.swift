import FlickMotion
import FlickRaster
import Foundation

/// Compares an expected image with an actual one: exactly when both come from the same renderer,
/// else with pixelmatch's perceptual metric and anti-aliasing detector, a pixel budget and a
/// density check (see ``ComparisonOptions``).
///
/// Both sides are decoded completely first (``PNGImage``: zlib, rows, filters, CRCs, within the
/// ``DecodeLimits``), so a file that does not decode is an error whichever side it is on, never a
/// match. Then, cheapest first: a size check, identical pixels (one `memcmp`), and only then
/// colour maths on the pixels whose words differ.
///
/// ```swift
/// let comparator = ImageComparator(options: ComparisonOptions(maxDiffPixels: 20))
/// let result = try comparator.compareFiles(expected: "golden/50pct.png", actual: "out/50pct.png")
/// if !result.passed { print(result.summary) }
/// ```
package struct ImageComparator: Sendable {
  /// The tolerance used.
  package var options: ComparisonOptions
  /// The largest images decoded.
  package var limits: DecodeLimits

  package init(options: ComparisonOptions = ComparisonOptions(), limits: DecodeLimits = .standard) {
    self.options = options
    self.limits = limits
  }

  // MARK: - Files

  /// Compares two PNG files, after decoding both completely.
  ///
  /// The renderers decide exact or perceptual (``ComparisonOptions/mode``): each side's is the
  /// one given, else the one its file names (goldens Flick wrote carry it), else unknown.
  ///
  /// - Throws: ``SnapshotError/unreadableImage(path:reason:)`` when either file is missing, over
  ///   the limits, or does not decode. A comparison that could not run never passes.
  package func compareFiles(
    expected: String, actual: String, expectedRenderer: RendererFingerprint? = nil,
    actualRenderer: RendererFingerprint? = nil
  ) throws(SnapshotError) -> ImageComparison {
    try compareFileImages(
      expected: expected, actual: actual, expectedRenderer: expectedRenderer, actualRenderer: actualRenderer
    ).comparison
  }

  /// ``compareFiles(expected:actual:expectedRenderer:actualRenderer:)`` with both decoded images
  /// (each file read and decoded once; identical files once in all), so that a report's
  /// artefacts come from the very bytes and pixels that were compared.
  package func compareFileImages(
    expected: String, actual: String, expectedRenderer: RendererFingerprint? = nil,
    actualRenderer: RendererFingerprint? = nil
  ) throws(SnapshotError) -> (comparison: ImageComparison, expected: PNGImage, actual: PNGImage) {
    let a = try PNGImage(contentsOf: expected, limits: limits)
    // Each file is read once. Identical bytes decode identically: decoded once (and so checked),
    // never skipped.
    let actualBytes = try PNGImage.read(actual, limits: limits)
    let sameBytes = a.fileBytes.map { $0.elementsEqual(actualBytes) } ?? false
    let b = sameBytes ? a : try PNGImage(fileBytes: actualBytes, path: actual, limits: limits)
    var result = compare(
      a, b, goldenRenderer: a.renderer ?? expectedRenderer, actualRenderer: b.renderer ?? actualRenderer)
    if sameBytes && result.verdict == .identicalPixels { result.verdict = .identicalBytes }
    return (result, a, b)
  }

  /// Compares a golden PNG file with a frame rendered in memory by this process's renderer.
  ///
  /// - Parameter goldenRenderer: The golden's renderer for a file that does not name one; the
  ///   one the golden file names always wins.
  /// - Throws: ``SnapshotError/unreadableImage(path:reason:)`` when the golden does not decode.
  package func compare(
    expectedFile: String, actual: Frame, goldenRenderer: RendererFingerprint? = nil
  ) throws(SnapshotError) -> ImageComparison {
    try compareGolden(file: expectedFile, actual: actual, goldenRenderer: goldenRenderer).comparison
  }

  /// ``compare(expectedFile:actual:goldenRenderer:)`` with the golden as decoded (read and decoded
  /// once), or nil when its bytes are exactly what the frame encodes to (nothing to decode: a
  /// match).
  package func compareGolden(
    file: String, actual: Frame, goldenRenderer: RendererFingerprint? = nil
  ) throws(SnapshotError) -> (comparison: ImageComparison, golden: PNGImage?) {
    // The common case costs one encode: a golden this renderer wrote from the same pixels holds
    // exactly the bytes the frame encodes to (the encoder and its fingerprint chunk are fixed), so
    // equal files are identical pixels from the same renderer, with no decoding.
    // The file is read once: the bytes compared are the bytes decoded.
    let recorded = try PNGImage.read(file, limits: limits)
    if let encoded = try? PNGFile.encode(actual, renderer: .current), recorded == encoded {
      return (compare(actual, actual, goldenRenderer: .current, actualRenderer: .current), nil)
    }
    let golden = try PNGImage(fileBytes: recorded, path: file, limits: limits)
    return (try compare(golden: golden, actual: actual, goldenRenderer: goldenRenderer), golden)
  }

  /// Compares a decoded golden with a frame rendered in memory by this process's renderer.
  ///
  /// The frame is un-premultiplied exactly as the PNG writer does, so it is compared with what a
  /// golden written from it would hold; if a translucent frame still differs, it is compared once
  /// more after a real PNG round trip, so an encoder's rounding never counts as a change.
  package func compare(
    golden: PNGImage, actual: Frame, goldenRenderer: RendererFingerprint? = nil
  ) throws(SnapshotError) -> ImageComparison {
    // The golden's own chunk says who drew it; what the caller knows only fills in for a file without one.
    let renderer = golden.renderer ?? goldenRenderer
    let image = PNGImage(frame: actual)
    let first = compare(golden, image, goldenRenderer: renderer, actualRenderer: .current)
    guard !first.passed, first.verdict != .sizeMismatch, image.hasTranslucentPixels else { return first }
    let bytes = try PNGFile.encode(actual)
    let roundTripped: PNGImage
    do {
      roundTripped = try PNGImage(bytes: bytes, limits: limits)
    } catch {
      throw .unreadableImage(path: "(re-encoded frame)", reason: error.message)
    }
    return compare(golden, roundTripped, goldenRenderer: renderer, actualRenderer: .current)
  }

  // MARK: - Images

  /// Compares two premultiplied frames (un-premultiplied as the PNG writer does).
  package func compare(
    _ expected: Frame, _ actual: Frame, goldenRenderer: RendererFingerprint? = nil,
    actualRenderer: RendererFingerprint? = nil
  ) -> ImageComparison {
    if expected.width == actual.width && expected.height == actual.height
      && expected.bytesPerRow == actual.bytesPerRow && Self.sameBytes(expected.pixels, actual.pixels)
    {
      // Same premultiplied bytes, same straight values: nothing to convert.
      let (exact, reason) = options.resolvedMode(golden: goldenRenderer, actual: actualRenderer)
      var r = ImageComparison(
        verdict: .identicalPixels, expectedSize: (expected.width, expected.height),
        actualSize: (actual.width, actual.height))
      r.exact = exact
      r.modeReason = reason
      r.threshold = options.threshold
      return r
    }
    return compare(
      PNGImage(frame: expected), PNGImage(frame: actual), goldenRenderer: goldenRenderer, actualRenderer: actualRenderer
    )
  }

  /// Compares two decoded images.
  package func compare(
    _ expected: PNGImage, _ actual: PNGImage, goldenRenderer: RendererFingerprint?, actualRenderer: RendererFingerprint?
  ) -> ImageComparison {
    let w = expected.width, h = expected.height
    let opts = options
    let (exact, reason) = opts.resolvedMode(golden: goldenRenderer, actual: actualRenderer)
    var result = ImageComparison(
      verdict: .identicalPixels, expectedSize: (w, h), actualSize: (actual.width, actual.height))
    result.exact = exact
    result.modeReason = reason
    result.threshold = opts.threshold
    result.colorJND = opts.colorJND
    guard w == actual.width, h == actual.height else {
      result.verdict = .sizeMismatch
      return result
    }
    if Self.sameBytes(expected.words, actual.words) { return result }

    let a = expected.words
    let b = actual.words
    result.budget = opts.budget(pixelCount: w * h)
    result.windowLimit = opts.windowLimit
    var classes = [UInt8](repeating: 0, count: w * h)
    // Rows are split into bands compared in parallel; each band writes only its own rows.
    let bandCount = w * h >= 1 << 18 ? min(16, max(1, MachineCPUs.usable * 2)) : 1
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
    result.perceptualPixels = total.changed
    result.antiAliasedPixels = total.antiAliased
    result.subtlePixels = total.subtle
    let changed = exact ? total.changed + total.antiAliased + total.subtle : total.changed
    result.differingPixels = changed
    let box = exact ? total.any : total.counted
    if changed > 0 {
      result.boundingBox = PixelRegion(
        x: box.minX, y: box.minY, width: box.maxX - box.minX + 1, height: box.maxY - box.minY + 1)
    }
    // The density check only decides anything when the count is within the budget.
    if changed > 0 && changed <= result.budget {
      let densest = Self.densestWindow(
        classes, width: w, height: h, side: opts.densityWindow,
        counted: exact ? 1 : ImageComparison.PixelClass.changed.rawValue)
      result.densestWindow = densest.region
      result.densestWindowCount = densest.count
    }
    result.pixelClasses = classes
    let withinBudget = changed <= result.budget
    let sparseEnough = result.densestWindowCount <= result.windowLimit
    result.verdict = (changed == 0 || (withinBudget && sparseEnough)) ? .withinTolerance : .different
    return result
  }

  /// Whether two arrays hold the same bytes (one `memcmp`).
  static func sameBytes<T>(_ a: [T], _ b: [T]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { pa in
      b.withUnsafeBytes { pb in
        guard let x = pa.baseAddress, let y = pb.baseAddress else { return pa.count == pb.count }
        return memcmp(x, y, pa.count) == 0
      }
    }
  }

  /// Bounds of a set of pixels.
  struct Bounds {
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1

    @inline(__always) mutating func add(_ x: Int, _ y: Int) {
      if x < minX { minX = x }
      if x > maxX { maxX = x }
      if y < minY { minY = y }
      if y > maxY { maxY = y }
    }

    mutating func merge(_ o: Bounds) {
      minX = min(minX, o.minX)
      minY = min(minY, o.minY)
      maxX = max(maxX, o.maxX)
      maxY = max(maxY, o.maxY)
    }
  }

  /// Counts and bounds of one band of rows.
  struct BandResult {
    var changed = 0
    var antiAliased = 0
    var subtle = 0
    /// Bounds of the pixels beyond the threshold and not anti-aliasing.
    var counted = Bounds()
    /// Bounds of every visibly changed pixel.
    var any = Bounds()

    mutating func merge(_ other: BandResult) {
      changed += other.changed
      antiAliased += other.antiAliased
      subtle += other.subtle
      counted.merge(other.counted)
      any.merge(other.any)
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
    let jnd = opts.colorJND
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
          // Two fully transparent pixels are equal whatever their RGB.
          if wa >> 24 == 0 && wb >> 24 == 0 { continue }
          let delta = metric == .yiq ? ColorDelta.yiq(wa, wb, k: i * 4) : ColorDelta.hyab(wa, wb, k: i * 4)
          // A change that vanishes over pixelmatch's checkerboard (an opaque #3030CF appearing where
          // the background is #3030CF) has distance 0: below every threshold, as pixelmatch sees it,
          // but still a changed pixel, which an exact comparison counts. A flat recolour can stay
          // under pixelmatch's threshold; a just-noticeable colour shift still counts
          // (anti-aliasing is excused below either way).
          above = delta != 0 && (abs(delta) > limit || (jnd > 0 && ColorDelta.deltaEOK(wa, wb, k: i * 4) > jnd))
          lastA = wa
          lastB = wb
          lastAbove = above
          haveLast = true
        }
        r.any.add(x, y)
        guard above else {
          out[i] = ImageComparison.PixelClass.similar.rawValue
          r.subtle += 1
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
        r.counted.add(x, y)
      }
    }
    return r
  }

  /// The `side × side` window (clamped to the image) holding the most changed pixels, found with a
  /// summed-area table in O(width × height).
  /// Pixels whose class is at least `counted` count.
  static func densestWindow(_ classes: [UInt8], width w: Int, height h: Int, side: Int, counted: UInt8)
    -> (region: PixelRegion, count: Int)
  {
    let sw = min(max(1, side), w), sh = min(max(1, side), h)
    let stride = w + 1
    var table = [Int32](repeating: 0, count: stride * (h + 1))
    var best = -1
    var bestX = 0, bestY = 0
    table.withUnsafeMutableBufferPointer { t in
      classes.withUnsafeBufferPointer { c in
        for y in 0..<h {
          var rowSum: Int32 = 0
          for x in 0..<w {
            if c[y * w + x] >= counted { rowSum += 1 }
            t[(y + 1) * stride + x + 1] = t[y * stride + x + 1] + rowSum
          }
        }
        for y in 0...(h - sh) {
          for x in 0...(w - sw) {
            let s =
              t[(y + sh) * stride + x + sw] - t[y * stride + x + sw] - t[(y + sh) * stride + x] + t[y * stride + x]
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
  package func selfTestFailure() -> String? {
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
    let strict = ImageComparator(options: ComparisonOptions(mode: .perceptual, metric: options.metric))
    let same = strict.compare(a, a)
    guard same.passed, same.differingPixels == 0 else { return "identical frames did not match" }
    let changed = strict.compare(a, b)
    guard !changed.passed, changed.differingPixels == 16,
      changed.boundingBox == PixelRegion(x: 2, y: 2, width: 4, height: 4)
    else { return "a 4×4 inverted block was not found (\(changed.summary))" }
    var c = a
    c.pixels[3 * c.bytesPerRow + 3 * 4] &+= 1
    let exact = ImageComparator(options: .exact).compare(a, c)
    guard !exact.passed, exact.differingPixels == 1 else { return "a one-level change was not found exactly" }
    return nil
  }
}
