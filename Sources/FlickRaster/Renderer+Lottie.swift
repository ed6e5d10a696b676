import FlickScene

extension Renderer {
  /// Checks that every vector file in `tree` can be drawn: each Lottie layer's file is a Lottie
  /// file, uses only features rlottie 0.1 draws (``FlickScene/LottieFile/unsupportedFeatures``)
  /// and rlottie loads it; each SVG `contents` parses with librsvg and has a size. What was
  /// loaded is kept for drawing. (These are the user's files: callers report them as invalid
  /// input, unlike a missing library.)
  ///
  /// - Throws: ``RasterError/unreadableLottie(path:reason:)`` or
  ///   ``RasterError/unreadableImage(path:reason:)`` for the first file that fails, in tree order.
  package func checkVectorFiles(of tree: RenderTree) throws(RasterError) {
    for layer in LayersInTreeOrder(tree.layers) {
      if let lottie = layer.lottie { try LottieStore.check(lottie.path) }
      if let image = layer.contents, SVGStore.isSVG(image.path) { try SVGStore.check(image.path) }
    }
  }

  /// About how many bytes one worker drawing the Lottie file at `path` at `drawnPixels` pixels
  /// needs beyond Flick's own frame buffers (``FlickScene/LottieFile/estimatedBytes(drawnPixels:workers:)``,
  /// its embedded images included), from the file read once per process; nil when the file cannot
  /// be read (the load-time check reports that).
  package static func lottieBytes(path: String, drawnPixels: Int) -> Int? {
    LottieStore.file(path)?.estimatedBytes(drawnPixels: drawnPixels, workers: 1)
  }

  /// The version of the rlottie library loaded (``RendererFingerprint/rlottie``).
  public static var rlottieVersion: String { RendererFingerprint.current.rlottie ?? RendererFingerprint.unavailable }
}
