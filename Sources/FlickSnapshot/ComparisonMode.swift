/// Whether a comparison counts every changed pixel or applies a perceptual tolerance.
public enum ComparisonMode: String, Sendable, Codable, CaseIterable {
  /// Exact when the golden's renderer fingerprint equals the current one (or is unknown),
  /// perceptual when another renderer drew the golden. The default.
  case automatic
  /// Every visibly changed pixel counts (two fully transparent pixels are equal whatever their
  /// colour bytes); the perceptual analysis only describes the change.
  case exact
  /// pixelmatch's threshold and anti-aliasing detector decide which pixels count.
  case perceptual
}
