internal import CCairo
internal import CPango
import FlickMotion
import FlickScene

/// A line Pango places on the wrong side of the bounds (``TextLayout/movedLines(_:alignment:inWidth:width:offsetX:)``).
struct MovedLine: Equatable {
  /// The byte index just past the line's text.
  let end: Int32
  /// How far the line moves right (negative: left), in points.
  let dx: Double
  /// Where the line's logical box starts and ends once moved, in points from the point the
  /// layout is drawn at.
  let minX: Double
  let maxX: Double
}

extension TextLayout {
  /// The lines of `layout` that Pango places on the wrong side, by the byte index each starts at.
  ///
  /// Pango lays out each paragraph in the direction of its first strong character, and mirrors
  /// left and right alignment for a right-to-left paragraph (its alignment is relative to the
  /// paragraph's direction). Core Animation's `left` and `right` are the sides themselves, for
  /// text in any direction; `justified` is natural: a paragraph's last line, and unwrapped text,
  /// on the side its direction starts from. So a right-to-left line moves to the left side for
  /// `left` and to the right side for `right`, wrapped (`inWidth`: laid out in `width` points) or
  /// not (placed at `offsetX` within `width` points), and unwrapped `justified` right-to-left
  /// text moves to the right side. Wrapped `justified` and `center`, and every left-to-right line,
  /// stay where Pango places them. Text laid out in no width stays at its left, as Pango puts it.
  static func movedLines(
    _ layout: OpaquePointer, alignment: TextContent.Alignment, inWidth: Bool, width: Double, offsetX: Double
  ) -> [Int32: MovedLine] {
    let side: Double? =
      switch alignment {
      case .left: 0
      case .right: 1
      case .justified: inWidth ? nil : 1
      case .center: nil
      }
    guard let side, !(inWidth && pangoUnits(width) == 0), let iter = Pango.api.layout_get_iter(layout) else {
      return [:]
    }
    defer { Pango.api.layout_iter_free(iter) }
    let scale = Double(PANGO_SCALE)
    var moved: [Int32: MovedLine] = [:]
    repeat {
      guard let line = Pango.api.layout_iter_get_line_readonly(iter) else { continue }
      let direction = PangoDirection(rawValue: line.pointee.resolved_dir)
      guard direction == PANGO_DIRECTION_RTL || direction == PANGO_DIRECTION_WEAK_RTL else { continue }
      var logical = PangoRectangle()
      Pango.api.layout_iter_get_line_extents(iter, nil, &logical)
      let lineWidth = Double(logical.width) / scale
      let x = (width - lineWidth) * side
      let dx = x - (offsetX + Double(logical.x) / scale)
      guard abs(dx) >= 1 / scale else { continue }
      let start = line.pointee.start_index
      moved[start] = MovedLine(end: start + line.pointee.length, dx: dx, minX: x, maxX: x + lineWidth)
    } while Pango.api.layout_iter_next_line(iter) != 0
    return moved
  }

  /// Draws the layout line by line with its top-left at `origin`, each line where Pango places
  /// it moved by ``moved``, as `pango_cairo_show_layout` draws them.
  func drawLines(in cr: OpaquePointer, at origin: Point) {
    guard let iter = Pango.api.layout_get_iter(layout) else { return }
    defer { Pango.api.layout_iter_free(iter) }
    let scale = Double(PANGO_SCALE)
    repeat {
      guard let line = Pango.api.layout_iter_get_line_readonly(iter) else { continue }
      var logical = PangoRectangle()
      Pango.api.layout_iter_get_line_extents(iter, nil, &logical)
      let baseline = Double(Pango.api.layout_iter_get_baseline(iter)) / scale
      let dx = moved[line.pointee.start_index]?.dx ?? 0
      cairo_move_to(cr, origin.x + Double(logical.x) / scale + dx, origin.y + baseline)
      Pango.api.cairo_show_layout_line(cr, line)
    } while Pango.api.layout_iter_next_line(iter) != 0
  }

  /// How far the character at byte `index` moves with its line (``moved``), in points.
  func movedX(at index: Int32) -> Double {
    guard !moved.isEmpty else { return 0 }
    return moved.first { index >= $0.key && index < $0.value.end }?.value.dx ?? 0
  }
}
