internal import CPango
import FlickMotion

extension TextLayout {
  /// Refuses text with a NUL character (U+0000): Pango reads the text as a C string, up to its
  /// first NUL, so `"A\u{0}B"` would silently draw "A". Templates refuse such text at load;
  /// this stops any other (a Swift scene, an animated string) before it is laid out.
  static func refuseNUL(in string: String) throws(RasterError) {
    guard string.utf8.contains(0) else { return }
    throw .invalidScene(
      "a text string contains a NUL character (U+0000), where Pango would cut the text short; remove it")
  }

  /// The logical box of each character (grapheme cluster) of `string` as laid out, in points
  /// from the point the layout is drawn at (``offsetX`` and ``moved`` included), in string order; nil when
  /// the layout's text is not `string` (wrapping added invisible breaks to a long word).
  func characterBoxes(of string: String) -> [Rect]? {
    guard let text = Pango.api.layout_get_text(layout), String(cString: text) == string else { return nil }
    _ = logicalExtents
    let scale = Double(PANGO_SCALE)
    var boxes: [Rect] = []
    var index: Int32 = 0
    for c in string {
      var r = PangoRectangle()
      Pango.api.layout_index_to_pos(layout, index, &r)
      var x = Double(r.x) / scale
      var width = Double(r.width) / scale
      if width < 0 {
        x += width
        width = -width
      }
      boxes.append(
        Rect(x: offsetX + movedX(at: index) + x, y: Double(r.y) / scale, width: width, height: Double(r.height) / scale)
      )
      index += Int32(c.utf8.count)
    }
    return boxes
  }
}
