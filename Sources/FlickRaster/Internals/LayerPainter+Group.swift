internal import CCairo
import FlickScene

/// An offscreen group being drawn (a layer with an opacity below 1, or a mask): its context,
/// and the arena memory behind it when it is not Cairo's own group.
struct LayerGroup {
  /// Where the group's content is drawn.
  let context: OpaquePointer
  fileprivate let image: CairoImage?
}

/// A finished group as a Cairo source pattern. The pattern is valid while this object lives:
/// it also keeps the group's pixels.
final class GroupPattern {
  let pattern: OpaquePointer
  private let image: CairoImage?

  fileprivate init(pattern: OpaquePointer, image: CairoImage?) {
    self.pattern = pattern
    self.image = image
  }

  /// The group's pixels when they are arena memory (nil for Cairo's own groups).
  var pixels: CairoImage? { image }

  // The pattern goes first; the image (and its memory) is released after this body runs.
  deinit { cairo_pattern_destroy(pattern) }
}

extension LayerPainter {
  /// Starts a group, like `cairo_push_group`: a transparent surface covering the clip extents,
  /// clipped and transformed like `cr`. Its memory comes from the worker's arena, so the groups
  /// of an animated layer reuse one block frame after frame instead of allocating a surface
  /// (often the size of the frame) each time. The pixels are those of `cairo_push_group`: the
  /// same device rectangle, the same clip, the same matrix.
  ///
  /// When the clip is not a set of whole-pixel rectangles (inside a rounded `masksToBounds`
  /// or a rotated one), Cairo's own group is used: only Cairo can carry that clip over.
  ///
  /// `ink` (frame pixels, whole numbers) limits the group to where its content can draw: the
  /// rest of Cairo's group would stay transparent and change nothing when composited, so the
  /// pixels are the same and the group costs memory and time in proportion to the layer, not
  /// to the frame. Nil when `ink` lies wholly outside the clip (off-screen, or outside a
  /// `masksToBounds` ancestor): Cairo's group would composite nothing there.
  func pushGroup(_ cr: OpaquePointer, ink: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil) -> LayerGroup? {
    var e = (0.0, 0.0, 0.0, 0.0)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_clip_extents(cr, &e.0, &e.1, &e.2, &e.3)
    if let ink {
      e = (max(e.0, ink.x0), max(e.1, ink.y0), min(e.2, ink.x1), min(e.3, ink.y1))
      if !usesCairoGroups, e.2 <= e.0 || e.3 <= e.1 {
        cairo_restore(cr)
        return nil
      }
    }
    let list = cairo_copy_clip_rectangle_list(cr)
    cairo_restore(cr)
    defer { if let list { cairo_rectangle_list_destroy(list) } }
    func isPixel(_ v: Double) -> Bool { v == v.rounded() && abs(v) < 16_777_216 }
    guard !usesCairoGroups, let list, list.pointee.status == CAIRO_STATUS_SUCCESS, e.2 > e.0, e.3 > e.1,
      isPixel(e.0), isPixel(e.1), isPixel(e.2), isPixel(e.3),
      let image = CairoImage(width: Int(e.2 - e.0), height: Int(e.3 - e.1), format: CAIRO_FORMAT_ARGB32, arena: arena)
    else {
      cairo_push_group(cr)
      return LayerGroup(context: cr, image: nil)
    }
    // Identity user space is frame pixels on every surface of a frame, groups included.
    cairo_surface_set_device_offset(image.surface, -e.0, -e.1)
    guard let gcr = image.makeContext() else {
      cairo_push_group(cr)
      return LayerGroup(context: cr, image: nil)
    }
    let rects = UnsafeBufferPointer(start: list.pointee.rectangles, count: Int(list.pointee.num_rectangles))
    let unclipped =
      rects.count == 1 && rects[0].x <= e.0 && rects[0].y <= e.1 && rects[0].x + rects[0].width >= e.2
      && rects[0].y + rects[0].height >= e.3
    if !unclipped {
      for r in rects { cairo_rectangle(gcr, r.x, r.y, r.width, r.height) }
      cairo_clip(gcr)
    }
    var m = CairoDraw.matrix(cr)
    cairo_set_matrix(gcr, &m)
    // What `cairo_push_group` copies from the current state.
    cairo_set_source(gcr, cairo_get_source(cr))
    cairo_set_operator(gcr, cairo_get_operator(cr))
    cairo_set_tolerance(gcr, cairo_get_tolerance(cr))
    cairo_set_antialias(gcr, cairo_get_antialias(cr))
    cairo_set_fill_rule(gcr, cairo_get_fill_rule(cr))
    return LayerGroup(context: gcr, image: image)
  }

  /// Where `layer` (drawn in `cr`'s user space) can put pixels, in whole frame pixels: its ink
  /// extents (content, sublayers, shadow) under the current matrix, widened by a margin for
  /// what extents leave out (blur tails, antialiasing, glyph overhang). Nil when unknown.
  func inkRect(_ layer: Layer, in cr: OpaquePointer) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
    let m = CairoDraw.matrix(cr)
    guard let e = inkExtents(layer, linear: LinearMap(xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy)) else { return nil }
    let (minX, minY, maxX, maxY) = CairoDraw.deviceBox(e, m)
    guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
    // 16 pixels covers the box blur's reach beyond 3σ at the coarsest reduction (4×), and
    // 4 points of glyph overhang beyond the text's logical box.
    let points = abs(m.xx * m.yy - m.xy * m.yx).squareRoot()
    let margin = 16 + 4 * points
    return (
      (minX - margin).rounded(.down), (minY - margin).rounded(.down), (maxX + margin).rounded(.up),
      (maxY + margin).rounded(.up)
    )
  }

  /// Ends `group` and returns its content as a source for `cr`, like `cairo_pop_group`: in
  /// `cr`'s user space, placed where it was drawn.
  func popGroup(_ group: LayerGroup, to cr: OpaquePointer) -> GroupPattern? {
    guard let image = group.image else {
      return cairo_pop_group(cr).map { GroupPattern(pattern: $0, image: nil) }
    }
    cairo_destroy(group.context)
    cairo_surface_flush(image.surface)
    guard let pattern = cairo_pattern_create_for_surface(image.surface) else { return nil }
    var m = CairoDraw.matrix(cr)
    cairo_pattern_set_matrix(pattern, &m)
    return GroupPattern(pattern: pattern, image: image)
  }
}

/// Where an arena group is placed on the frame: its device rectangle and the clip rectangles it
/// carries (empty when the clip does not cut into it).
struct GroupPlacement: Hashable {
  var x0: Double
  var y0: Double
  var x1: Double
  var y1: Double
  var clip: [Double]
}

extension LayerPainter {
  /// The placement ``pushGroup(_:ink:)`` gives a group for `ink` when it uses arena memory, or
  /// nil (off-screen, or Cairo's own group). The same computation as `pushGroup`'s.
  func arenaPlacement(_ cr: OpaquePointer, ink: (x0: Double, y0: Double, x1: Double, y1: Double)?) -> GroupPlacement? {
    guard !usesCairoGroups, let ink else { return nil }
    var e = (0.0, 0.0, 0.0, 0.0)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_clip_extents(cr, &e.0, &e.1, &e.2, &e.3)
    e = (max(e.0, ink.x0), max(e.1, ink.y0), min(e.2, ink.x1), min(e.3, ink.y1))
    let list = cairo_copy_clip_rectangle_list(cr)
    cairo_restore(cr)
    defer { if let list { cairo_rectangle_list_destroy(list) } }
    func isPixel(_ v: Double) -> Bool { v == v.rounded() && abs(v) < 16_777_216 }
    guard let list, list.pointee.status == CAIRO_STATUS_SUCCESS, e.2 > e.0, e.3 > e.1,
      isPixel(e.0), isPixel(e.1), isPixel(e.2), isPixel(e.3)
    else { return nil }
    let rects = UnsafeBufferPointer(start: list.pointee.rectangles, count: Int(list.pointee.num_rectangles))
    let unclipped =
      rects.count == 1 && rects[0].x <= e.0 && rects[0].y <= e.1 && rects[0].x + rects[0].width >= e.2
      && rects[0].y + rects[0].height >= e.3
    return GroupPlacement(
      x0: e.0, y0: e.1, x1: e.2, y1: e.3, clip: unclipped ? [] : rects.flatMap { [$0.x, $0.y, $0.width, $0.height] })
  }

  /// A source for `cr` over kept group pixels, placed as ``popGroup(_:to:)`` places a group.
  func pattern(_ image: CairoImage, to cr: OpaquePointer) -> GroupPattern? {
    guard let pattern = cairo_pattern_create_for_surface(image.surface) else { return nil }
    var m = CairoDraw.matrix(cr)
    cairo_pattern_set_matrix(pattern, &m)
    return GroupPattern(pattern: pattern, image: image)
  }
}

extension Layer {
  /// Whether the layer, its mask or any layer below it has a backdrop (which reads the pixels
  /// behind it, so what it draws is not a function of the subtree alone).
  var containsBackdrop: Bool {
    backdrop != nil || (mask?.containsBackdrop ?? false) || sublayers.contains { $0.containsBackdrop }
  }
}
