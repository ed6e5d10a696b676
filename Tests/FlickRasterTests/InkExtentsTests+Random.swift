import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

extension InkExtentsTests {
  /// A random stroked (and sometimes filled) path in a 300-point square layer: lines and curves,
  /// every cap and join, miter limits from 1 to 12, sometimes dashed.
  static func randomShape(_ g: inout SeededGenerator) -> ShapeContent {
    func point() -> Point {
      Point(x: Double.random(in: 40...260, using: &g), y: Double.random(in: 40...260, using: &g))
    }
    var path = ShapePath()
    path.move(to: point())
    for _ in 0..<Int.random(in: 1...4, using: &g) {
      if Bool.random(using: &g) {
        path.addLine(to: point())
      } else {
        path.addCurve(to: point(), control1: point(), control2: point())
      }
    }
    if Int.random(in: 0..<4, using: &g) == 0 { path.closeSubpath() }
    let caps: [ShapeContent.LineCap] = [.butt, .round, .square]
    let joins: [ShapeContent.LineJoin] = [.miter, .round, .bevel]
    let dashes = Int.random(in: 0..<3, using: &g) == 0 ? [Double.random(in: 0...40, using: &g), 25] : []
    return ShapeContent(
      path: path, fillColor: Bool.random(using: &g) ? .white : .clear, strokeColor: .white,
      lineWidth: Double.random(in: 2...80, using: &g), lineCap: caps.randomElement(using: &g) ?? .butt,
      lineJoin: joins.randomElement(using: &g) ?? .miter, miterLimit: Double.random(in: 1...12, using: &g),
      lineDashPattern: dashes, lineDashPhase: Double.random(in: 0...20, using: &g))
  }

  /// A random text: italic overhang, stacked marks, ink beyond the ascent and descent, in
  /// several families and styles, wrapped, truncated or on one line, in every alignment.
  static func randomText(_ g: inout SeededGenerator) -> TextContent {
    let pieces = [
      "f", "fff", "jig", "A\u{30A}\u{301}\u{308}", "g\u{327}\u{323}\u{324}", "Ǻ", "Wave", "ſ", "ƒ", "ij", " ", "Tỷ",
      "Q\u{335}", "x\u{33F}\u{346}",
    ]
    let string = (0..<Int.random(in: 1...4, using: &g)).map { _ in pieces.randomElement(using: &g) ?? "f" }.joined()
    let styles: [TextContent.FontStyle] = [.normal, .italic, .oblique]
    let alignments: [TextContent.Alignment] = [.left, .center, .right, .justified]
    let truncations: [TextContent.TruncationMode] = [.none, .none, .end, .middle]
    return TextContent(
      string: string, fontFamily: ["Inter", "DejaVu Serif", "DejaVu Sans"].randomElement(using: &g) ?? "Inter",
      fontSize: Double.random(in: 20...110, using: &g), fontStyle: styles.randomElement(using: &g) ?? .italic,
      textColor: .white, alignment: alignments.randomElement(using: &g) ?? .left, isWrapped: Bool.random(using: &g),
      truncationMode: truncations.randomElement(using: &g) ?? .none)
  }

  /// Every pixel a random shape or text layer draws alone (turned, sometimes with a sharp
  /// shadow) lies inside its ink extents, within the pixel their edge crosses.
  @Test(arguments: [1.0, 2.0])
  func everyDrawnPixelLiesInsideTheInkExtents(scale: Double) throws {
    var g = SeededGenerator(seed: scale == 1 ? 0x1A2B : 0x3C4D)
    let size = 400
    let painter = LayerPainter(
      cache: nil, arena: PixelArena(), text: TextContext(ownFontMap: false), targetWidth: size, targetHeight: size)
    var outside = 0
    for n in 0..<40 {
      var layer = Layer(
        id: "layer\(n)", bounds: Rect(x: 0, y: 0, width: 300, height: Double.random(in: 60...300, using: &g)),
        position: Point(x: Double.random(in: 150...250, using: &g), y: Double.random(in: 150...250, using: &g)),
        transform: LayerTransform(rotation: Double.random(in: -1...1, using: &g)))
      layer.content = n % 2 == 0 ? .shape(Self.randomShape(&g)) : .text(Self.randomText(&g))
      if Int.random(in: 0..<4, using: &g) == 0 {
        (layer.shadowOpacity, layer.shadowRadius, layer.shadowColor) = (1, 0, .white)
        layer.shadowOffset = Point(x: Double.random(in: -30...30, using: &g), y: Double.random(in: -30...30, using: &g))
      }
      let frame = try Renderer(scale: scale).render(
        Raster.tree([layer], width: Double(size) / scale, height: Double(size) / scale, background: .clear))
      let e = try #require(painter.inkExtents(layer), "layer \(n)")
      var box: Box?
      for c in [
        Point(x: e.minX, y: e.minY), Point(x: e.maxX, y: e.minY), Point(x: e.minX, y: e.maxY),
        Point(x: e.maxX, y: e.maxY),
      ] {
        let p = try #require(layer.transformToSuperlayer.apply(to: c))
        let d = Rect(origin: Point(x: p.x * scale, y: p.y * scale), size: .zero)
        if box == nil { box = Box(d) } else { box?.add(d) }
      }
      let b = try #require(box)
      let (x0, y0) = (Int(b.minX.rounded(.down)) - 1, Int(b.minY.rounded(.down)) - 1)
      let (x1, y1) = (Int(b.maxX.rounded(.up)) + 1, Int(b.maxY.rounded(.up)) + 1)
      var here = 0
      for y in 0..<frame.height {
        for x in 0..<frame.width where Self.alpha(frame, x, y) > 0 && (x < x0 || x >= x1 || y < y0 || y >= y1) {
          here += 1
        }
      }
      #expect(here == 0, "layer \(n) (\(layer.content)) draws \(here) pixels outside its ink extents at \(scale)")
      outside += here
    }
    expectEqual(outside, 0, "pixels drawn outside the ink extents at \(scale)")
  }
}
