import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Foundation

extension Flick {
  /// Reports text layers with characters no installed font draws (Pango would draw hex boxes):
  /// a warning on stderr for each (unless `quiet`), or, with `strict`, an invalid-input error
  /// listing them all. Text does not change over time, so the scene's first instant shows every
  /// string it has.
  /// With `text`, the layouts it kept from a frame drawn with it are read rather than made
  /// again (``FlickRaster/Renderer/missingGlyphs(in:sharing:)``; on the calling thread).
  static func checkGlyphs(_ scene: Scene, strict: Bool, quiet: Bool, sharing text: SharedText? = nil) throws {
    try reportGlyphGaps(try glyphGaps(scene, sharing: text), strict: strict, quiet: quiet)
  }

  /// The glyphs of the scene's text (at time 0) that no installed font has; with `text`, laid
  /// out in it (the layouts of a frame drawn with it are read, not made again).
  static func glyphGaps(_ scene: Scene, sharing text: SharedText? = nil) throws -> [MissingGlyphs] {
    do {
      let tree = scene.renderTree(at: 0)
      if let text { return try Renderer().missingGlyphs(in: tree, sharing: text) }
      return try Renderer().missingGlyphs(in: tree)
    } catch {
      throw CommandError(message: error.description, code: .environment)
    }
  }

  /// Warns about `gaps` (unless `quiet`), or with `strict` refuses them.
  static func reportGlyphGaps(_ gaps: [MissingGlyphs], strict: Bool, quiet: Bool) throws {
    guard !gaps.isEmpty else { return }
    if strict {
      throw CommandError(
        message: gaps.map(\.description).joined(separator: "\n") + "\n(--strict makes missing glyphs an error)",
        code: .invalidInput)
    }
    if !quiet {
      for gap in gaps { log("warning: \(escaped: gap)") }
    }
  }
}
