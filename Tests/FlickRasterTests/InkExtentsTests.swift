import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// ``LayerPainter/inkExtents(_:)`` holds every pixel a layer draws, whatever its stroke style or
/// its glyphs' ink: damage regions, groups and shadows cast by the drawn alpha trust it.
@Suite struct InkExtentsTests {
  static let c = Raster.hex

  /// A shape layer the size of a 600 × 500 canvas stroking `path` in white.
  static func stroke(
    _ path: ShapePath, width: Double, cap: ShapeContent.LineCap, join: ShapeContent.LineJoin,
    miterLimit: Double = 10, dashes: [Double] = []
  ) -> Layer {
    Layer(
      id: "stroke", bounds: Rect(x: 0, y: 0, width: 600, height: 500), position: Point(x: 300, y: 250),
      content: .shape(
        ShapeContent(
          path: path, fillColor: .clear, strokeColor: .white, lineWidth: width, lineCap: cap, lineJoin: join,
          miterLimit: miterLimit, lineDashPattern: dashes)))
  }

  static func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> ShapePath {
    var p = ShapePath()
    p.move(to: Point(x: x0, y: y0))
    p.addLine(to: Point(x: x1, y: y1))
    return p
  }

  /// Two segments meeting at `vertex` at the sharpest angle a miter join of `limit` still draws.
  static func miterCorner(_ vertex: Point, limit: Double, arm: Double) -> ShapePath {
    let half = asin(1 / (limit - 0.05))
    var p = ShapePath()
    p.move(to: Point(x: vertex.x - arm * cos(half), y: vertex.y - arm * sin(half)))
    p.addLine(to: vertex)
    p.addLine(to: Point(x: vertex.x - arm * cos(half), y: vertex.y + arm * sin(half)))
    return p
  }

  static func text(_ string: String, size: Double, style: TextContent.FontStyle, family: String = "Inter") -> Layer {
    Layer(
      id: "text", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 120, y: 60),
      anchorPoint: .zero,
      content: .text(
        TextContent(
          string: string, fontFamily: family, fontSize: size, fontStyle: style, textColor: .white, isWrapped: false)
      ))
  }

  /// The layers whose ink leaves what their logical box or stroke width suggests.
  static let overreaching: [(String, Layer)] = [
    ("square caps on a diagonal, round join", stroke(line(200, 180, 280, 260), width: 160, cap: .square, join: .round)),
    (
      "square caps, miter limit 1",
      stroke(line(200, 180, 280, 260), width: 160, cap: .square, join: .miter, miterLimit: 1)
    ),
    (
      "square caps, bevel join, dashed",
      stroke(line(150, 150, 350, 350), width: 90, cap: .square, join: .bevel, dashes: [30, 60])
    ),
    (
      "miter join at the miter limit",
      stroke(miterCorner(Point(x: 330, y: 250), limit: 4, arm: 40), width: 60, cap: .butt, join: .miter, miterLimit: 4)
    ),
    ("italic f", text("f", size: 300, style: .italic)),
    ("italic serif fff", text("fff", size: 160, style: .italic, family: "DejaVu Serif")),
    ("stacked marks", text("A\u{30A}\u{301}\u{308} g\u{327}\u{323}\u{324}j", size: 150, style: .normal)),
    ("an SVG drawing outside its viewport", svg),
  ]

  /// An SVG picture with a circle beyond its viewport's right edge (librsvg draws it; the layer
  /// cuts it at its picture's rectangle).
  static let svg = Layer(
    id: "svg", bounds: Rect(x: 0, y: 0, width: 150, height: 150), position: Point(x: 200, y: 200),
    contents: LayerImage(path: Raster.fixtures.appendingPathComponent("svg/overflow.svg").path))

  /// `layer` moved 23.7 points to the left a frame, at frame `n`.
  static func tree(_ layer: Layer, frame n: Int) -> RenderTree {
    var moved = layer
    moved.position.x -= 23.7 * Double(n)
    return Raster.tree([moved], width: 600, height: 500, background: .black)
  }

  @Test(arguments: [1.0, 2.0])
  func damageRegionsAroundOverreachingInkGiveTheBytesOfWholeFrames(scale: Double) throws {
    for (name, layer) in Self.overreaching {
      let renderer = FrameRenderer(scale: scale)
      for n in 0..<6 {
        let tree = Self.tree(layer, frame: n)
        let got = try renderer.render(tree)
        let whole = try Renderer(scale: scale).render(tree)
        let same = SameBytes.equal(got.pixels, whole.pixels)
        #expect(same, "\(name), frame \(n) at \(scale)")
      }
      expectGreaterOrEqual(renderer.damageStatistics.partialFrames, 1, "\(name) at \(scale)")
    }
  }

  /// A layer drawn as a group (opacity 0.99) keeps every pixel it draws without one, and its
  /// shadow (offset clear of it, no blur) has every pixel its drawing covers fully.
  @Test(arguments: [1.0, 2.0])
  func groupsAndShadowsHoldTheWholeInk(scale: Double) throws {
    for (name, layer) in Self.overreaching {
      let plain = try Renderer(scale: scale).render(Raster.tree([layer], width: 600, height: 500, background: .clear))
      var translucent = layer
      translucent.opacity = 0.99
      let grouped = try Renderer(scale: scale).render(
        Raster.tree([translucent], width: 600, height: 500, background: .clear))
      var shadowed = layer
      (shadowed.shadowOpacity, shadowed.shadowRadius, shadowed.shadowColor) = (1, 0, .white)
      shadowed.shadowOffset = Point(x: 650, y: 0)
      let shadow = try Renderer(scale: scale).render(
        Raster.tree([shadowed], width: 1300, height: 500, background: .clear))
      var lostInGroup = 0
      var lostInShadow = 0
      let shift = Int((650 * scale).rounded())
      for y in 0..<plain.height {
        for x in 0..<plain.width where Self.alpha(plain, x, y) == 255 {
          if Self.alpha(grouped, x, y) < 250 { lostInGroup += 1 }
          if Self.alpha(shadow, x + shift, y) == 0 { lostInShadow += 1 }
        }
      }
      expectEqual(lostInGroup, 0, "\(name) at \(scale): pixels a group loses")
      expectEqual(lostInShadow, 0, "\(name) at \(scale): pixels the shadow loses")
    }
  }

  static func alpha(_ f: Frame, _ x: Int, _ y: Int) -> UInt8 { f.pixels[y * f.bytesPerRow + x * 4 + 3] }

  /// A backdrop fills the layer's rounded bounds: a translucent layer's group holds it all, even
  /// when the layer's content is one small sublayer.
  @Test func aGroupHoldsTheWholeBackdrop() throws {
    let dot = Layer(
      id: "dot", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 20, y: 20),
      backgroundColor: .white)
    var glass = Layer(
      id: "glass", bounds: Rect(x: 0, y: 0, width: 300, height: 200), position: Point(x: 200, y: 150),
      sublayers: [dot], backdrop: LayerBackdrop(blurRadius: 4, saturation: 1, tint: .white))
    let plain = try Renderer().render(Raster.tree([glass], width: 400, height: 300, background: .black))
    glass.opacity = 0.99
    let grouped = try Renderer().render(Raster.tree([glass], width: 400, height: 300, background: .black))
    var lost = 0
    for y in 0..<plain.height {
      for x in 0..<plain.width where plain.rgba(x: x, y: y).r == 255 && grouped.rgba(x: x, y: y).r < 250 { lost += 1 }
    }
    expectEqual(lost, 0, "backdrop pixels a group loses")
  }
}
