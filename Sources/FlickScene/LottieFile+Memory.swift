extension LottieFile {
  /// About how many bytes rendering this file takes beyond Flick's own frame buffers, for a
  /// memory estimate to add before a render starts.
  ///
  /// - Each worker draws with its own rlottie object into a premultiplied ARGB picture of the
  ///   drawn size (4 bytes a pixel), and rlottie keeps one more surface of that size for masks
  ///   and mattes: `2 × 4 × drawnPixels` per worker.
  /// - rlottie decodes every embedded image once per process (its model cache is shared by the
  ///   workers): stb_image's buffer and rlottie's premultiplied copy, `2 × 4 ×`
  ///   ``embeddedImagePixels``.
  ///
  /// - Parameters:
  ///   - drawnPixels: The pixels of one drawn Lottie frame: the output frame for a Lottie file
  ///     rendered whole, the layer's device size (at most 4096 × 4096) for a template's
  ///     `lottie` layer. Nil means the canvas (`w × h`).
  ///   - workers: Render workers drawing at once (1 or more).
  /// - Returns: Bytes (saturating; never negative).
  public func estimatedBytes(drawnPixels: Int? = nil, workers: Int) -> Int {
    let drawn = drawnPixels ?? Int(size.width.rounded(.up) * size.height.rounded(.up))
    let perWorker = drawn.multipliedReportingOverflow(by: 8)
    let frames = perWorker.partialValue.multipliedReportingOverflow(by: max(1, workers))
    let images = embeddedImagePixels.multipliedReportingOverflow(by: 8)
    let sum = frames.partialValue.addingReportingOverflow(images.partialValue)
    guard !perWorker.overflow, !frames.overflow, !images.overflow, !sum.overflow else { return Int.max }
    return max(0, sum.partialValue)
  }
}
