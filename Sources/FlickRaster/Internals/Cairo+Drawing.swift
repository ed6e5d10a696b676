internal import CCairo
import FlickMotion
import FlickScene

/// Small wrappers that turn Flick values into Cairo calls.
enum CairoDraw {
  static func clamp(_ v: Double) -> Double { min(1, max(0, v)) }

  static func setSource(_ cr: OpaquePointer, _ c: Color, alpha: Double = 1) {
    cairo_set_source_rgba(cr, clamp(c.red), clamp(c.green), clamp(c.blue), clamp(c.alpha) * clamp(alpha))
  }

  /// Appends `path` to the current Cairo path.
  static func append(_ path: ShapePath, to cr: OpaquePointer) {
    for e in path.elements {
      switch e {
      case .move(let p): cairo_move_to(cr, p.x, p.y)
      case .line(let p): cairo_line_to(cr, p.x, p.y)
      case .curve(let p, let c1, let c2): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
      case .closeSubpath: cairo_close_path(cr)
      }
    }
  }

  /// Appends the layer's bounds, rounded by `cornerRadius` on `maskedCorners`.
  static func roundedBounds(_ layer: Layer, to cr: OpaquePointer, inset: Double = 0) {
    let b = layer.bounds
    let r = Rect(
      x: b.minX + inset, y: b.minY + inset, width: max(0, b.width - 2 * inset), height: max(0, b.height - 2 * inset))
    let radius = max(0, min(layer.cornerRadius, b.width / 2, b.height / 2) - inset)
    if radius <= 0 || layer.maskedCorners.isEmpty {
      cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
    } else {
      append(.roundedRect(r, cornerRadius: radius, corners: layer.maskedCorners), to: cr)
    }
  }

  /// `v` (device pixels) as an integer, clamped to ±2²⁴, far beyond anything Cairo draws; NaN
  /// is 0. Extreme template values (a radius of 1e308) must not trap the conversion.
  static func pixel(_ v: Double) -> Int {
    v.isNaN ? 0 : Int(max(-16_777_216, min(16_777_216, v)))
  }

  /// The bounding box of `rect`'s four corners under `m` (device space).
  static func deviceBox(_ rect: Rect, _ m: cairo_matrix_t) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
    var m = m
    var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
    for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
      var px = x
      var py = y
      cairo_matrix_transform_point(&m, &px, &py)
      box = (min(box.minX, px), min(box.minY, py), max(box.maxX, px), max(box.maxY, py))
    }
    return box
  }

  /// `cr`'s clip as one device-space rectangle (x, y, width, height), or nil when it is not one
  /// rectangle (Cairo lists a clip it cannot express that way as an error).
  static func clipRectangle(_ cr: OpaquePointer) -> (x: Double, y: Double, width: Double, height: Double)? {
    cairo_save(cr)
    cairo_identity_matrix(cr)
    let list = cairo_copy_clip_rectangle_list(cr)
    cairo_restore(cr)
    guard let list else { return nil }
    defer { cairo_rectangle_list_destroy(list) }
    guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1,
      let r = list.pointee.rectangles?.pointee
    else { return nil }
    return (r.x, r.y, r.width, r.height)
  }

  static func matrix(_ cr: OpaquePointer) -> cairo_matrix_t {
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    return m
  }

  /// Whether Cairo accepts `m` composed with `cr`'s current matrix: both have a finite, non-zero
  /// determinant (Cairo refuses anything else with "invalid matrix" and fails the whole frame).
  /// Core Animation draws nothing for a layer whose transform cannot be inverted; the painter
  /// skips such a layer too (a scale through 0, or one that overflows with its superlayers').
  static func accepts(_ cr: OpaquePointer, affine m: ProjectiveTransform) -> Bool {
    var own = cairo_matrix_t()
    cairo_matrix_init(&own, m.m11, m.m21, m.m12, m.m22, m.m13, m.m23)
    var ctm = matrix(cr)
    var composed = cairo_matrix_t()
    cairo_matrix_multiply(&composed, &own, &ctm)
    func invertible(_ m: cairo_matrix_t) -> Bool {
      let det = m.xx * m.yy - m.yx * m.xy
      return det.isFinite && det != 0 && m.x0.isFinite && m.y0.isFinite
    }
    return invertible(own) && invertible(composed)
  }

  /// Composites `image` (OVER, through `cr`'s clip) with its top-left corner on device pixel
  /// (`x`, `y`), whatever `cr`'s matrix.
  static func paint(_ image: CairoImage, atDevice x: Int, _ y: Int, in cr: OpaquePointer) {
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_set_source_surface(cr, image.surface, Double(x), Double(y))
    cairo_rectangle(cr, Double(x), Double(y), Double(image.width), Double(image.height))
    cairo_fill(cr)
    cairo_restore(cr)
  }

  static func transform(_ cr: OpaquePointer, affine m: ProjectiveTransform) {
    var mm = cairo_matrix_t()
    cairo_matrix_init(&mm, m.m11, m.m21, m.m12, m.m22, m.m13, m.m23)
    cairo_transform(cr, &mm)
  }
}
