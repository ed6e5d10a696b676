internal import CPango
import FlickMotion
import FlickScene

/// Characters of one text layer that no installed font (nor the tree's font files) can draw:
/// Pango would draw each as a box showing its code point.
package struct MissingGlyphs: Sendable, Hashable, CustomStringConvertible {
  /// The text layer's ``Layer/id``.
  package let layerID: String
  /// The characters without a glyph, each once, in the order they first appear.
  package let characters: [Unicode.Scalar]

  package init(layerID: String, characters: [Unicode.Scalar]) {
    self.layerID = layerID
    self.characters = characters
  }

  /// `layer 'title': no installed font has "⿠" (U+2FE0); it draws as a box`.
  package var description: String {
    let list = characters.map { c in
      "\"\(escaped: c)\" (U+\(String(c.value, radix: 16, uppercase: true).leftPadded(to: 4)))"
    }.joined(separator: ", ")
    let it = characters.count == 1 ? "it draws as a box" : "they draw as boxes"
    return "layer '\(quoted: layerID)': no installed font has \(escaped: list); \(escaped: it) (install a font "
      + "that covers them, "
      + "or list one in 'fonts')"
  }
}

extension Renderer {
  /// The text layers of `tree` (sublayers and masks included) with characters that fall back
  /// to Pango's missing-glyph box, in tree order; empty when every character has a glyph.
  /// Colour emoji count as covered when a colour emoji font is installed (the bootstrap
  /// installs Noto Color Emoji). Whitespace, control and format characters (joiners,
  /// variation selectors) are never reported: they have no glyph of their own.
  ///
  /// - Throws: ``RasterError/unreadableFont(path:reason:)`` when a font file of the tree cannot be loaded.
  package func missingGlyphs(in tree: RenderTree) throws(RasterError) -> [MissingGlyphs] {
    try Self.missingGlyphs(in: tree, context: TextContext(ownFontMap: true))
  }

  /// ``missingGlyphs(in:)`` with the layouts `text` kept from a frame drawn with it
  /// (``render(_:sharing:)``): only text the frame did not lay out is laid out here. The same
  /// answer as ``missingGlyphs(in:)``.
  package func missingGlyphs(in tree: RenderTree, sharing text: SharedText) throws(RasterError) -> [MissingGlyphs] {
    try Self.missingGlyphs(in: tree, context: text.context)
  }

  private static func missingGlyphs(in tree: RenderTree, context: TextContext) throws(RasterError) -> [MissingGlyphs] {
    try context.prepare(fontFiles: tree.fontFiles)
    var out: [MissingGlyphs] = []
    for layer in textLayers(of: tree) {
      try Pango.require(for: layer.id)
      guard let text = layer.text, let layout = context.layout(text, size: layer.bounds.size) else { continue }
      let missing = unknownGlyphs(layout)
      if !missing.isEmpty { out.append(MissingGlyphs(layerID: layer.id, characters: missing)) }
    }
    return out
  }

  /// The layers of `tree` with text that is not empty (sublayers and masks included), in tree
  /// order, each ``FlickScene/Layer/id`` once (replicated copies keep their ids).
  static func textLayers(of tree: RenderTree) -> [Layer] { textLayers(in: tree.layers) }

  /// The layers of `layers` with text that is not empty, as ``textLayers(of:)``.
  static func textLayers(in layers: [Layer]) -> [Layer] {
    var seenLayers = Set<String>()
    return LayersInTreeOrder(layers).filter { layer in
      guard let text = layer.text, !text.string.isEmpty else { return false }
      return seenLayers.insert(layer.id).inserted
    }
  }

  /// The code points of the unknown glyphs of `layout`, each once, in order.
  static func unknownGlyphs(_ layout: TextLayout) -> [Unicode.Scalar] {
    // PANGO_GLYPH_UNKNOWN_FLAG: an unknown glyph is the character's code point with this bit.
    let unknownFlag: UInt32 = 0x1000_0000
    var found: [Unicode.Scalar] = []
    _ = layout.logicalExtents
    guard let iter = Pango.api.layout_get_iter(layout.layout) else { return [] }
    defer { Pango.api.layout_iter_free(iter) }
    repeat {
      guard let run = Pango.api.layout_iter_get_run_readonly(iter), let glyphs = run.pointee.glyphs else { continue }
      for i in 0..<Int(glyphs.pointee.num_glyphs) {
        let glyph = glyphs.pointee.glyphs[i].glyph
        guard glyph & unknownFlag != 0, glyph != 0x0FFF_FFFF, let scalar = Unicode.Scalar(glyph & ~unknownFlag) else {
          continue
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator: continue
        default: break
        }
        if scalar.properties.isVariationSelector || scalar.properties.isWhitespace { continue }
        if !found.contains(scalar) { found.append(scalar) }
      }
    } while Pango.api.layout_iter_next_run(iter) != 0
    return found
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
