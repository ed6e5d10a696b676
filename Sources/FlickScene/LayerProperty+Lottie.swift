import FlickMotion

extension LayerProperty where Value == Double {
  /// `frame` of a Lottie layer: which of the animation's frames shows, counted from its in
  /// point (fractions round down; see ``LottieContent/frameIndex``).
  public static let lottieFrame = LayerProperty(
    name: "frame", threshold: 0.5, read: { $0.lottie?.frame ?? 0 },
    write: { l, v in l.withLottie { $0.frame = v } })
  /// `progress` of a Lottie layer, `0…1` from the first frame to the last.
  public static let lottieProgress = LayerProperty(
    name: "progress", threshold: Threshold.fraction, read: { $0.lottie?.progress ?? 0 },
    write: { l, v in l.withLottie { $0.progress = v } })
}

extension Layer {
  /// The Lottie content, if this is a Lottie layer.
  public var lottie: LottieContent? {
    if case .lottie(let c) = content { return c }
    return nil
  }

  /// Edits the Lottie content; does nothing on other kinds.
  public mutating func withLottie(_ body: (inout LottieContent) -> Void) {
    guard case .lottie(var c) = content else { return }
    body(&c)
    content = .lottie(c)
  }
}
