import Foundation

/// How far a golden recorded by another renderer is from the same inputs re-rendered by the
/// current one: the renderer's own drift, reported apart from design changes.
///
/// Counted over every pixel whose straight RGBA differs; ΔE_OK is the OKLab distance
/// (``ComparisonOptions/colorJND`` explains the unit: 1.0 is black to white).
package struct RendererDrift: Sendable, Equatable, Codable {
  /// Pixels whose value differs between the recorded golden and the re-rendered one.
  package var differingPixels: Int
  /// All pixels of the frame.
  package var pixelCount: Int
  /// Mean ΔE_OK over the differing pixels (0 when none differ).
  package var meanDeltaE: Double
  /// The 95th percentile of ΔE_OK over the differing pixels.
  package var p95DeltaE: Double
  /// The largest ΔE_OK.
  package var maxDeltaE: Double
  /// Differing pixels beyond the just-noticeable difference (ΔE_OK > ``ComparisonOptions/defaultColorJND``).
  package var noticeablePixels: Int
  /// The smallest rectangle holding every differing pixel.
  package var boundingBox: PixelRegion?

  /// Measures the drift from `recorded` (the old golden) to `rerendered`; nil when the sizes differ.
  package static func measure(recorded: PNGImage, rerendered: PNGImage) -> RendererDrift? {
    guard recorded.width == rerendered.width, recorded.height == rerendered.height else { return nil }
    let w = recorded.width, h = recorded.height
    var deltas: [Double] = []
    var box = ImageComparator.Bounds()
    recorded.words.withUnsafeBufferPointer { a in
      rerendered.words.withUnsafeBufferPointer { b in
        for i in 0..<(w * h) where a[i] != b[i] {
          let d = ColorDelta.deltaEOK(a[i], b[i], k: i * 4)
          if d == 0 { continue }
          deltas.append(d)
          box.add(i % w, i / w)
        }
      }
    }
    deltas.sort()
    let n = deltas.count
    return RendererDrift(
      differingPixels: n, pixelCount: w * h, meanDeltaE: n == 0 ? 0 : deltas.reduce(0, +) / Double(n),
      p95DeltaE: n == 0 ? 0 : deltas[min(n - 1, Int(Double(n) * 0.95))], maxDeltaE: deltas.last ?? 0,
      noticeablePixels: deltas.filter { $0 > ComparisonOptions.defaultColorJND }.count,
      boundingBox: n == 0
        ? nil : PixelRegion(x: box.minX, y: box.minY, width: box.maxX - box.minX + 1, height: box.maxY - box.minY + 1))
  }

  /// One line: `renderer drift: 212 pixels (0.37%), ΔE_OK mean 0.004, p95 0.011, max 0.031 in 40×12 at (10, 20)`.
  package var summary: String {
    guard differingPixels > 0 else { return "renderer drift: none (the re-rendered golden is identical)" }
    func f(_ x: Double) -> String { String(format: "%.4f", x) }
    let ratio = String(format: "%.2f%%", 100 * Double(differingPixels) / Double(max(1, pixelCount)))
    var text =
      "renderer drift: \(differingPixels) pixels (\(ratio)), ΔE_OK mean \(f(meanDeltaE)), "
      + "p95 \(f(p95DeltaE)), max \(f(maxDeltaE)), \(noticeablePixels) beyond \(ComparisonOptions.defaultColorJND)"
    if let boundingBox { text += " in \(boundingBox)" }
    return text
  }
}
