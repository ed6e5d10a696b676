import FlickMotion
import FlickRaster
import FlickScene
import Testing

/// Values no designer means but a template can hold (found by `FuzzTests`): drawing them gives
/// a frame or an error, never a trap in a Double → Int conversion.
@Suite struct ExtremeValueTests {
  static let card = Layer(
    id: "card", bounds: Rect(x: 0, y: 0, width: 60, height: 40), position: Point(x: 50, y: 50),
    backgroundColor: .white, shadowOpacity: 0.5, shadowRadius: 4)

  static func layers() -> [(String, Layer)] {
    var out: [(String, Layer)] = []
    for radius in [1e308, .infinity, 1e9] {
      var l = card
      l.shadowRadius = radius
      out.append(("shadowRadius \(radius)", l))
    }
    for width in [1e12, 1e308] {
      var l = card
      l.bounds.size.width = width
      out.append(("width \(width)", l))
      var text = Layer(
        id: "t", bounds: Rect(x: 0, y: 0, width: width, height: 30), position: Point(x: 50, y: 50),
        content: .text(
          TextContent(string: "Wide", fontFamily: "DejaVu Sans", fontSize: 14, textColor: .black, isWrapped: true)))
      out.append(("wrapped text \(width) wide", text))
      text.content = .text(TextContent(string: "Huge", fontFamily: "DejaVu Sans", fontSize: width, textColor: .black))
      out.append(("font size \(width)", text))
    }
    for position in [1e300, -1e300] {
      var l = card
      l.position = Point(x: position, y: position)
      out.append(("position \(position)", l))
      l.content = .gradient(GradientContent(colors: [.black, .white]))
      out.append(("gradient at \(position)", l))
      l.transform.rotationY = 0.5
      l.transform.perspective = 500
      out.append(("3D plane at \(position)", l))
    }
    return out
  }

  @Test func extremeLayersDrawOrFailCleanly() {
    for (name, layer) in Self.layers() {
      let tree = Raster.tree([layer], width: 120, height: 100)
      do {
        _ = try Renderer().render(tree)
        _ = try FrameRenderer().render(tree)
      } catch {
        // An error is fine; only a crash is not.
        _ = name
      }
    }
  }

  /// A huge font size used to put the font face in error for the whole process (FreeType
  /// fails, Cairo keeps the error): text drawn afterwards in the same family failed too.
  @Test func aHugeFontSizeDoesNotBreakLaterText() throws {
    func text(_ size: Double) -> RenderTree {
      Raster.tree(
        [
          Layer(
            id: "t", bounds: Rect(x: 0, y: 0, width: 100, height: 40), position: Point(x: 60, y: 50),
            content: .text(TextContent(string: "Ag", fontFamily: "DejaVu Sans", fontSize: size, textColor: .black)))
        ],
        width: 120, height: 100)
    }
    for (_, layer) in Self.layers() { _ = try? Renderer().render(Raster.tree([layer], width: 120, height: 100)) }
    _ = try? Renderer(scale: 4).render(text(1e6))
    let later = try Renderer().render(text(14))
    #expect(later.pixels.contains { $0 < 128 }, "the normal text is drawn")
  }

  @Test func anAbsurdCanvasIsAnError() {
    let tree = Raster.tree([Self.card], width: 1e300, height: 100)
    #expect(throws: RasterError.self) { try Renderer().render(tree) }
  }
}
