internal import CCairo
internal import CPango
import FlickMotion
import FlickScene
import Foundation

/// A Pango context set up for deterministic, transform-independent layout: grey antialiasing,
/// no hinting and unrounded glyph positions, so a layout shaped once draws identically under
/// any transform and on any thread.
///
/// The font map and context are made when the first text is laid out, not before: making a
/// Pango font map starts fontconfig's initialisation (about 24 M instructions), which a scene
/// without text never needs.
final class TextContext {
  private let ownFontMap: Bool
  /// The font map and context, once made (nil before the first layout).
  private var made: (context: OpaquePointer, map: UnsafeMutablePointer<PangoFontMap>)?
  /// ``FontRegistry/generation`` the private map last saw.
  private var seenGeneration = 0
  /// Every layout ``layout(_:size:)`` made, by what shapes it, when layouts are kept (nil: not kept).
  private var kept: [TextKey: TextLayout]?
  /// The contexts whose font map and kept layouts this one takes over on its first use (see
  /// ``init(takingOver:)``); nil once taken, or when there are none.
  private var source: (() -> [TextContext])?

  /// A context on this thread's default font map, or (`ownFontMap`) on a private one that may
  /// be used from any one thread at a time; nothing is made until ``context`` is first read.
  /// With `keepsLayouts`, ``layout(_:size:)`` shapes each text once and hands back the same
  /// layout afterwards (a still's frame and its glyph check share them).
  init(ownFontMap: Bool, keepsLayouts: Bool = false) {
    self.ownFontMap = ownFontMap
    kept = keepsLayouts ? [:] : nil
  }

  /// A context on a private font map, keeping layouts, that on its first use (a layout, or
  /// ``context``) takes over the font map of the first private, keeping context `sources` returns
  /// that made one, and the kept layouts of them all (a layout keeps its own font map alive).
  /// `sources` is called then, once, on the using thread: it waits until no other thread uses
  /// those contexts (``SharedText``'s helpers). When none made a font map, one is made here as
  /// usual. ``prepare(fontFiles:)`` takes nothing over: it registers the files, and the map taken
  /// over later is refreshed.
  convenience init(takingOver sources: @escaping () -> [TextContext]) {
    self.init(ownFontMap: true, keepsLayouts: true)
    self.source = sources
  }

  private func takeOverSource() {
    guard let take = source else { return }
    source = nil
    let sources = take().filter { $0.ownFontMap && $0.kept != nil }
    guard let first = sources.first(where: { $0.made != nil }), let taken = first.made else { return }
    first.made = nil
    made = taken
    seenGeneration = first.seenGeneration
    for from in sources {
      kept?.merge(from.kept ?? [:]) { mine, _ in mine }
      from.kept = [:]
    }
    refreshOwnMapIfNeeded(taken.map)
  }

  /// How many layouts are kept (0 when layouts are not kept).
  var keptLayoutCount: Int {
    takeOverSource()
    return kept?.count ?? 0
  }

  /// `text` shaped for a layer of `size` points in this context (nil when Pango cannot): the
  /// kept layout when there is one, else a new one, kept when this context keeps layouts.
  func layout(_ text: TextContent, size: Size) -> TextLayout? {
    takeOverSource()
    let key = TextKey(text, size: size)
    if let layout = kept?[key] { return layout }
    let layout = TextLayout(key.text, size: size, in: self)
    if let layout, kept != nil { kept?[key] = layout }
    return layout
  }

  /// The Pango context (made on first use; nil when Pango cannot make one).
  var context: OpaquePointer? {
    takeOverSource()
    if let made { return made.context }
    let map: UnsafeMutablePointer<PangoFontMap>? =
      ownFontMap ? Pango.api.cairo_font_map_new() : Pango.api.cairo_font_map_get_default()
    guard let map else { return nil }
    guard let context = Pango.api.font_map_create_context(map) else {
      if ownFontMap { Pango.api.object_unref(UnsafeMutableRawPointer(map)) }
      return nil
    }
    made = (context, map)
    if let options = cairo_font_options_create() {
      cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
      cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
      cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
      cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
      Pango.api.cairo_context_set_font_options(context, options)
      cairo_font_options_destroy(options)
    }
    Pango.api.cairo_context_set_resolution(context, 72)
    Pango.api.context_set_round_glyph_positions(context, 0)
    // What `prepare` skipped while there was no map (as it did for a map made beforehand).
    if ownFontMap {
      refreshOwnMapIfNeeded(map)
    } else {
      refreshDefaultMapIfNeeded(map)
    }
    return context
  }

  /// Registers `fontFiles` with fontconfig and makes this context's font map see every file
  /// registered so far (in this call or earlier, by any thread), before any text is laid out.
  func prepare(fontFiles: [String]) throws(RasterError) {
    try FontRegistry.register(fontFiles)
    // A map not made yet will see them when it is.
    guard let map = made?.map else { return }
    if ownFontMap {
      refreshOwnMapIfNeeded(map)
    } else {
      refreshDefaultMapIfNeeded(map)
    }
  }

  private func refreshOwnMapIfNeeded(_ map: UnsafeMutablePointer<PangoFontMap>) {
    let generation = FontRegistry.generation
    guard seenGeneration != generation else { return }
    seenGeneration = generation
    Self.refresh(map)
  }

  /// The default map belongs to this thread and outlives this context: which registrations it
  /// has seen is remembered per thread.
  private func refreshDefaultMapIfNeeded(_ map: UnsafeMutablePointer<PangoFontMap>) {
    let generation = FontRegistry.generation
    let key = "FlickRaster.FontRegistry.generation"
    let dictionary = Thread.current.threadDictionary
    guard (dictionary[key] as? Int ?? 0) != generation else { return }
    dictionary[key] = generation
    Self.refresh(map)
  }

  /// Makes `map` drop what it cached from fontconfig, so newly added files are found.
  static func refresh(_ map: UnsafeMutablePointer<PangoFontMap>) {
    Pango.api.fc_font_map_config_changed(OpaquePointer(map))
  }

  deinit {
    guard let made else { return }
    Pango.api.object_unref(UnsafeMutableRawPointer(made.context))
    if ownFontMap { Pango.api.object_unref(UnsafeMutableRawPointer(made.map)) }
  }
}

/// A shaped paragraph of a text layer, ready to draw at any position and transform.
final class TextLayout {
  let layout: OpaquePointer
  /// Horizontal offset of the text inside the bounds (alignment of unwrapped text), in points.
  let offsetX: Double
  /// How far each line Pango places on the wrong side moves, in points, by the byte index it
  /// starts at (``movedLines(_:alignment:inWidth:width:offsetX:)``); empty when none does.
  let moved: [Int32: MovedLine]

  /// Font sizes drawn, in points; sizes outside are clamped (an animation may overshoot).
  static let fontSizes = 0.5...2000.0

  /// `points` in Pango units, clamped to what an `Int32` holds (NaN is 0): a template may ask for
  /// a layer a million points wide.
  static func pangoUnits(_ points: Double) -> Int32 {
    let units = (points * Double(PANGO_SCALE)).rounded()
    return units.isNaN ? 0 : Int32(max(Double(Int32.min), min(Double(Int32.max), units)))
  }

  /// Held while a layout is shaped and its lines are laid out, in every font map of the process.
  /// Pango 1.50 measures a font (its average character width, from a sample layout) the first
  /// time a layout needs the font's metrics, and skips that width while the flag it keeps for the
  /// whole process says a measurement is going on: a font first measured while another thread
  /// measured one of its own, even in another font map, kept a width of 0 for as long as it
  /// lived, and wrapping then broke words that do not fit their line otherwise ("H-" / "i"
  /// instead of "Hi" overflowing), depending on which thread won. Shaping one layout at a time
  /// makes every measurement the one a lone thread makes. Drawing a laid-out layout measures
  /// nothing and is not held.
  private static let shaping = NSLock()

  /// Shapes `text` for a layer of `size` points, and lays out its lines (under ``shaping``).
  init?(_ text: TextContent, size: Size, in context: TextContext) {
    guard let pango = context.context else { return nil }
    Self.shaping.lock()
    defer { Self.shaping.unlock() }
    guard let layout = Pango.api.layout_new(pango) else { return nil }
    self.layout = layout
    let scale = Double(PANGO_SCALE)
    if let description = Pango.api.font_description_new() {
      Pango.api.font_description_set_family(description, text.fontFamily)
      // The range templates accept. Beyond it FreeType fails, and Cairo then keeps the font
      // face in error for the rest of the process: every later text in that family would fail.
      let fontSize =
        text.fontSize.isNaN
        ? 12 : min(max(TextLayout.fontSizes.lowerBound, text.fontSize), TextLayout.fontSizes.upperBound)
      Pango.api.font_description_set_absolute_size(description, fontSize * scale)
      Pango.api.font_description_set_weight(description, PangoWeight(rawValue: UInt32(text.fontWeight.rawValue)))
      let style: PangoStyle =
        switch text.fontStyle {
        case .normal: PANGO_STYLE_NORMAL
        case .italic: PANGO_STYLE_ITALIC
        case .oblique: PANGO_STYLE_OBLIQUE
        }
      Pango.api.font_description_set_style(description, style)
      Pango.api.layout_set_font_description(layout, description)
      Pango.api.font_description_free(description)
    }
    let laidOutInWidth = text.isWrapped || text.truncationMode != .none
    Pango.api.layout_set_text(layout, laidOutInWidth ? Self.breakingLongWords(text.string) : text.string, -1)
    Pango.api.layout_set_spacing(layout, Self.pangoUnits(text.lineSpacing))
    if text.tracking != 0, let attributes = Pango.api.attr_list_new() {
      // Letter spacing over the whole text; the list takes ownership of the attribute.
      if let spacing = Pango.api.attr_letter_spacing_new(Self.pangoUnits(text.tracking)) {
        Pango.api.attr_list_insert(attributes, spacing)
      }
      Pango.api.layout_set_attributes(layout, attributes)
      Pango.api.attr_list_unref(attributes)
    }
    let width = Self.pangoUnits(max(0, size.width))
    let ellipsize: PangoEllipsizeMode =
      switch text.truncationMode {
      case .none: PANGO_ELLIPSIZE_NONE
      case .start: PANGO_ELLIPSIZE_START
      case .middle: PANGO_ELLIPSIZE_MIDDLE
      case .end: PANGO_ELLIPSIZE_END
      }
    if laidOutInWidth {
      Pango.api.layout_set_width(layout, width)
      Pango.api.layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
      Pango.api.layout_set_ellipsize(layout, ellipsize)
      if text.truncationMode != .none {
        // Wrapped text keeps the lines that fit the height; unwrapped text stays on one line.
        Pango.api.layout_set_height(layout, text.isWrapped ? Self.pangoUnits(max(0, size.height)) : -1)
      }
      let alignment: PangoAlignment =
        switch text.alignment {
        case .left, .justified: PANGO_ALIGN_LEFT
        case .center: PANGO_ALIGN_CENTER
        case .right: PANGO_ALIGN_RIGHT
        }
      Pango.api.layout_set_alignment(layout, alignment)
      Pango.api.layout_set_justify(layout, text.alignment == .justified ? 1 : 0)
      offsetX = 0
      // Pango lays the lines out lazily: now, while ``shaping`` is held.
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      Pango.api.layout_get_extents(layout, &ink, &logical)
    } else {
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      Pango.api.layout_get_extents(layout, &ink, &logical)
      let textWidth = Double(logical.width) / scale
      let factor: Double =
        switch text.alignment {
        case .left, .justified: 0
        case .center: 0.5
        case .right: 1
        }
      offsetX = (size.width - textWidth) * factor
    }
    moved = Self.movedLines(
      layout, alignment: text.alignment, inWidth: laidOutInWidth, width: size.width, offsetX: offsetX)
  }

  /// The longest run without a break opportunity that wrapping lays out as written.
  static let longestWord = 128

  /// `text` with a zero-width space (a break opportunity that draws nothing) after every
  /// ``longestWord`` characters of a run without spaces. Pango's word-or-character wrapping
  /// re-measures the rest of a word for every line it breaks, so one 30,000-character word took
  /// over a minute per frame; with the runs bounded it is linear. Text without such runs (any
  /// prose) is passed through unchanged, so its layout is exactly as before.
  static func breakingLongWords(_ text: String) -> String {
    var run = 0
    var needed = false
    for scalar in text.unicodeScalars {
      run = scalar.properties.isWhitespace || scalar == "\u{200B}" ? 0 : run + 1
      if run > longestWord {
        needed = true
        break
      }
    }
    guard needed else { return text }
    var out = String.UnicodeScalarView()
    run = 0
    for scalar in text.unicodeScalars {
      if scalar.properties.isWhitespace || scalar == "\u{200B}" {
        run = 0
      } else if run == longestWord {
        out.append("\u{200B}")
        run = 0
      }
      if !(scalar.properties.isWhitespace || scalar == "\u{200B}") { run += 1 }
      out.append(scalar)
    }
    return String(out)
  }

  deinit { Pango.api.object_unref(UnsafeMutableRawPointer(layout)) }

  /// Draws the layout with its top-left at `origin` (plus the alignment offset) in `color`.
  /// Leaves no current point behind: the next layer's path must not start from the text (a
  /// path beginning with a line would otherwise be drawn from here, and a frame started from a
  /// kept prefix could not know it).
  func draw(in cr: OpaquePointer, at origin: Point, color: Color) {
    _ = logicalExtents
    CairoDraw.setSource(cr, color)
    if moved.isEmpty {
      cairo_move_to(cr, origin.x + offsetX, origin.y)
      Pango.api.cairo_show_layout(cr, layout)
    } else {
      drawLines(in: cr, at: Point(x: origin.x + offsetX, y: origin.y))
    }
    cairo_new_path(cr)
  }

  /// Draws the layout once on a scratch surface at `scale` device pixels per point, so that the
  /// glyph images Cairo rasterises for it stay in the caches every thread shares (each scaled
  /// font's glyphs, and the image compositor's glyph cache, keyed by font and glyph alone: a
  /// glyph's image does not depend on where it lands). A frame that then draws this layout upright
  /// at the same scale finds its glyphs rasterised; drawn otherwise (rotated, scaled), it
  /// rasterises its own, and nothing else changes. Layouts over 16 M scratch pixels are skipped.
  func rasteriseGlyphs(scale: Double) {
    rasteriseGlyphs(linear: (scale, 0, 0, scale))
  }

  /// ``rasteriseGlyphs(scale:)`` under the linear part of a user-to-device matrix (`xx`, `yx`,
  /// `xy`, `yy`, as Cairo's): the glyphs a frame finds when it draws this layout rotated or
  /// scaled with that matrix.
  func rasteriseGlyphs(linear m: (xx: Double, yx: Double, xy: Double, yy: Double)) {
    let extent = size
    let xs = [0, m.xx * extent.width, m.xy * extent.height, m.xx * extent.width + m.xy * extent.height]
    let ys = [0, m.yx * extent.width, m.yy * extent.height, m.yx * extent.width + m.yy * extent.height]
    guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(), x1 - x0 < 32768,
      y1 - y0 < 32768, abs(m.xx * m.yy - m.xy * m.yx) > 1e-12, extent.width > 0, extent.height > 0
    else { return }
    let width = Int((x1 - x0).rounded(.up)) + 2
    let height = Int((y1 - y0).rounded(.up)) + 2
    guard width * height <= 1 << 24,
      let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))
    else { return }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { return }
    defer { cairo_destroy(cr) }
    var matrix = cairo_matrix_t(xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy, x0: 1 - x0, y0: 1 - y0)
    cairo_set_matrix(cr, &matrix)
    draw(in: cr, at: Point(x: -offsetX, y: 0), color: .black)
  }

  /// The box of everything the layout draws, in points from the point it is drawn at
  /// (``offsetX`` included): the union of Pango's logical rectangle and its ink rectangle, which
  /// holds what leaves the logical one (italic overhang, stacked marks, ink above the ascent or
  /// below the descent). For extents only: the layout places the text by ``size``.
  var drawnBox: Rect {
    let (ink, logical) = extents
    let scale = Double(PANGO_SCALE)
    func rect(_ r: PangoRectangle) -> Rect {
      Rect(
        x: offsetX + Double(r.x) / scale, y: Double(r.y) / scale, width: Double(r.width) / scale,
        height: Double(r.height) / scale)
    }
    var box = Box(rect(logical))
    if ink.width > 0, ink.height > 0 { box.add(rect(ink)) }
    return box.rect
  }

  /// The layout's logical extents, in Pango units. Pango lays the lines out again when the
  /// context's font map has changed since (font files registered): that happens here, under
  /// ``shaping``, and every other use of the lines (drawing, a character's box, the glyphs)
  /// asks for this first.
  var logicalExtents: PangoRectangle { extents.logical }

  /// The layout's ink and logical extents, in Pango units, read under ``shaping``
  /// (``logicalExtents``).
  private var extents: (ink: PangoRectangle, logical: PangoRectangle) {
    Self.shaping.lock()
    defer { Self.shaping.unlock() }
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    Pango.api.layout_get_extents(layout, &ink, &logical)
    return (ink, logical)
  }

  /// The laid-out size (logical extents), in points.
  var size: Size {
    let logical = logicalExtents
    return Size(
      width: Double(logical.width) / Double(PANGO_SCALE), height: Double(logical.height) / Double(PANGO_SCALE))
  }
}
