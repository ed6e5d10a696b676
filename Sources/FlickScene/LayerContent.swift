/// What a layer draws above its background and `contents` image and below its sublayers.
public enum LayerContent: Sendable, Hashable {
  /// Nothing (a plain `CALayer`).
  case none
  /// A filled and stroked path (`CAShapeLayer`).
  case shape(ShapeContent)
  /// A string laid out with Pango (`CATextLayer`).
  case text(TextContent)
  /// Colour stops (`CAGradientLayer`).
  case gradient(GradientContent)
  /// A Lottie animation drawn by rlottie, one frame at a time.
  case lottie(LottieContent)

  /// The kind without its payload, for messages and property lookups.
  public var kind: LayerContentKind {
    switch self {
    case .none: .none
    case .shape: .shape
    case .text: .text
    case .gradient: .gradient
    case .lottie: .lottie
    }
  }
}

/// The kinds of ``LayerContent``.
public enum LayerContentKind: String, Sendable, Hashable, CaseIterable {
  case none, shape, text, gradient, lottie
}
