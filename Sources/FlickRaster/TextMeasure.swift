import FlickMotion
import FlickScene

/// Measures text exactly as the rasteriser lays it out (``TextLayout``: the same Pango context
/// settings, the same registered font files), for text layers that size themselves to their
/// text (a template text layer without a `size`, as `sizeToFit()`).
package enum TextMeasure {
  /// One private font map for every measurement, used by one thread at a time.
  private static let context = Locked(TextContext(ownFontMap: true))

  /// The size `text` takes on one line per paragraph (no wrapping, no truncation): the width of
  /// its longest line and the height of its lines, in points (the logical extents). The files
  /// of `fontFiles` are registered first, as a render does.
  package static func fittingSize(of text: TextContent, fontFiles: [String]) throws(RasterError) -> Size {
    var t = text
    t.isWrapped = false
    t.truncationMode = .none
    t.alignment = .left
    try Pango.require(for: nil)
    try TextLayout.refuseNUL(in: t.string)
    let result: Result<Size, RasterError> = context.withLock { c in
      do throws(RasterError) {
        try c.prepare(fontFiles: fontFiles)
      } catch {
        return .failure(error)
      }
      return .success(TextLayout(t, size: Size(width: 0, height: 0), in: c)?.size ?? Size(width: 0, height: 0))
    }
    return try result.get()
  }
}
