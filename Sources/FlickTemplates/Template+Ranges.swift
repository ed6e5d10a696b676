extension Template {
  /// A length a layer key gives in points (a dash, a corner or arc radius, a jitter amplitude).
  static let lengthRange: ClosedRange<Double> = 0...100_000
  /// A shape layer's `miterLimit`.
  static let miterLimitRange: ClosedRange<Double> = 1...1000
  /// A text layer's `lineSpacing`, points added between lines (negative tightens).
  static let lineSpacingRange: ClosedRange<Double> = -1000...1000
}

extension TemplateNode {
  /// A time in seconds a template gives (`duration`, `at`, a `delay` after its start): the
  /// schema's `seconds`.
  static let seconds: ClosedRange<Double> = 0...3600
  /// A time that may also be before its reference (a placement's `delay`, `timeOffset`): the
  /// schema's `signedSeconds`.
  static let signedSeconds: ClosedRange<Double> = -3600...3600
  /// A length of time that cannot be zero (the canvas's, a drag's, an animator's duration).
  static let positiveSeconds: ClosedRange<Double> = 0.001...3600
}

extension Template {
  /// A constraint's fixed `width` or `height`, points.
  static let constrainedLengthRange: ClosedRange<Double> = 0...1_000_000
}
