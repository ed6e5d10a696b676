extension LottieFile {
  /// About how many bytes rendering this file takes beyond Flick's own frame buffers, for a
  /// memory estimate to add before a render starts.
  ///
  /// - Each worker draws with its own rlottie object into a premultiplied ARGB picture of the
  ///   drawn size (4 bytes a pixel), and rlottie keeps one more surface of that size for masks
  ///   and mattes: `2 × 4 × drawnPixels` per worker.
  /// - Each worker's rlottie object keeps the coverage of every item it draws (``drawnItems``),
  ///   about 64 bytes per drawn row: `64 × rows × drawnItems` per worker (measured: 10,000
  ///   copies of a 300-row ellipse hold 400 MB).
  /// - rlottie decodes every embedded image once per process (its model cache is shared by the
  ///   workers): stb_image's buffer and rlottie's premultiplied copy, `2 × 4 ×`
  ///   ``embeddedImagePixels``.
  ///
  /// - Parameters:
  ///   - drawnPixels: The pixels of one drawn Lottie frame: the output frame for a Lottie file
  ///     rendered whole, the layer's device size (at most 4096 × 4096) for a template's
  ///     `lottie` layer. Nil means the canvas (`w × h`).
  ///   - workers: Render workers drawing at once (1 or more).
  /// - Returns: Bytes (saturating at `Int.max`; never negative).
  package func estimatedBytes(drawnPixels: Int? = nil, workers: Int) -> Int {
    let canvas = Double(size.width.rounded(.up)) * Double(size.height.rounded(.up))
    let drawn = Double(max(0, drawnPixels ?? Int(canvas)))
    // Rows of the drawn frame: its pixels at the canvas's aspect ratio.
    let rows = (drawn * size.height / max(1, size.width)).squareRoot()
    let perWorker = 8 * drawn + 64 * rows * Double(drawnItems)
    let total = perWorker * Double(max(1, workers)) + 8 * Double(embeddedImagePixels)
    return total >= Double(Int.max) ? Int.max : Int(total)
  }
}
