internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// How far a rolling character travels, as a fraction of its line's height.
  static let rollTravel = 0.8
  /// The scale a rolling character has when it is fully out.
  static let rollScale = 0.85

  /// Draws a text layer in the middle of a ``TextTransition``: the characters the old and new
  /// strings share at their start and end move from their old place to their new one, the
  /// changed ones roll or fade out (old) and in (new). Each character is drawn on its own, at the
  /// place the full layout gives it (so kerning between the characters is kept). Falls back to
  /// the new text when either string's layout is not one box per character (Pango broke a long
  /// word with invisible breaks).
  func drawTextTransition(
    _ t: TextContent, _ transition: TextTransition, of layer: Layer, in cr: OpaquePointer
  ) throws(RasterError) {
    var plain = t
    plain.transition = nil
    var old = plain
    old.string = transition.from
    let size = layer.bounds.size
    let origin = layer.bounds.origin
    guard let newLayout = try textLayout(plain, size: size) else { return }
    guard let oldLayout = try textLayout(old, size: size),
      let oldBoxes = oldLayout.characterBoxes(of: transition.from),
      let newBoxes = newLayout.characterBoxes(of: transition.to)
    else {
      newLayout.draw(in: cr, at: origin, color: t.textColor)
      return
    }
    let a = Array(transition.from)
    let b = Array(transition.to)
    let parts = transition.parts
    let p = transition.progress
    let shown = min(max(p, 0), 1)
    let direction: Double = transition.countsDown ? -1 : 1
    func glyph(_ c: Character, at box: Rect, dy: Double = 0, scale: Double = 1, alpha: Double = 1) throws(RasterError) {
      guard alpha > 0, c != " " else { return }
      var g = plain
      g.string = String(c)
      g.isWrapped = false
      g.truncationMode = .none
      g.alignment = .left
      guard let layout = try textLayout(g, size: Size(width: 0, height: 0)) else { return }
      var color = t.textColor
      color.alpha *= min(alpha, 1)
      let x = origin.x + box.minX
      let y = origin.y + box.minY + dy
      guard scale != 1 else {
        layout.draw(in: cr, at: Point(x: x, y: y), color: color)
        return
      }
      let cx = x + box.width / 2
      let cy = y + box.height / 2
      cairo_save(cr)
      cairo_translate(cr, cx, cy)
      cairo_scale(cr, scale, scale)
      cairo_translate(cr, -cx, -cy)
      layout.draw(in: cr, at: Point(x: x, y: y), color: color)
      cairo_restore(cr)
    }
    func between(_ from: Rect, _ to: Rect) -> Rect {
      Rect(
        x: from.minX + (to.minX - from.minX) * p, y: from.minY + (to.minY - from.minY) * p,
        width: from.width + (to.width - from.width) * p, height: from.height + (to.height - from.height) * p)
    }
    // The characters that stay, moving with the layout.
    for i in 0..<parts.prefix { try glyph(b[i], at: between(oldBoxes[i], newBoxes[i])) }
    for j in 0..<parts.suffix {
      let i = a.count - parts.suffix + j
      let k = b.count - parts.suffix + j
      try glyph(b[k], at: between(oldBoxes[i], newBoxes[k]))
    }
    // The characters that change: the old ones leave, the new ones arrive.
    // A rolling character is gone by two thirds of the way and the new one appears from one
    // third on, so the two pass each other faintly; a fade cross-fades over the whole way.
    let rolls = transition.kind == .roll
    let outgoing = rolls ? 1 - 1.5 * shown : 1 - shown
    let incoming = rolls ? 1.5 * shown - 0.5 : shown
    for i in parts.prefix..<(parts.prefix + parts.oldMiddle) {
      let box = oldBoxes[i]
      try glyph(
        a[i], at: box, dy: rolls ? -direction * Self.rollTravel * box.height * p : 0,
        scale: rolls ? 1 - (1 - Self.rollScale) * shown : 1, alpha: outgoing)
    }
    for k in parts.prefix..<(parts.prefix + parts.newMiddle) {
      let box = newBoxes[k]
      try glyph(
        b[k], at: box, dy: rolls ? direction * Self.rollTravel * box.height * (1 - p) : 0,
        scale: rolls ? Self.rollScale + (1 - Self.rollScale) * shown : 1, alpha: incoming)
    }
  }
}
