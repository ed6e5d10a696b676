internal import CCairo
import FlickMotion
import FlickScene
import Foundation

extension LayerPainter {
  // MARK: - Shape

  func drawShape(_ shape: ShapeContent, in cr: OpaquePointer) {
    if shape.fillColor.alpha > 0, !shape.path.isEmpty {
      CairoDraw.append(shape.path, to: cr)
      cairo_set_fill_rule(cr, shape.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
      CairoDraw.setSource(cr, shape.fillColor)
      cairo_fill(cr)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    }
    guard shape.strokeColor.alpha > 0, shape.lineWidth > 0 else { return }
    let path = shape.path.trimmed(from: shape.strokeStart, to: shape.strokeEnd)
    guard !path.isEmpty else { return }
    cairo_new_path(cr)
    CairoDraw.append(path, to: cr)
    cairo_set_line_width(cr, shape.lineWidth)
    let cap: cairo_line_cap_t =
      switch shape.lineCap {
      case .butt: CAIRO_LINE_CAP_BUTT
      case .round: CAIRO_LINE_CAP_ROUND
      case .square: CAIRO_LINE_CAP_SQUARE
      }
    let join: cairo_line_join_t =
      switch shape.lineJoin {
      case .miter: CAIRO_LINE_JOIN_MITER
      case .round: CAIRO_LINE_JOIN_ROUND
      case .bevel: CAIRO_LINE_JOIN_BEVEL
      }
    cairo_set_line_cap(cr, cap)
    cairo_set_line_join(cr, join)
    cairo_set_miter_limit(cr, max(1, shape.miterLimit))
    let dashes = shape.lineDashPattern.map { max(0, $0) }
    if dashes.contains(where: { $0 > 0 }) {
      dashes.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), shape.lineDashPhase) }
    }
    CairoDraw.setSource(cr, shape.strokeColor)
    cairo_stroke(cr)
    cairo_set_dash(cr, nil, 0, 0)
  }

  // MARK: - Contents image

  func drawContents(_ ref: LayerImage, of layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    if let tint = ref.tint { return try drawTintedContents(ref, tint: tint, of: layer, in: cr) }
    if SVGStore.isSVG(ref.path) { return try drawSVGContents(ref, of: layer, in: cr) }
    let image = try ImageStore.image(at: ref.path)
    let rect = layer.contentsGravity.rect(
      forImageOf: Size(width: Double(image.width), height: Double(image.height)), in: layer.bounds)
    guard rect.width > 0, rect.height > 0, let surface = image.makeSurface() else { return }
    defer { cairo_surface_destroy(surface) }
    guard let pattern = cairo_pattern_create_for_surface(surface) else { return }
    defer { cairo_pattern_destroy(pattern) }
    var m = cairo_matrix_t()
    cairo_matrix_init_scale(&m, Double(image.width) / rect.width, Double(image.height) / rect.height)
    cairo_matrix_translate(&m, -rect.minX, -rect.minY)
    cairo_pattern_set_matrix(pattern, &m)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_set_source(cr, pattern)
    cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
    cairo_fill(cr)
  }

  // MARK: - Text

  func drawText(_ t: TextContent, of layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    guard !t.string.isEmpty, t.textColor.alpha > 0 else { return }
    try Pango.require(for: layer.id)
    guard FontCatalog.isAvailable(t.fontFamily) else {
      throw .missingFontFamily(
        family: t.fontFamily, layerID: layer.id, fallback: FontCatalog.fallback(for: t.fontFamily))
    }
    if let transition = t.transition, transition.isActive(showing: t.string) {
      return try drawTextTransition(t, transition, of: layer, in: cr)
    }
    let layout = try textLayout(t, size: layer.bounds.size)
    layout?.draw(in: cr, at: layer.bounds.origin, color: t.textColor)
  }

  /// The shaped text for a layer of `size` (colour excluded), from the cache when there is one.
  func textLayout(_ t: TextContent, size: Size) throws(RasterError) -> TextLayout? {
    try TextLayout.refuseNUL(in: t.string)
    let make = { () -> TextLayout? in self.text.layout(t, size: size) }
    if let cache { return try cache.layout(TextKey(t, size: size), make) }
    return make()
  }

  // MARK: - Gradient

  /// Whether the gradient layer covers whole device pixels opaquely and the clip does not cut
  /// into its device rectangle `area` (x0, y0, x1, y1).
  static func fillsWholePixels(
    _ g: GradientContent, of layer: Layer, matrix m: cairo_matrix_t, area: (Int, Int, Int, Int), in cr: OpaquePointer
  ) -> Bool {
    guard coversWholePixels(g, of: layer, matrix: m), let r = CairoDraw.clipRectangle(cr) else { return false }
    return r.x <= Double(area.0) && r.y <= Double(area.1) && r.x + r.width >= Double(area.2)
      && r.y + r.height >= Double(area.3)
  }

  /// Paints an axial gradient that ``fillsWholePixels(_:of:matrix:area:in:)`` accepted straight
  /// into the pixels of `cr`'s target with ``LinearGradientRaster`` (the bytes Cairo would write),
  /// when the user space is the device space of a plain ARGB32 image. False: nothing was painted.
  static func paintLinear(
    _ g: GradientContent, of layer: Layer, matrix m: cairo_matrix_t, area: (Int, Int, Int, Int), in cr: OpaquePointer
  ) -> Bool {
    guard LinearGradientRaster.matchesLoadedLibraries, g.kind == .axial, m.xx == 1, m.yy == 1, m.xy == 0, m.yx == 0,
      m.x0 == 0, m.y0 == 0,
      cairo_get_operator(cr) == CAIRO_OPERATOR_OVER || cairo_get_operator(cr) == CAIRO_OPERATOR_SOURCE,
      let target = cairo_get_group_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
      cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32
    else { return false }
    var ox = 0.0
    var oy = 0.0
    cairo_surface_get_device_offset(target, &ox, &oy)
    var sx = 0.0
    var sy = 0.0
    cairo_surface_get_device_scale(target, &sx, &sy)
    let (x0, y0, x1, y1) = area
    guard ox == 0, oy == 0, sx == 1, sy == 1, x1 <= cairo_image_surface_get_width(target),
      y1 <= cairo_image_surface_get_height(target)
    else { return false }
    let b = layer.bounds
    func point(_ u: Point) -> Point { Point(x: b.minX + u.x * b.width, y: b.minY + u.y * b.height) }
    guard let raster = LinearGradientRaster(start: point(g.startPoint), end: point(g.endPoint), stops: g.stops) else {
      return false
    }
    cairo_surface_flush(target)
    guard let data = cairo_image_surface_get_data(target) else { return false }
    let stride = Int(cairo_image_surface_get_stride(target))
    raster.paint(into: data + y0 * stride, stride: stride, x0: x0, y0: y0, x1: x1, y1: y1)
    cairo_surface_mark_dirty_rectangle(target, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
    return true
  }

  static func fillGradient(_ g: GradientContent, of layer: Layer, in cr: OpaquePointer) {
    let b = layer.bounds
    func point(_ u: Point) -> Point { Point(x: b.minX + u.x * b.width, y: b.minY + u.y * b.height) }
    let start = point(g.startPoint)
    let end = point(g.endPoint)
    let stops = g.stops
    CairoDraw.roundedBounds(layer, to: cr)
    if stops.count == 1 {
      CairoDraw.setSource(cr, stops[0].color)
      cairo_fill(cr)
      return
    }
    // A radial gradient with a radius of 0 is an empty ellipse: every point lies past its end.
    if g.kind == .radial, radialPatternMatrix(start: start, end: end) == nil {
      CairoDraw.setSource(cr, colorBeyondEnd(stops))
      cairo_fill(cr)
      return
    }
    switch g.kind {
    case .axial, .radial:
      let pattern: OpaquePointer?
      if g.kind == .axial {
        pattern = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)
      } else {
        pattern = cairo_pattern_create_radial(0, 0, 0, 0, 0, 1)
      }
      guard let pattern else { return }
      defer { cairo_pattern_destroy(pattern) }
      if g.kind == .radial {
        guard var m = radialPatternMatrix(start: start, end: end) else { return }  // filled above
        cairo_pattern_set_matrix(pattern, &m)
      }
      for stop in stops {
        let c = stop.color
        cairo_pattern_add_color_stop_rgba(
          pattern, stop.location, CairoDraw.clamp(c.red), CairoDraw.clamp(c.green), CairoDraw.clamp(c.blue),
          CairoDraw.clamp(c.alpha))
      }
      cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
      cairo_set_source(cr, pattern)
      cairo_fill(cr)
    case .conic:
      fillConic(stops, centre: start, towards: end, bounds: b, in: cr)
    }
  }

  /// A conic sweep as a mesh of thin pie slices (Cairo 1.16 has no conic gradient), filling the
  /// current path.
  ///
  /// Cairo's mesh rasteriser paints the device pixels along an edge two slices share with both,
  /// the later slice last, so where the sweep ends at its start the last slice would take a whole
  /// row or column of device pixels on the start side (the end colour there instead of the start
  /// colour). When the two colours differ the sweep is therefore drawn into a group, and the
  /// quarter turn after the seam is drawn again over it, clipped exactly to that wedge, from
  /// slices that begin with the last one: each pixel on the seam gets the two colours in
  /// proportion to its area on either side, as Cairo's clip antialiases, at any scale.
  private static func fillConic(
    _ stops: [(location: Double, color: Color)], centre c: Point, towards e: Point, bounds b: Rect,
    in cr: OpaquePointer
  ) {
    let a0 = (e.x == c.x && e.y == c.y) ? -Double.pi / 2 : atan2(e.y - c.y, e.x - c.x)
    let corners = [
      Point(x: b.minX, y: b.minY), Point(x: b.maxX, y: b.minY), Point(x: b.minX, y: b.maxY),
      Point(x: b.maxX, y: b.maxY),
    ]
    let radius = (corners.map { ($0 - c).magnitudeSquared.squareRoot() }.max() ?? 1) + 2
    // The stops in order of location, those at one location in their given order (as Cairo sorts
    // an axial or radial gradient's stops).
    let stops = stops.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
      .map(\.element)
    // Slice boundaries: every stop plus at most 5° apart, so colours follow the angle closely.
    var cuts = Set(stops.map(\.location).filter { $0 > 0 && $0 < 1 })
    let steps = 72
    for k in 0...steps { cuts.insert(Double(k) / Double(steps)) }
    let sorted = cuts.sorted()
    // Each slice starts with the colour just after its first cut and ends with the colour just
    // before its last: at a hard stop (two stops at one location) the colour jumps on the cut
    // instead of blending across the slices either side of it.
    let colors = (
      after: conicColors(stops, at: sorted, side: .after), before: conicColors(stops, at: sorted, side: .before)
    )
    let slices = Array(1..<sorted.count)
    guard let mesh = conicMesh(slices, sorted, colors, centre: c, start: a0, radius: radius) else { return }
    defer { cairo_pattern_destroy(mesh) }
    guard colors.after.first != colors.before.last else {
      cairo_set_source(cr, mesh)
      cairo_fill(cr)
      return
    }
    // The quarter turn after the seam, and the slices that cover it and a little more (the clip
    // must not reach past them), the last slice first.
    let quarter = 0.25
    let seamSlices = [sorted.count - 1] + slices.filter { sorted[$0 - 1] < quarter + 0.05 && $0 < sorted.count - 1 }
    guard let seam = conicMesh(seamSlices, sorted, colors, centre: c, start: a0, radius: radius) else { return }
    defer { cairo_pattern_destroy(seam) }
    cairo_save(cr)
    cairo_clip(cr)
    cairo_push_group(cr)
    cairo_set_source(cr, mesh)
    cairo_paint(cr)
    // The wedge from the seam a quarter turn on, its outer corner far enough out to hold the arc.
    let far = radius * 2
    cairo_move_to(cr, c.x, c.y)
    for (t, r) in [(a0, far), (a0 + quarter * .pi, far / cos(quarter * .pi)), (a0 + quarter * 2 * .pi, far)] {
      cairo_line_to(cr, c.x + r * cos(t), c.y + r * sin(t))
    }
    cairo_close_path(cr)
    cairo_clip(cr)
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_set_source(cr, seam)
    cairo_paint(cr)
    // The group's end takes its clip and operator back with it: the group fills the path.
    cairo_pop_group_to_source(cr)
    cairo_paint(cr)
    cairo_restore(cr)
  }

  /// The pie slices `slices` (each `i` from `cuts[i - 1]` to `cuts[i]`, fractions of a turn from
  /// the angle `a0`, coloured `colors.after[i - 1]` to `colors.before[i]`) as a mesh, in that order.
  private static func conicMesh(
    _ slices: [Int], _ cuts: [Double], _ colors: (after: [Color], before: [Color]), centre c: Point,
    start a0: Double, radius: Double
  ) -> OpaquePointer? {
    guard let mesh = cairo_pattern_create_mesh() else { return nil }
    func set(_ corner: UInt32, _ col: Color) {
      cairo_mesh_pattern_set_corner_color_rgba(
        mesh, corner, CairoDraw.clamp(col.red), CairoDraw.clamp(col.green), CairoDraw.clamp(col.blue),
        CairoDraw.clamp(col.alpha))
    }
    for i in slices {
      let t0 = a0 + cuts[i - 1] * 2 * .pi
      let t1 = a0 + cuts[i] * 2 * .pi
      let k = 4.0 / 3 * tan((t1 - t0) / 4)
      let p0 = Point(x: c.x + radius * cos(t0), y: c.y + radius * sin(t0))
      let p1 = Point(x: c.x + radius * cos(t1), y: c.y + radius * sin(t1))
      cairo_mesh_pattern_begin_patch(mesh)
      cairo_mesh_pattern_move_to(mesh, c.x, c.y)
      cairo_mesh_pattern_line_to(mesh, p0.x, p0.y)
      cairo_mesh_pattern_curve_to(
        mesh, p0.x - k * radius * sin(t0), p0.y + k * radius * cos(t0),
        p1.x + k * radius * sin(t1), p1.y - k * radius * cos(t1), p1.x, p1.y)
      cairo_mesh_pattern_line_to(mesh, c.x, c.y)
      set(0, colors.after[i - 1])
      set(1, colors.after[i - 1])
      set(2, colors.before[i])
      set(3, colors.before[i])
      cairo_mesh_pattern_end_patch(mesh)
    }
    return mesh
  }

  /// Which limit ``conicColors(_:at:side:)`` takes where several stops share a location.
  enum StopSide {
    /// The colour approached from smaller fractions: the first stop at the location.
    case before
    /// The colour approached from larger fractions: the last stop at the location.
    case after
  }

  /// The colour of the stops (ascending by location) at each of `fractions` (ascending), seen
  /// from `side`: interpolated between the two stops around the fraction, the first stop at or
  /// after it (`before`) or the first one past it (`after`) and the stop before that one. The stop
  /// found never moves back as the fraction grows, so one pass finds them all (a search per
  /// fraction was quadratic in the stops).
  static func conicColors(
    _ stops: [(location: Double, color: Color)], at fractions: [Double], side: StopSide = .before
  ) -> [Color] {
    guard let first = stops.first, let last = stops.last else { return fractions.map { _ in .clear } }
    var i = 1
    return fractions.map { f in
      if side == .before, f <= first.location { return first.color }
      if side == .after, f < first.location { return first.color }
      if side == .before ? f > last.location : f >= last.location { return last.color }
      while i < stops.count, side == .before ? !(f <= stops[i].location) : !(f < stops[i].location) { i += 1 }
      guard i < stops.count else { return last.color }
      // On a stop, that stop's own colour (an interpolation there can miss it by a rounding, and
      // the sweep's two ends must compare equal when their stops are the same colour).
      if side == .before, f == stops[i].location { return stops[i].color }
      if side == .after, f == stops[i - 1].location { return stops[i - 1].color }
      let span = stops[i].location - stops[i - 1].location
      let t = span > 0 ? (f - stops[i - 1].location) / span : 1
      return stops[i - 1].color.interpolated(to: stops[i].color, amount: t)
    }
  }
}
