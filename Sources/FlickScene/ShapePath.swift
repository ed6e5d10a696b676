import Foundation
import FlickMotion

/// A vector outline made of sub-paths of straight lines and cubic Bézier curves, in the
/// layer's coordinates (points, y down), like `CGPath`.
///
/// Build one from SVG path data (``init(svgPathData:)``), with the helpers (``rect(_:)``,
/// ``ellipse(in:)``, ``roundedRect(_:cornerRadius:)``, ``arc(center:radius:startAngle:endAngle:clockwise:)``)
/// or element by element.
///
///     let ring = ShapePath.arc(center: Point(x: 50, y: 50), radius: 40,
///                              startAngle: -.pi / 2, endAngle: 1.5 * .pi, clockwise: true)
public struct ShapePath: Sendable, Hashable {
  /// One drawing command.
  public enum Element: Sendable, Hashable {
    /// Starts a new sub-path at a point.
    case move(to: Point)
    /// A straight line from the current point.
    case line(to: Point)
    /// A cubic Bézier from the current point.
    case curve(to: Point, control1: Point, control2: Point)
    /// Closes the sub-path with a straight line back to its start.
    case closeSubpath
  }

  /// The commands, in drawing order.
  public var elements: [Element]

  public init(elements: [Element] = []) {
    self.elements = elements
  }

  /// Whether the path draws nothing.
  public var isEmpty: Bool { !elements.contains { if case .move = $0 { false } else { true } } }

  // MARK: - Building

  /// Starts a new sub-path at `p`.
  public mutating func move(to p: Point) { elements.append(.move(to: p)) }
  /// Adds a straight line to `p`.
  public mutating func addLine(to p: Point) { elements.append(.line(to: p)) }
  /// Adds a cubic Bézier to `p`.
  public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
    elements.append(.curve(to: p, control1: control1, control2: control2))
  }
  /// Adds a quadratic Bézier to `p` (stored as the equivalent cubic).
  public mutating func addQuadCurve(to p: Point, control c: Point) {
    let p0 = currentPoint ?? p
    addCurve(
      to: p, control1: p0 + (c - p0).scaled(by: 2.0 / 3), control2: p + (c - p).scaled(by: 2.0 / 3))
  }
  /// Closes the current sub-path.
  public mutating func closeSubpath() { elements.append(.closeSubpath) }

  /// The end point of the last element (the start of the sub-path after a close), if any.
  public var currentPoint: Point? {
    var start: Point?
    var current: Point?
    for e in elements {
      switch e {
      case .move(let p):
        start = p
        current = p
      case .line(let p), .curve(let p, _, _): current = p
      case .closeSubpath: current = start
      }
    }
    return current
  }

  /// Appends a circular arc (in segments of at most 90°) from the current point's sub-path;
  /// starts a new sub-path at the arc's start when there is no current point, else draws a line
  /// to it. Angles in radians, 0 along +x; `clockwise` (on screen, y down) increases the angle.
  /// Non-finite inputs add nothing; a sweep of a full turn or more draws the whole circle.
  public mutating func addArc(
    center c: Point, radius r: Double, startAngle a0: Double, endAngle a1: Double, clockwise: Bool
  ) {
    guard a0.isFinite, a1.isFinite, r.isFinite, c.x.isFinite, c.y.isFinite else { return }
    var sweep = a1 - a0
    let full = 2 * Double.pi
    // Angles far apart enough for the difference to overflow still mean "all the way round".
    if !sweep.isFinite { sweep = clockwise ? full : -full }
    if clockwise {
      if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: full) + full }
      if a1 - a0 >= full { sweep = full }
    } else {
      if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: full) - full }
      if a0 - a1 >= full { sweep = -full }
    }
    let start = Point(x: c.x + r * cos(a0), y: c.y + r * sin(a0))
    if currentPoint == nil { move(to: start) } else { addLine(to: start) }
    // |sweep| ≤ 2π here, so at most 4 segments.
    let count = min(4, max(1, Int((min(abs(sweep), full) / (Double.pi / 2) - 1e-9).rounded(.up))))
    let step = sweep / Double(count)
    let k = 4.0 / 3 * tan(step / 4)
    var angle = a0
    for _ in 0..<count {
      let next = angle + step
      let p0 = Point(x: c.x + r * cos(angle), y: c.y + r * sin(angle))
      let p3 = Point(x: c.x + r * cos(next), y: c.y + r * sin(next))
      let c1 = Point(x: p0.x - k * r * sin(angle), y: p0.y + k * r * cos(angle))
      let c2 = Point(x: p3.x + k * r * sin(next), y: p3.y - k * r * cos(next))
      addCurve(to: p3, control1: c1, control2: c2)
      angle = next
    }
  }

  // MARK: - Helpers

  /// A rectangle, clockwise from its top-left corner.
  public static func rect(_ r: Rect) -> ShapePath {
    ShapePath(elements: [
      .move(to: Point(x: r.minX, y: r.minY)), .line(to: Point(x: r.maxX, y: r.minY)),
      .line(to: Point(x: r.maxX, y: r.maxY)), .line(to: Point(x: r.minX, y: r.maxY)), .closeSubpath,
    ])
  }

  /// An ellipse inscribed in `r`, clockwise from its rightmost point.
  public static func ellipse(in r: Rect) -> ShapePath {
    let k = 0.5522847498307936
    let cx = r.minX + r.width / 2
    let cy = r.minY + r.height / 2
    let rx = r.width / 2
    let ry = r.height / 2
    var p = ShapePath()
    p.move(to: Point(x: r.maxX, y: cy))
    p.addCurve(
      to: Point(x: cx, y: r.maxY), control1: Point(x: r.maxX, y: cy + k * ry),
      control2: Point(x: cx + k * rx, y: r.maxY))
    p.addCurve(
      to: Point(x: r.minX, y: cy), control1: Point(x: cx - k * rx, y: r.maxY),
      control2: Point(x: r.minX, y: cy + k * ry))
    p.addCurve(
      to: Point(x: cx, y: r.minY), control1: Point(x: r.minX, y: cy - k * ry),
      control2: Point(x: cx - k * rx, y: r.minY))
    p.addCurve(
      to: Point(x: r.maxX, y: cy), control1: Point(x: cx + k * rx, y: r.minY),
      control2: Point(x: r.maxX, y: cy - k * ry))
    p.closeSubpath()
    return p
  }

  /// A rectangle whose `corners` are rounded by `cornerRadius` points (clamped to half the
  /// shorter side), clockwise from the top edge.
  public static func roundedRect(_ r: Rect, cornerRadius: Double, corners: CornerMask = .all) -> ShapePath {
    let radius = min(max(0, cornerRadius), r.width / 2, r.height / 2)
    guard radius > 0, !corners.isEmpty else { return rect(r) }
    func rad(_ c: CornerMask) -> Double { corners.contains(c) ? radius : 0 }
    let tl = rad(.layerMinXMinYCorner)
    let tr = rad(.layerMaxXMinYCorner)
    let br = rad(.layerMaxXMaxYCorner)
    let bl = rad(.layerMinXMaxYCorner)
    var p = ShapePath()
    p.move(to: Point(x: r.minX + tl, y: r.minY))
    p.addLine(to: Point(x: r.maxX - tr, y: r.minY))
    if tr > 0 {
      p.addArc(
        center: Point(x: r.maxX - tr, y: r.minY + tr), radius: tr, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
    }
    p.addLine(to: Point(x: r.maxX, y: r.maxY - br))
    if br > 0 {
      p.addArc(
        center: Point(x: r.maxX - br, y: r.maxY - br), radius: br, startAngle: 0, endAngle: .pi / 2, clockwise: true)
    }
    p.addLine(to: Point(x: r.minX + bl, y: r.maxY))
    if bl > 0 {
      p.addArc(
        center: Point(x: r.minX + bl, y: r.maxY - bl), radius: bl, startAngle: .pi / 2, endAngle: .pi, clockwise: true)
    }
    p.addLine(to: Point(x: r.minX, y: r.minY + tl))
    if tl > 0 {
      p.addArc(
        center: Point(x: r.minX + tl, y: r.minY + tl), radius: tl, startAngle: .pi, endAngle: 1.5 * .pi, clockwise: true
      )
    }
    p.closeSubpath()
    return p
  }

  /// An open circular arc (a progress ring when stroked); see ``addArc(center:radius:startAngle:endAngle:clockwise:)``.
  public static func arc(
    center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool = true
  ) -> ShapePath {
    var p = ShapePath()
    p.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    return p
  }

  /// The smallest rectangle containing every point and control point, or `.zero` when empty.
  public var controlPointBounds: Rect {
    var pts: [Point] = []
    for e in elements {
      switch e {
      case .move(let p), .line(let p): pts.append(p)
      case .curve(let p, let c1, let c2): pts += [p, c1, c2]
      case .closeSubpath: break
      }
    }
    guard let first = pts.first else { return .zero }
    var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
    for p in pts {
      x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y)
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
