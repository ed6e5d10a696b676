import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@Suite struct LayerKindRasterTests {
  static func ring(strokeEnd: Double, strokeStart: Double = 0) -> Layer {
    Layer(
      id: "ring", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 100, y: 100),
      content: .shape(
        ShapeContent(
          path: .arc(center: Point(x: 100, y: 100), radius: 80, startAngle: -.pi / 2, endAngle: 1.5 * .pi),
          fillColor: .clear, strokeColor: Raster.blue, lineWidth: 12, strokeStart: strokeStart, strokeEnd: strokeEnd)))
  }

  @Test func strokeEndHalfDrawsHalfARing() throws {
    let full = try Raster.render([Self.ring(strokeEnd: 1)])
    #expect(full.pixel(180, 100, is: Raster.blue))
    #expect(full.pixel(20, 100, is: Raster.blue))
    let half = try Raster.render([Self.ring(strokeEnd: 0.5)])
    // Clockwise from 12 o'clock: 3 o'clock is drawn, 9 o'clock is not.
    #expect(half.pixel(180, 100, is: Raster.blue))
    #expect(half.pixel(20, 100, is: .white))
    #expect(half.pixel(100, 20, is: Raster.blue) || half.pixel(103, 20, is: Raster.blue))
    let tail = try Raster.render([Self.ring(strokeEnd: 1, strokeStart: 0.5)])
    #expect(tail.pixel(180, 100, is: .white))
    #expect(tail.pixel(20, 100, is: Raster.blue))
  }

  @Test func fillRuleAndDashes() throws {
    let path = try ShapePath(svgPathData: "M20 20 H180 V180 H20 Z M60 60 H140 V140 H60 Z")
    var shape = ShapeContent(path: path, fillColor: Raster.red)
    let layer = { (s: ShapeContent) in
      Layer(
        id: "s", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 100, y: 100), content: .shape(s))
    }
    #expect(try Raster.render([layer(shape)]).pixel(100, 100, is: Raster.red))
    shape.fillRule = .evenOdd
    #expect(try Raster.render([layer(shape)]).pixel(100, 100, is: .white))
    let dashed = ShapeContent(
      path: try ShapePath(svgPathData: "M0 100 H200"), fillColor: .clear, strokeColor: .black,
      lineWidth: 4, lineDashPattern: [10, 10])
    let frame = try Raster.render([layer(dashed)])
    #expect(frame.pixel(5, 100, is: .black))
    #expect(frame.pixel(15, 100, is: .white))
    #expect(frame.pixel(25, 100, is: .black))
  }

  @Test func textLandsInsideItsBounds() throws {
    for alignment in [TextContent.Alignment.left, .center, .right] {
      let text = Layer(
        id: "t", bounds: Rect(x: 0, y: 0, width: 160, height: 60), position: Point(x: 100, y: 100),
        content: .text(
          TextContent(
            string: "Hello, Flick", fontFamily: "DejaVu Sans", fontSize: 20, textColor: .black, alignment: alignment)))
      let frame = try Raster.render([text])
      let ink = try #require(frame.inkBounds(background: .white))
      expectGreaterOrEqual(ink.minX, 20, "\(alignment)")
      expectLess(ink.maxX, 180, "\(alignment)")
      expectGreaterOrEqual(ink.minY, 70, "\(alignment)")
      expectLess(ink.maxY, 130, "\(alignment)")
      expectGreater(ink.count, 200)
      switch alignment {
      case .left: expectLess(ink.minX, 25)
      case .right: expectGreater(ink.maxX, 175)
      default: expectLess(abs((ink.minX + ink.maxX) / 2 - 100), 4)
      }
    }
  }

  /// `tracking` adds the same space after every character: "HELLO" (5 characters) is 4 gaps
  /// of 6 points wider with tracking 6, and negative tracking tightens it.
  @Test func trackingSpacesEveryCharacter() throws {
    func inkWidth(_ tracking: Double) throws -> Int {
      let text = Layer(
        id: "t", bounds: Rect(x: 0, y: 0, width: 190, height: 40), position: Point(x: 100, y: 50),
        content: .text(
          TextContent(
            string: "HELLO", fontFamily: "DejaVu Sans", fontSize: 20, textColor: .black,
            isWrapped: false, tracking: tracking)))
      let ink = try #require(try Raster.render([text], width: 200, height: 100).inkBounds(background: .white))
      return ink.maxX - ink.minX
    }
    let plain = try inkWidth(0)
    expectLessOrEqual(abs(try inkWidth(6) - plain - 24), 2)
    try expectLess(inkWidth(-2), plain - 5)
  }

  @Test func longTextWrapsOrTruncatesInsideTheBounds() throws {
    let long = "The quick brown fox jumps over the lazy dog and keeps running far beyond the edge"
    var content = TextContent(string: long, fontFamily: "DejaVu Sans", fontSize: 16, textColor: .black)
    let layer = { (c: TextContent) in
      Layer(
        id: "t", bounds: Rect(x: 0, y: 0, width: 150, height: 40), position: Point(x: 100, y: 100), content: .text(c))
    }
    let wrapped = try #require(try Raster.render([layer(content)]).inkBounds(background: .white))
    expectLess(wrapped.maxX, 176)
    expectGreater(wrapped.maxY, 125)  // runs below: wrapping adds lines
    content.truncationMode = .end
    let cut = try #require(try Raster.render([layer(content)]).inkBounds(background: .white))
    expectLess(cut.maxX, 176)
    expectLess(cut.maxY, 122)  // two lines, the second ending in an ellipsis
    content.isWrapped = false
    let one = try #require(try Raster.render([layer(content)]).inkBounds(background: .white))
    expectLess(one.maxX, 176)
    expectLess(one.maxY, 102)
  }

  @Test func aMissingFontFamilyIsAnErrorNamingTheFallback() {
    let text = Layer(
      id: "label", bounds: Rect(x: 0, y: 0, width: 100, height: 30), position: Point(x: 50, y: 50),
      content: .text(TextContent(string: "x", fontFamily: "No Such Family Flick")))
    do {
      _ = try Raster.render([text])
      Issue.record("rendered with a missing font")
    } catch {
      guard case .missingFontFamily(let family, let id, let fallback) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      expectEqual(family, "No Such Family Flick")
      expectEqual(id, "label")
      #expect(!fallback.isEmpty)
      #expect(error.description.contains("'No Such Family Flick' is not installed"))
    }
  }

  @Test func gradientEndpointsHaveTheirColours() throws {
    let axial = Layer(
      id: "g", bounds: Rect(x: 0, y: 0, width: 200, height: 100), position: Point(x: 100, y: 50),
      content: .gradient(
        GradientContent(
          colors: [Raster.red, Raster.blue], startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))))
    let frame = try Raster.render([axial], width: 200, height: 100)
    #expect(frame.pixel(0, 50, is: Raster.red, tolerance: 4))
    #expect(frame.pixel(199, 50, is: Raster.blue, tolerance: 4))
    let mid = frame.rgba(x: 100, y: 50)
    expectLess(abs(Int(mid.r) - 127), 4)
    expectLess(abs(Int(mid.b) - 127), 4)

    // A red-to-blue gradient of `kind` from the centre of a 200 × 200 layer towards `end`.
    func centred(_ kind: GradientContent.Kind, to end: Point = Point(x: 1, y: 0.5)) -> Layer {
      Layer(
        id: kind.rawValue, bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 100, y: 100),
        content: .gradient(
          GradientContent(
            kind: kind, colors: [Raster.red, Raster.blue], startPoint: Point(x: 0.5, y: 0.5), endPoint: end)))
    }
    let r = try Raster.render([centred(.radial, to: Point(x: 1, y: 1))])
    #expect(r.pixel(100, 100, is: Raster.red, tolerance: 4))
    #expect(r.pixel(199, 100, is: Raster.blue, tolerance: 4))
    #expect(r.pixel(5, 5, is: Raster.blue))

    let c = try Raster.render([centred(.conic)])
    // Just clockwise of 3 o'clock it starts red; just before it, a full turn later, it is blue; halfway, purple.
    #expect(c.pixel(190, 103, is: Raster.red, tolerance: 12))
    #expect(c.pixel(190, 97, is: Raster.blue, tolerance: 12))
    let half = c.rgba(x: 10, y: 100)
    expectLess(abs(Int(half.r) - 127), 8)
    expectLess(abs(Int(half.b) - 127), 8)
  }

  @Test func pngAndJpegContentsAreDecodedAndPlacedByGravity() throws {
    let png = Raster.fixtures.appendingPathComponent("green-blue-16.png").path
    let jpeg = Raster.fixtures.appendingPathComponent("red-32x16.jpg").path
    let stretched = Layer(
      id: "p", bounds: Rect(x: 0, y: 0, width: 160, height: 80), position: Point(x: 100, y: 100),
      contents: LayerImage(path: png))
    let frame = try Raster.render([stretched])
    #expect(frame.pixel(40, 100, is: Color(red: 0, green: 200.0 / 255, blue: 0)))
    // The half-transparent blue half over white, un-premultiplied correctly.
    let blend = frame.rgba(x: 160, y: 100)
    expectLessOrEqual(abs(Int(blend.r) - 127), 2)
    expectEqual(blend.b, 255)
    expectEqual(blend.a, 255)
    let fitted = Layer(
      id: "j", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 100, y: 100),
      contents: LayerImage(path: jpeg), contentsGravity: .resizeAspect)
    let j = try Raster.render([fitted])
    #expect(j.pixel(100, 100, is: Raster.red, tolerance: 6))
    #expect(j.pixel(100, 60, is: .white))
    #expect(j.pixel(100, 140, is: .white))
    #expect(j.pixel(100, 77, is: Raster.red, tolerance: 6))
  }

  @Test func unreadableImagesAreErrors() {
    let missing = Layer(
      id: "p", bounds: Rect(x: 0, y: 0, width: 10, height: 10), contents: LayerImage(path: "/nonexistent/flick.png"))
    // A draw-time error names the layer it was drawing.
    #expect(
      throws: RasterError.layer(
        id: "p", error: .unreadableImage(path: "/nonexistent/flick.png", reason: "no such file"))
    ) {
      try Raster.render([missing])
    }
    let notImage = Layer(
      id: "p", bounds: Rect(x: 0, y: 0, width: 10, height: 10), contents: LayerImage(path: #filePath))
    #expect(throws: RasterError.self) { try Raster.render([notImage]) }
  }
}

@Suite struct ResourceCheckTests {
  @Test func checkResourcesFindsMissingFontsAndBrokenPicturesWithoutDrawing() throws {
    let good = Layer(id: "ok", content: .text(TextContent(string: "x", fontFamily: "DejaVu Sans")))
    try Renderer().checkResources(of: Raster.tree([good]))
    let nested = Layer(
      id: "parent",
      sublayers: [Layer(id: "label", content: .text(TextContent(string: "x", fontFamily: "Missing Flick Font")))])
    #expect(throws: RasterError.self) { try Renderer().checkResources(of: Raster.tree([nested])) }
    let corrupt = FileManager.default.temporaryDirectory.appendingPathComponent("flick-corrupt-\(getpid()).jpg").path
    _ = FileManager.default.createFile(atPath: corrupt, contents: Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4, 5]))
    defer { try? FileManager.default.removeItem(atPath: corrupt) }
    let broken = Layer(id: "p", mask: Layer(id: "m", contents: LayerImage(path: corrupt)))
    do {
      try Renderer().checkResources(of: Raster.tree([broken]))
      Issue.record("a corrupt JPEG passed")
    } catch {
      guard case .unreadableImage(let path, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      expectEqual(path, corrupt)
      // Refused from its header now, before anything is decoded.
      expectEqual(reason, "a JPEG without a frame header")
    }
  }

  @Test func oneSidedLayersTurnedAwayAreHiddenWithoutPerspectiveToo() throws {
    var card = Layer(
      id: "c", bounds: Rect(x: 0, y: 0, width: 80, height: 60), position: Point(x: 100, y: 100),
      backgroundColor: Raster.red, isDoubleSided: false)
    card.transform.rotationY = .pi * 0.75
    #expect(try Raster.render([card]).inkBounds(background: .white) == nil)
    card.isDoubleSided = true
    #expect(try Raster.render([card]).pixel(100, 100, is: Raster.red))
  }
}

@Suite struct WebPContentsTests {
  @Test func webpDecodesLikeTheSamePNG() throws {
    func layer(_ file: String) -> Layer {
      Layer(
        id: "p", bounds: Rect(x: 0, y: 0, width: 160, height: 80), position: Point(x: 100, y: 100),
        contents: LayerImage(path: Raster.fixtures.appendingPathComponent(file).path))
    }
    let webp = try Raster.render([layer("green-blue-16.webp")], background: .clear)
    let png = try Raster.render([layer("green-blue-16.png")], background: .clear)
    expectEqual(webp, png)
    expectEqual(webp.rgba(x: 160, y: 100).a, 128)
  }
}

@Suite struct GradientPlacementTests {
  static func gradient() -> Layer {
    Layer(
      id: "g", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50),
      content: .gradient(GradientContent(colors: [Raster.red, Raster.red])))
  }

  @Test func gradientsInsideOpacityGroupsAndTransformedParentsLandInPlace() throws {
    let faded = Layer(
      id: "p", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 100, y: 100), opacity: 0.5,
      sublayers: [Self.gradient()])
    let f = try Raster.render([faded])
    #expect(f.pixel(100, 100, is: Color(red: 1, green: 0.5, blue: 0.5), tolerance: 2))
    #expect(f.pixel(40, 100, is: .white))
    var scaled = faded
    scaled.opacity = 1
    scaled.transform.scale = Point(x: 0.5, y: 0.5)
    let s = try Raster.render([scaled])
    #expect(s.pixel(100, 100, is: Raster.red))
    #expect(s.pixel(76, 100, is: Raster.red))
    #expect(s.pixel(72, 100, is: .white))
    var tilted = scaled
    tilted.transform = LayerTransform(rotationY: 0.3, perspective: 400)
    let t = try Raster.render([tilted])
    #expect(t.pixel(100, 100, is: Raster.red))
    #expect(t.pixel(45, 100, is: .white))
    #expect(t.pixel(155, 100, is: .white))
  }
}
