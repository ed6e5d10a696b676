import FlickRaster

/// How strictly two images must agree to match.
///
/// **Mode** (``mode``): Flick's frames are byte-identical for the same template, parameters and
/// renderer, so by default (``ComparisonMode/automatic``) a comparison is *exact* when the golden
/// was drawn by the renderer now running (same fingerprint: any visibly different pixel counts),
/// and *perceptual* only when another renderer drew it (another Cairo, Pango, pixman, FreeType,
/// HarfBuzz or CPU). An exact comparison still runs the perceptual analysis to describe what
/// changed. ``ComparisonMode/exact`` and ``ComparisonMode/perceptual`` force one or the other.
///
/// **Perceptual tolerance**: two levels, as in pixelmatch and Playwright: a per-pixel colour ``threshold`` decides which
/// pixels differ, then a budget decides how many differing pixels a match may have. A density
/// check on top keeps the budget for scattered noise only:
///
/// - **Budget**: the smaller of ``maxDiffPixels`` and ``maxDiffRatio`` × width × height (Playwright
///   semantics); neither set means 0, so any counted pixel fails.
/// - **Density**: even within the budget, the images differ when some
///   ``densityWindow`` × ``densityWindow`` square holds more than ``maxWindowDensity`` of its pixels
///   as counted differences. One-pixel anti-aliasing speckle along edges stays far below it; a
///   small but solid real change (a recoloured badge, a moved icon) exceeds it.
///
/// Anti-aliased pixels (pixelmatch's detector) are drawn yellow in the diff image and not counted
/// unless ``includeAntiAliasing`` is set.
///
/// Translucent pixels are compared as straight-alpha values blended over pixelmatch's
/// position-dependent checkerboard (`(c1·a1 − c2·a2 − bg·Δa)/255`, as pixelmatch 7), so a change of
/// alpha is visible whatever the colour behind it, and fully transparent pixels always match.
public struct ComparisonOptions: Sendable, Equatable, Codable {
  /// Whether to compare exactly, perceptually, or as the renderer fingerprints say (default).
  public var mode: ComparisonMode
  /// Per-pixel colour tolerance, 0…1 (0 = any change differs). Default 0.1, pixelmatch's default.
  /// For ``ColorMetric/yiq`` it is squared (`δ > 35215·t²`), for ``ColorMetric/oklab`` it is the
  /// HyAB distance itself.
  public var threshold: Double
  /// The colour difference metric.
  public var metric: ColorMetric
  /// Count anti-aliased pixels as differences (pixelmatch's `includeAA`). Default false.
  public var includeAntiAliasing: Bool
  /// The most differing pixels a match may have (≥ 0), or nil for no pixel-count limit.
  public var maxDiffPixels: Int?
  /// The largest fraction of all pixels that may differ (0…1), or nil for no ratio limit.
  public var maxDiffRatio: Double?
  /// Side of the square window for the density check, in pixels (≥ 1). Default 8.
  public var densityWindow: Int
  /// The largest fraction (0…1) of a density window that may differ within the budget.
  /// Default 0.25: more than 16 counted pixels in any 8 × 8 square fails.
  public var maxWindowDensity: Double
  /// The just-noticeable colour difference, as ΔE_OK (Euclidean distance in OKLab, 0…1 where
  /// black to white is 1.0). In a perceptual comparison a pixel that is not anti-aliasing counts
  /// when its colour moves by more than this, whatever ``threshold`` says, so a flat recolour is
  /// never within tolerance. Default ``defaultColorJND`` (0.02); 0 turns the check off.
  public var colorJND: Double

  /// The default ``colorJND``: ΔE_OK 0.02, about two just-noticeable differences (Ottosson scales
  /// OKLab so 1 unit of ΔE_OK ≈ 100 CIELAB units; CIELAB's JND is ΔE*ab ≈ 1–2.3).
  public static let defaultColorJND = 0.02

  public init(
    mode: ComparisonMode = .automatic, threshold: Double = 0.1, metric: ColorMetric = .yiq,
    includeAntiAliasing: Bool = false,
    maxDiffPixels: Int? = nil, maxDiffRatio: Double? = nil, densityWindow: Int = 8,
    maxWindowDensity: Double = 0.25, colorJND: Double = ComparisonOptions.defaultColorJND
  ) {
    self.colorJND = colorJND
    self.mode = mode
    self.threshold = threshold
    self.metric = metric
    self.includeAntiAliasing = includeAntiAliasing
    self.maxDiffPixels = maxDiffPixels
    self.maxDiffRatio = maxDiffRatio
    self.densityWindow = densityWindow
    self.maxWindowDensity = maxWindowDensity
  }

  /// Exact comparison whatever the renderers: any visibly changed pixel differs (the default
  /// perceptual settings describe the change).
  public static let exact = ComparisonOptions(mode: .exact)
  /// Perceptual comparison whatever the renderers, with the default tolerance.
  public static let perceptual = ComparisonOptions(mode: .perceptual)

  enum CodingKeys: String, CodingKey {
    case mode, threshold, metric, includeAntiAliasing, maxDiffPixels, maxDiffRatio, densityWindow, maxWindowDensity
    case colorJND
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    mode = try c.decodeIfPresent(ComparisonMode.self, forKey: .mode) ?? .automatic
    threshold = try c.decode(Double.self, forKey: .threshold)
    metric = try c.decode(ColorMetric.self, forKey: .metric)
    includeAntiAliasing = try c.decode(Bool.self, forKey: .includeAntiAliasing)
    maxDiffPixels = try c.decodeIfPresent(Int.self, forKey: .maxDiffPixels)
    maxDiffRatio = try c.decodeIfPresent(Double.self, forKey: .maxDiffRatio)
    densityWindow = try c.decode(Int.self, forKey: .densityWindow)
    maxWindowDensity = try c.decode(Double.self, forKey: .maxWindowDensity)
    colorJND = try c.decodeIfPresent(Double.self, forKey: .colorJND) ?? Self.defaultColorJND
  }

  /// Whether this comparison is exact given the renderers of the two sides, and why, in words
  /// for terminals and reports.
  ///
  /// - Parameters:
  ///   - golden: The renderer that drew the expected image, nil when unknown.
  ///   - actual: The renderer that drew the actual image, nil when unknown.
  package func resolvedMode(golden: RendererFingerprint?, actual: RendererFingerprint?) -> (exact: Bool, reason: String)
  {
    switch mode {
    case .exact: return (true, "exact comparison (asked for)")
    case .perceptual: return (false, "perceptual comparison (asked for)")
    case .automatic:
      guard let golden, let actual else {
        return (
          true, "exact comparison: the renderer of \(golden == nil ? "the golden" : "the actual image") is unknown"
        )
      }
      let drift = actual.differences(from: golden)
      if drift.isEmpty { return (true, "exact comparison: both sides come from the same renderer") }
      return (false, "perceptual comparison: the golden comes from another renderer (\(drift.joined(separator: ", ")))")
    }
  }

  /// The most counted differing pixels allowed in an image of `pixelCount` pixels.
  public func budget(pixelCount: Int) -> Int {
    var limit = Int.max
    if let n = maxDiffPixels { limit = min(limit, max(0, n)) }
    // A ratio is 0…1 (NaN counts as 0): never a count an `Int` cannot hold.
    if let r = maxDiffRatio { limit = min(limit, Int((min(max(0, r), 1) * Double(max(0, pixelCount))).rounded(.down))) }
    return limit == Int.max ? 0 : limit
  }

  /// The most counted differing pixels allowed in one density window.
  public var windowLimit: Int {
    let side = max(1, densityWindow)
    // A density is 0…1 (NaN counts as 0); the window's side is capped so its area fits an `Int`.
    let capped = min(side, 1 << 20)
    return Int((min(max(0, maxWindowDensity), 1) * Double(capped * capped)).rounded(.down))
  }

  /// Checks the values are in range; returns a message naming the first bad one, or nil.
  package func validationError() -> String? {
    if !(threshold >= 0 && threshold <= 1) { return "threshold must be in 0…1, found \(threshold)" }
    if let n = maxDiffPixels, n < 0 { return "max-diff-pixels must be ≥ 0, found \(n)" }
    if let r = maxDiffRatio, !(r >= 0 && r <= 1) { return "max-diff-ratio must be in 0…1, found \(r)" }
    if densityWindow < 1 { return "density window must be ≥ 1 pixel, found \(densityWindow)" }
    if !(colorJND >= 0 && colorJND <= 1) { return "colour JND must be in 0…1 (ΔE_OK), found \(colorJND)" }
    if !(maxWindowDensity >= 0 && maxWindowDensity <= 1) {
      return "window density must be in 0…1, found \(maxWindowDensity)"
    }
    return nil
  }
}
