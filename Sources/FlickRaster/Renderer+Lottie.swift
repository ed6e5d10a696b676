import FlickScene

extension Renderer {
  /// Checks that every Lottie layer's file in `tree` can be drawn: it is a Lottie file, uses
  /// only features rlottie 0.1 draws (``FlickScene/LottieFile/unsupportedFeatures``) and rlottie
  /// loads it. The loaded animation is kept for drawing.
  ///
  /// - Throws: ``RasterError/unreadableLottie(path:reason:)`` for the first file that fails, in
  ///   tree order.
  public func checkLottieFiles(of tree: RenderTree) throws(RasterError) {
    var stack = Array(tree.layers.reversed())
    while let layer = stack.popLast() {
      if let lottie = layer.lottie { try LottieStore.check(lottie.path) }
      if let mask = layer.mask { stack.append(mask) }
      stack.append(contentsOf: layer.sublayers.reversed())
    }
  }

  /// The version of the rlottie library loaded (``RendererFingerprint/rlottie``).
  public static var rlottieVersion: String { RendererFingerprint.current.rlottie ?? RendererFingerprint.unavailable }
}
