internal import CCairo
import FlickMotion
import Foundation

/// A chart of one animation curve — value and velocity over time — drawn with Cairo, for
/// comparing parameter sets by eye (`flick curve --plot`).
///
/// The value is the thick blue line on the left axis; the velocity the thin orange line on the
/// right axis; the start and target values are dashed guides and the settling time a vertical
/// marker.
package struct CurvePlot: Sendable {
  /// One sample of the curve.
  package struct Sample: Sendable, Equatable {
    /// Seconds.
    package var time: Double
    /// Value, in the animated units.
    package var value: Double
    /// Velocity, units per second.
    package var velocity: Double

    package init(time: Double, value: Double, velocity: Double) {
      self.time = time
      self.value = value
      self.velocity = velocity
    }
  }

  /// Title line (typically the spec).
  package var title: String
  /// Second line (from/to, duration, overshoot …).
  package var subtitle: String
  /// Samples in time order (at least 2 for a line).
  package var samples: [Sample]
  /// The start value (a dashed guide).
  package var fromValue: Double
  /// The target value (a dashed guide).
  package var toValue: Double
  /// Settling/end time marker in seconds, if any.
  package var endTime: Double?

  package init(
    title: String, subtitle: String, samples: [Sample], fromValue: Double, toValue: Double,
    endTime: Double? = nil
  ) {
    self.title = title
    self.subtitle = subtitle
    self.samples = samples
    self.fromValue = fromValue
    self.toValue = toValue
    self.endTime = endTime
  }

  /// Draws the chart.
  ///
  /// - Parameters: width, height: Pixels (defaults 1200 × 720).
  /// - Throws: ``RasterError`` when the size is invalid or Cairo fails.
  package func render(width: Int = 1200, height: Int = 720) throws(RasterError) -> Frame {
    let surface = try CairoSurface(width: width, height: height)
    let cr = surface.context
    let W = Double(width)
    let H = Double(height)
    let scale = min(W / 1200, H / 720)

    // Background.
    cairo_set_source_rgb(cr, 1, 1, 1)
    cairo_paint(cr)

    let left = 96 * scale
    let right = W - 96 * scale
    let top = 112 * scale
    let bottom = H - 84 * scale

    // Ranges.
    let t0 = samples.first?.time ?? 0
    var t1 = samples.last?.time ?? 1
    if t1 <= t0 { t1 = t0 + 1 }
    var vmin = min(fromValue, toValue)
    var vmax = max(fromValue, toValue)
    var smax = 0.0
    for s in samples where s.value.isFinite && s.velocity.isFinite {
      vmin = min(vmin, s.value)
      vmax = max(vmax, s.value)
      smax = max(smax, abs(s.velocity))
    }
    if vmax - vmin < 1e-12 {
      vmin -= 1
      vmax += 1
    }
    let valueTicks = Self.niceTicks(vmin, vmax, count: 6)
    vmin = min(vmin, valueTicks.first ?? vmin)
    vmax = max(vmax, valueTicks.last ?? vmax)
    let pad = (vmax - vmin) * 0.04
    vmin -= pad
    vmax += pad
    if smax < 1e-12 { smax = 1 }
    let velocityTicks = Self.niceTicks(-smax, smax, count: 6)
    let sLimit = max(smax, abs(velocityTicks.first ?? smax), abs(velocityTicks.last ?? smax)) * 1.04
    let timeTicks = Self.niceTicks(t0, t1, count: 8)

    func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * (right - left) }
    func y(_ v: Double) -> Double { bottom - (v - vmin) / (vmax - vmin) * (bottom - top) }
    func yv(_ v: Double) -> Double { (top + bottom) / 2 - v / sLimit * (bottom - top) / 2 }

    cairo_select_font_face(cr, "Inter", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)

    // Grid and tick labels.
    cairo_set_line_width(cr, 1)
    cairo_set_font_size(cr, 13 * scale)
    for v in valueTicks where v >= vmin && v <= vmax {
      cairo_set_source_rgb(cr, 0.91, 0.92, 0.94)
      cairo_move_to(cr, left, (y(v)).rounded() + 0.5)
      cairo_line_to(cr, right, (y(v)).rounded() + 0.5)
      cairo_stroke(cr)
      cairo_set_source_rgb(cr, 0.35, 0.38, 0.45)
      Self.text(cr, DecimalText.format(v), x: left - 10 * scale, y: y(v), align: 1)
    }
    for t in timeTicks where t >= t0 && t <= t1 {
      cairo_set_source_rgb(cr, 0.93, 0.94, 0.95)
      cairo_move_to(cr, (x(t)).rounded() + 0.5, top)
      cairo_line_to(cr, (x(t)).rounded() + 0.5, bottom)
      cairo_stroke(cr)
      cairo_set_source_rgb(cr, 0.35, 0.38, 0.45)
      Self.text(cr, DecimalText.format(t) + " s", x: x(t), y: bottom + 20 * scale, align: 0.5)
    }
    cairo_set_source_rgb(cr, 0.85, 0.45, 0.1)
    for v in velocityTicks where abs(v) <= sLimit {
      Self.text(cr, DecimalText.format(v), x: right + 10 * scale, y: yv(v), align: 0)
    }

    // Frame.
    cairo_set_source_rgb(cr, 0.7, 0.72, 0.76)
    cairo_rectangle(cr, left, top, right - left, bottom - top)
    cairo_stroke(cr)

    // Guides: from, to, end time.
    let dash: [Double] = [6 * scale, 5 * scale]
    cairo_set_dash(cr, dash, 2, 0)
    cairo_set_line_width(cr, 1.25 * scale)
    cairo_set_source_rgb(cr, 0.55, 0.58, 0.64)
    for v in [fromValue, toValue] {
      cairo_move_to(cr, left, y(v))
      cairo_line_to(cr, right, y(v))
      cairo_stroke(cr)
    }
    if let endTime, endTime > t0, endTime <= t1 {
      cairo_set_source_rgb(cr, 0.2, 0.65, 0.35)
      cairo_move_to(cr, x(endTime), top)
      cairo_line_to(cr, x(endTime), bottom)
      cairo_stroke(cr)
      cairo_set_font_size(cr, 12 * scale)
      let label = "end " + DecimalText.format(endTime) + " s"
      var extents = cairo_text_extents_t()
      cairo_text_extents(cr, label, &extents)
      cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
      cairo_rectangle(
        cr, x(endTime) - 10 * scale - extents.x_advance, top + 4 * scale, extents.x_advance + 8 * scale, 20 * scale)
      cairo_fill(cr)
      cairo_set_source_rgb(cr, 0.2, 0.65, 0.35)
      Self.text(cr, label, x: x(endTime) - 6 * scale, y: top + 14 * scale, align: 1)
    }
    cairo_set_dash(cr, nil, 0, 0)

    // Curves: velocity under the value.
    cairo_save(cr)
    cairo_rectangle(cr, left, top, right - left, bottom - top)
    cairo_clip(cr)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    cairo_set_source_rgba(cr, 0.93, 0.5, 0.13, 0.9)
    cairo_set_line_width(cr, 1.75 * scale)
    Self.polyline(cr, samples.map { (x($0.time), yv($0.velocity)) })
    cairo_set_source_rgb(cr, 0.12, 0.38, 0.86)
    cairo_set_line_width(cr, 3.25 * scale)
    Self.polyline(cr, samples.map { (x($0.time), y($0.value)) })
    cairo_restore(cr)

    // Titles, axis names, legend.
    cairo_select_font_face(cr, "Inter", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
    cairo_set_font_size(cr, 22 * scale)
    cairo_set_source_rgb(cr, 0.1, 0.11, 0.14)
    Self.text(cr, title, x: left, y: 40 * scale, align: 0)
    cairo_select_font_face(cr, "Inter", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cr, 14 * scale)
    cairo_set_source_rgb(cr, 0.4, 0.43, 0.5)
    Self.text(cr, subtitle, x: left, y: 70 * scale, align: 0)
    cairo_set_font_size(cr, 13 * scale)
    cairo_set_source_rgb(cr, 0.12, 0.38, 0.86)
    Self.text(cr, "value", x: left, y: top - 16 * scale, align: 0)
    cairo_set_source_rgb(cr, 0.85, 0.45, 0.1)
    Self.text(cr, "velocity (units/s)", x: right, y: top - 16 * scale, align: 1)
    cairo_set_source_rgb(cr, 0.35, 0.38, 0.45)
    Self.text(cr, "time", x: (left + right) / 2, y: bottom + 46 * scale, align: 0.5)

    let status = cairo_status(cr)
    guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    return surface.makeFrame()
  }

  private static func polyline(_ cr: OpaquePointer, _ points: [(Double, Double)]) {
    var first = true
    for (px, py) in points where px.isFinite && py.isFinite {
      if first { cairo_move_to(cr, px, py) } else { cairo_line_to(cr, px, py) }
      first = false
    }
    cairo_stroke(cr)
  }

  /// Draws `s` with its vertical centre at `y`; `align` 0 = left edge at x, 0.5 centred, 1 right.
  private static func text(_ cr: OpaquePointer, _ s: String, x: Double, y: Double, align: Double) {
    var extents = cairo_text_extents_t()
    cairo_text_extents(cr, s, &extents)
    cairo_move_to(cr, x - align * extents.x_advance, y - extents.y_bearing - extents.height / 2)
    cairo_show_text(cr, s)
  }

  /// Round-number ticks covering `lo…hi` (about `count` of them).
  static func niceTicks(_ lo: Double, _ hi: Double, count: Int) -> [Double] {
    let span = hi - lo
    guard span > 0, span.isFinite else { return [lo] }
    let raw = span / Double(max(count, 1))
    let magnitude = pow(10, floor(log10(raw)))
    let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
    var ticks: [Double] = []
    var v = (lo / step).rounded(.down) * step
    while v <= hi + step * 0.5 && ticks.count < 100 {
      ticks.append(abs(v) < step * 1e-9 ? 0 : v)
      v += step
    }
    return ticks
  }
}
