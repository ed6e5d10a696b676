/// What comparing an expected image with an actual one found.
///
/// In an exact comparison (``exact``) ``differingPixels`` counts every visibly changed pixel; in a
/// perceptual one only those beyond the threshold and not excused as anti-aliasing. Either way the
/// perceptual classes are counted too (``perceptualPixels``, ``antiAliasedPixels``,
/// ``subtlePixels``) to describe the change.
public struct ImageComparison: Sendable {
  /// The outcome, from cheapest to most expensive to reach.
  public enum Verdict: String, Sendable, Codable {
    /// The two files hold the same bytes (and form a well-formed PNG).
    case identicalBytes
    /// The decoded pixels are the same.
    case identicalPixels
    /// Some pixels differ, but within the threshold, the budget and the density limit.
    case withinTolerance
    /// The images differ beyond the tolerance.
    case different
    /// The images do not have the same size; nothing else was compared.
    case sizeMismatch
  }

  /// How a single pixel compared, as drawn in the diff image.
  public enum PixelClass: UInt8, Sendable {
    /// Bit-identical.
    case same = 0
    /// Different bytes, but within the colour threshold.
    case similar = 1
    /// Beyond the threshold but detected as anti-aliasing (drawn yellow).
    case antiAliased = 2
    /// Beyond the threshold and counted (drawn red).
    case changed = 3
  }

  /// The outcome.
  public var verdict: Verdict
  /// Whether every visibly changed pixel counted (exact) or only perceptual differences did.
  public var exact: Bool = true
  /// Why the comparison was exact or perceptual, in words.
  public var modeReason: String = ""
  /// The per-pixel threshold of the perceptual analysis.
  public var threshold: Double = 0.1
  /// The just-noticeable colour difference (ΔE_OK) of the perceptual analysis, 0 when off.
  public var colorJND: Double = ComparisonOptions.defaultColorJND
  /// Pixels beyond the perceptual threshold and not anti-aliasing.
  public var perceptualPixels: Int = 0
  /// Pixels that differ but stay within the perceptual threshold.
  public var subtlePixels: Int = 0
  /// Expected image size in pixels.
  public var expectedSize: (width: Int, height: Int)
  /// Actual image size in pixels.
  public var actualSize: (width: Int, height: Int)
  /// Counted differing pixels: every visibly changed pixel when ``exact``, else those beyond the
  /// threshold and not excused as anti-aliasing.
  public var differingPixels: Int = 0
  /// Pixels beyond the threshold that were detected as anti-aliasing and not counted.
  public var antiAliasedPixels: Int = 0
  /// The smallest rectangle holding every counted differing pixel, or nil when there is none.
  public var boundingBox: PixelRegion?
  /// The pixel budget that applied (see ``ComparisonOptions/budget(pixelCount:)``).
  public var budget: Int = 0
  /// The density window holding the most counted pixels, when any pixel was counted.
  public var densestWindow: PixelRegion?
  /// The number of counted pixels in ``densestWindow``.
  public var densestWindowCount: Int = 0
  /// The most counted pixels a density window could hold and still match.
  public var windowLimit: Int = 0
  /// One ``PixelClass`` raw value per pixel, row-major; empty unless pixels were compared one by one.
  public var pixelClasses: [UInt8] = []

  /// Whether the images match under the options used.
  public var passed: Bool {
    switch verdict {
    case .identicalBytes, .identicalPixels, .withinTolerance: return true
    case .different, .sizeMismatch: return false
    }
  }

  /// All pixels of the expected image (0 when the sizes differ).
  public var pixelCount: Int { verdict == .sizeMismatch ? 0 : expectedSize.width * expectedSize.height }

  /// Counted differing pixels as a fraction of all pixels (0…1).
  public var differingRatio: Double {
    pixelCount == 0 ? 0 : Double(differingPixels) / Double(pixelCount)
  }

  /// Whether the density check (not the budget) is what failed the comparison.
  public var failedOnDensity: Bool {
    verdict == .different && differingPixels <= budget && densestWindowCount > windowLimit
  }

  /// A one-line explanation for terminals and reports.
  public var summary: String {
    switch verdict {
    case .identicalBytes: return "identical files"
    case .identicalPixels: return "identical pixels"
    case .sizeMismatch:
      return "size mismatch: expected \(expectedSize.width)×\(expectedSize.height), "
        + "actual \(actualSize.width)×\(actualSize.height)"
    case .withinTolerance, .different:
      var text = verdict == .withinTolerance ? "within tolerance: " : ""
      text += "\(differingPixels) pixel\(differingPixels == 1 ? "" : "s") differ"
      text += differingPixels == 1 ? "s" : ""
      text += " (\(formatRatio(differingRatio)) of \(pixelCount))"
      if let box = boundingBox { text += " in \(box)" }
      if exact {
        text +=
          "; perceptually \(perceptualPixels) beyond \(limitText), \(antiAliasedPixels) anti-aliased, "
          + "\(subtlePixels) below the threshold"
      } else {
        if antiAliasedPixels > 0 { text += "; \(antiAliasedPixels) anti-aliased ignored" }
        if subtlePixels > 0 { text += "; \(subtlePixels) below \(limitText) ignored" }
      }
      if failedOnDensity, let window = densestWindow {
        text +=
          "; too dense: \(densestWindowCount) in the \(window.width)×\(window.height) window at "
          + "(\(window.x), \(window.y)), limit \(windowLimit)"
      } else if verdict == .different {
        text += "; budget \(budget)"
      }
      if !modeReason.isEmpty { text += " [\(modeReason)]" }
      return text
    }
  }

  /// "threshold 0.1 or ΔE_OK 0.02": what a perceptually counted pixel exceeds.
  var limitText: String { colorJND > 0 ? "threshold \(threshold) or ΔE_OK \(colorJND)" : "threshold \(threshold)" }

  private func formatRatio(_ r: Double) -> String {
    if r == 0 { return "0%" }
    let percent = r * 100
    if percent < 0.01 { return "<0.01%" }
    return "\((percent * 100).rounded() / 100)%"
  }
}
