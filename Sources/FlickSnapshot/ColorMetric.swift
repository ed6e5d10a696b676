/// How the comparator measures the difference between two pixels.
///
/// Both metrics work on gamma-encoded sRGB and blend translucent pixels over pixelmatch's
/// position-dependent checkerboard first (see ``ComparisonOptions``), so a colour change hidden
/// under transparency is still seen and two fully transparent pixels always match.
public enum ColorMetric: String, Sendable, Codable, CaseIterable {
  /// pixelmatch's YIQ distance (Kotsarenko and Ramos 2010).
  ///
  /// `δ = 0.5053·ΔY² + 0.299·ΔI² + 0.1957·ΔQ²` on 0–255 deltas; a pixel differs when
  /// `δ > 35215 · threshold²` (35215 is the metric's maximum). The threshold is squared,
  /// exactly as in pixelmatch, odiff and Playwright, so the same number means the same thing.
  case yiq
  /// OKLab with a HyAB distance: the formulas of pixelmatch PR #169 (merged to master on
  /// 2026-07-03, after the 7.2.0 release), not a release of pixelmatch.
  ///
  /// Flick computes the cube roots exactly (master uses a lookup table, so its distances can
  /// differ in the last digits) and keeps pixelmatch 7.2.0's anti-aliasing detector (master later
  /// changed how it treats translucent pixels). Counts can therefore differ from master near the
  /// threshold and on translucent anti-aliased edges.
  ///
  /// `|ΔLr| + √(Δa² + Δb²)`, where `Lr` is OKLab lightness with Ottosson's toe correction
  /// (`k1 = 0.206`, `k2 = 0.03`); 1.0 is the black-to-white distance and a pixel differs when the
  /// distance exceeds the threshold (not squared). Catches hue shifts at similar luma.
  case oklab
}
