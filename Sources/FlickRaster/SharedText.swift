/// Text shaped once for a frame and for the glyph check of the same scene (`flick still`):
/// ``Renderer/render(_:sharing:)`` keeps every layout it makes, and
/// ``Renderer/missingGlyphs(in:sharing:)`` reads the kept ones, laying out only the text the frame
/// did not draw (hidden layers, strings of other instants). One font map serves both, so
/// fontconfig's fonts are opened once rather than once more for the check.
///
/// It lays text out on the calling thread's default Pango font map: use it from one thread.
package final class SharedText {
  let context = TextContext(ownFontMap: false, keepsLayouts: true)

  package init() {}
}
