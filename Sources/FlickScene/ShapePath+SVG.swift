import FlickMotion
import Foundation

/// Why SVG path data could not be read.
public struct ShapePathError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Character offset in the path data where the problem was found (0-based).
  public var offset: Int
  /// What was wrong.
  public var message: String

  public init(offset: Int, message: String) {
    self.offset = offset
    self.message = message
  }

  public var description: String { "SVG path data, character \(offset + 1): \(escaped: message)" }
}

extension ShapePath {
  /// The most elements (moves, lines, curves, closes) SVG path data may make: 10,000.
  ///
  /// Cairo's cost to fill or stroke a path grows with the square of its crossing edges: 10,000
  /// random segments across a 512² canvas take 3.5 s a frame (measured 2026-12-02, 2-core
  /// machine), 100,000 take minutes. Real outlines are far shorter.
  public static let maximumSVGPathElements = 10_000

  /// Parses SVG path data (`M L H V C S Q T A Z`, absolute and relative, implicit repeats).
  ///
  /// - Throws: ``ShapePathError`` naming the character offset and what was expected, or where
  ///   the path passes ``maximumSVGPathElements``.
  public init(svgPathData d: String) throws(ShapePathError) {
    var parser = SVGPathParser(Array(d.utf8))
    self = try parser.parse()
  }

  /// What SVG path data `d` draws as a renderer that stops at its first error draws it (the SVG
  /// rule): the path up to the error, and whether all of `d` was read.
  static func svgPathDataPrefix(_ d: String) -> (path: ShapePath, complete: Bool) {
    var parser = SVGPathParser(Array(d.utf8))
    do {
      return (try parser.parse(), true)
    } catch {
      return (parser.path, false)
    }
  }
}

/// A hand-written scanner over SVG path data's grammar.
private struct SVGPathParser {
  let bytes: [UInt8]
  var i = 0
  var path = ShapePath()
  var current = Point.zero
  var subpathStart = Point.zero
  var lastCubicControl: Point?
  var lastQuadControl: Point?

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func fail(_ message: String) -> ShapePathError { ShapePathError(offset: i, message: message) }

  mutating func skipSeparators() {
    while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x2C].contains(bytes[i]) { i += 1 }
  }

  mutating func skipWhitespace() {
    while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[i]) { i += 1 }
  }

  /// Whether a number starts at the next non-separator character.
  mutating func numberFollows() -> Bool {
    skipSeparators()
    guard i < bytes.count else { return false }
    let c = bytes[i]
    return (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x2D || c == 0x2B
  }

  mutating func number() throws(ShapePathError) -> Double {
    skipSeparators()
    let start = i
    if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
    var digits = 0
    while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1; digits += 1 }
    if i < bytes.count, bytes[i] == 0x2E {
      i += 1
      while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1; digits += 1 }
    }
    guard digits > 0 else {
      i = start
      throw fail("expected a number")
    }
    if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
      var j = i + 1
      if j < bytes.count, bytes[j] == 0x2B || bytes[j] == 0x2D { j += 1 }
      if j < bytes.count, bytes[j] >= 0x30 && bytes[j] <= 0x39 {
        i = j
        while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
      }
    }
    guard let text = String(bytes: bytes[start..<i], encoding: .utf8), let v = Double(text) else {
      i = start
      throw fail("expected a number")
    }
    guard v.isFinite else {
      i = start
      throw fail("the number \(quoted: text, limit: 40) is out of range (a path's numbers are finite, within ±1.8e308)")
    }
    return v
  }

  mutating func flag() throws(ShapePathError) -> Bool {
    skipSeparators()
    guard i < bytes.count, bytes[i] == 0x30 || bytes[i] == 0x31 else { throw fail("expected an arc flag (0 or 1)") }
    defer { i += 1 }
    return bytes[i] == 0x31
  }

  mutating func point(relative: Bool) throws(ShapePathError) -> Point {
    let x = try number()
    let y = try number()
    return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
  }

  mutating func parse() throws(ShapePathError) -> ShapePath {
    skipSeparators()
    var command: UInt8?
    while i < bytes.count {
      let c = bytes[i]
      let isLetter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
      if isLetter {
        guard Array("MmLlHhVvCcSsQqTtAaZz".utf8).contains(c) else {
          throw fail("unknown command '\(quoted: Character(Unicode.Scalar(c)))' (expected one of M L H V C S Q T A Z)")
        }
        command = c
        i += 1
      } else if command == nil {
        throw fail("path data must start with a command such as 'M'")
      } else if command == 0x5A || command == 0x7A {
        throw fail("expected a command after 'Z'")
      }
      guard let cmd = command else { break }
      if path.elements.isEmpty, cmd != 0x4D, cmd != 0x6D {
        throw fail("path data must start with 'M' or 'm'")
      }
      try execute(cmd)
      guard path.elements.count <= ShapePath.maximumSVGPathElements else {
        throw fail(
          "more than \(ShapePath.maximumSVGPathElements) path elements (moves, lines, curves); a path this long can "
            + "take minutes to draw")
      }
      // After a moveto, further coordinate pairs are implicit linetos.
      if cmd == 0x4D { command = 0x4C }
      if cmd == 0x6D { command = 0x6C }
      skipSeparators()
    }
    return path
  }

  mutating func execute(_ cmd: UInt8) throws(ShapePathError) {
    let relative = cmd >= 0x61
    switch cmd | 0x20 {
    case 0x6D:  // m
      let p = try point(relative: relative)
      path.move(to: p)
      current = p
      subpathStart = p
      lastCubicControl = nil
      lastQuadControl = nil
    case 0x6C:  // l
      let p = try point(relative: relative)
      line(to: p)
    case 0x68:  // h
      let x = try number()
      line(to: Point(x: relative ? current.x + x : x, y: current.y))
    case 0x76:  // v
      let y = try number()
      line(to: Point(x: current.x, y: relative ? current.y + y : y))
    case 0x63:  // c
      let c1 = try point(relative: relative)
      let c2 = try point(relative: relative)
      let p = try point(relative: relative)
      cubic(c1, c2, p)
    case 0x73:  // s
      let c1 = lastCubicControl.map { current + (current - $0) } ?? current
      let c2 = try point(relative: relative)
      let p = try point(relative: relative)
      cubic(c1, c2, p)
    case 0x71:  // q
      let c = try point(relative: relative)
      let p = try point(relative: relative)
      quad(c, p)
    case 0x74:  // t
      let c = lastQuadControl.map { current + (current - $0) } ?? current
      let p = try point(relative: relative)
      quad(c, p)
    case 0x61:  // a
      let rx = abs(try number())
      let ry = abs(try number())
      let rotation = try number() * .pi / 180
      let large = try flag()
      let sweep = try flag()
      let p = try point(relative: relative)
      arc(rx: rx, ry: ry, rotation: rotation, large: large, sweep: sweep, to: p)
    default:  // z
      path.closeSubpath()
      current = subpathStart
      lastCubicControl = nil
      lastQuadControl = nil
    }
  }

  mutating func line(to p: Point) {
    path.addLine(to: p)
    current = p
    lastCubicControl = nil
    lastQuadControl = nil
  }

  mutating func cubic(_ c1: Point, _ c2: Point, _ p: Point) {
    path.addCurve(to: p, control1: c1, control2: c2)
    current = p
    lastCubicControl = c2
    lastQuadControl = nil
  }

  mutating func quad(_ c: Point, _ p: Point) {
    path.addQuadCurve(to: p, control: c)
    current = p
    lastQuadControl = c
    lastCubicControl = nil
  }

  /// SVG's endpoint arc (spec appendix B.2.4) converted to its centre form, then to Béziers.
  mutating func arc(rx: Double, ry: Double, rotation phi: Double, large: Bool, sweep: Bool, to p: Point) {
    let p0 = current
    guard rx > 0, ry > 0, p0 != p else {
      line(to: p)
      return
    }
    let cosPhi = cos(phi)
    let sinPhi = sin(phi)
    let dx = (p0.x - p.x) / 2
    let dy = (p0.y - p.y) / 2
    let x1 = cosPhi * dx + sinPhi * dy
    let y1 = -sinPhi * dx + cosPhi * dy
    var rx = rx
    var ry = ry
    let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if lambda > 1 {
      rx *= lambda.squareRoot()
      ry *= lambda.squareRoot()
    }
    let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    var coef = den == 0 ? 0 : (max(0, num) / den).squareRoot()
    if large == sweep { coef = -coef }
    let cx1 = coef * rx * y1 / ry
    let cy1 = -coef * ry * x1 / rx
    let cx = cosPhi * cx1 - sinPhi * cy1 + (p0.x + p.x) / 2
    let cy = sinPhi * cx1 + cosPhi * cy1 + (p0.y + p.y) / 2
    func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
      atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    }
    let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
    var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
    if !sweep && delta > 0 { delta -= 2 * .pi }
    if sweep && delta < 0 { delta += 2 * .pi }
    // Radii so small (or large) that the centre form overflows: the arc degenerates to its chord,
    // as for zero radii (the spec's "out-of-range parameters" rule).
    guard delta.isFinite, theta1.isFinite, cx.isFinite, cy.isFinite, rx.isFinite, ry.isFinite else {
      line(to: p)
      return
    }
    // |delta| ≤ 2π, so at most 4 segments.
    let count = min(4, max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up))))
    let step = delta / Double(count)
    let k = 4.0 / 3 * tan(step / 4)
    func onEllipse(_ t: Double) -> Point {
      Point(x: cx + rx * cos(t) * cosPhi - ry * sin(t) * sinPhi, y: cy + rx * cos(t) * sinPhi + ry * sin(t) * cosPhi)
    }
    func derivative(_ t: Double) -> Point {
      Point(x: -rx * sin(t) * cosPhi - ry * cos(t) * sinPhi, y: -rx * sin(t) * sinPhi + ry * cos(t) * cosPhi)
    }
    var t = theta1
    for n in 0..<count {
      let t2 = t + step
      let a = onEllipse(t)
      let b = n == count - 1 ? p : onEllipse(t2)
      cubic(a + derivative(t).scaled(by: k), b - derivative(t2).scaled(by: k), b)
      t = t2
    }
    lastCubicControl = nil
  }
}
