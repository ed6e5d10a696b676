internal import CPango
import FlickMotion

extension TextLayout {
  /// The logical box of each character (grapheme cluster) of `string` as laid out, in points
  /// from the point the layout is drawn at (``offsetX`` included), in string order; nil when
  /// the layout's text is not `string` (wrapping added invisible breaks to a long word).
  func characterBoxes(of string: String) -> [Rect]? {
    guard let text = Pango.api.layout_get_text(layout), String(cString: text) == string else { return nil }
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
      boxes.append(Rect(x: offsetX + x, y: Double(r.y) / scale, width: width, height: Double(r.height) / scale))
      index += Int32(c.utf8.count)
    }
    return boxes
  }
}
