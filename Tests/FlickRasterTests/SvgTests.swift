import CCairo
import CRSVG
import FlickMotion
@testable import FlickRaster
import FlickExpectations
import FlickScene
import FlickTestSupport
import Foundation
import Testing

/// SVG `contents` drawn by librsvg as vectors at the device scale. Fixtures in `Fixtures/svg`
/// are made by hand for Flick (same licence as the repository).
@Suite struct SvgTests {
  static func fixture(_ name: String) -> String { Raster.fixtures.appendingPathComponent("svg/\(name)").path }

  /// librsvg's own rendering of the whole document at `scale`, through its C API, as BGRA bytes.
  static func librsvg(_ path: String, width: Int, height: Int, scale: Double) throws -> [UInt8] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let handle = try #require(
      data.withUnsafeBytes {
        rsvg_handle_new_from_data($0.baseAddress?.assumingMemoryBound(to: UInt8.self), gsize($0.count), nil)
      })
    defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
    let w = Int((Double(width) * scale).rounded())
    let h = Int((Double(height) * scale).rounded())
    let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h)))
    defer { cairo_surface_destroy(surface) }
    let cr = try #require(cairo_create(surface))
    cairo_scale(cr, scale, scale)
    var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
    expectNotEqual(rsvg_handle_render_document(handle, cr, &viewport, nil), 0)
    cairo_destroy(cr)
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let bytes = try #require(cairo_image_surface_get_data(surface))
    var out: [UInt8] = []
    for y in 0..<h { out += UnsafeBufferPointer(start: bytes + y * stride, count: w * 4) }
    return out
  }

  static func iconLayer(size: Size = Size(width: 48, height: 48), gravity: ContentsGravity = .resize) -> Layer {
    var layer = Layer(id: "icon")
    layer.bounds = Rect(origin: .zero, size: size)
    layer.position = Point(x: size.width / 2, y: size.height / 2)
    layer.contents = LayerImage(path: fixture("icon.svg"))
    layer.contentsGravity = gravity
    return layer
  }

  @Test(arguments: [1.0, 2.0, 3.0])
  func drawnAsVectorsAtTheDeviceScaleExactlyAsLibrsvg(scale: Double) throws {
    let tree = Raster.tree([Self.iconLayer()], width: 48, height: 48, background: .clear)
    let frame = try Renderer(scale: scale).render(tree)
    expectEqual(frame.width, Int(48 * scale))
    let expected = try Self.librsvg(Self.fixture("icon.svg"), width: 48, height: 48, scale: scale)
    let same = frame.packedPixels == expected
    #expect(same, "scale \(scale)")
    let cached = try FrameRenderer(scale: scale).render(tree).packedPixels == expected
    #expect(cached)
  }

  @Test func crispAtThreeTimesNotAnEnlargement() throws {
    // At 3× the circle's edge is as sharp in device pixels as at 1× (one or two partly covered
    // pixels), where an enlargement of the 1× picture would smear it over three times as many.
    let tree = Raster.tree([Self.iconLayer()], width: 48, height: 48, background: .clear)
    func edgePixels(_ f: Frame, scale: Int) -> Int {
      (0..<(12 * scale)).filter {
        let a = f.rgba(x: $0, y: 24 * scale).a; return a > 0 && a < 255
      }.count
    }
    let x1 = edgePixels(try Renderer(scale: 1).render(tree), scale: 1)
    let x3 = edgePixels(try Renderer(scale: 3).render(tree), scale: 3)
    expectGreaterOrEqual(x1, 1, "1×: \(x1), 3×: \(x3)")
    expectGreaterOrEqual(x3, 1, "1×: \(x1), 3×: \(x3)")
    expectLessOrEqual(x3, 2, "1×: \(x1), 3×: \(x3)")
    expectLess(x3, 3 * x1, "1×: \(x1), 3×: \(x3)")
  }

  @Test func placedByContentsGravity() throws {
    let frame = try Raster.render(
      [Self.iconLayer(size: Size(width: 144, height: 48), gravity: .resizeAspect)], width: 144, height: 48,
      background: .clear)
    let ink = try #require(frame.inkBounds(background: .clear))
    expectGreaterOrEqual(ink.minX, 48)
    expectLess(ink.maxX, 96)  // centred, 48 wide
    let stretched = try Raster.render(
      [Self.iconLayer(size: Size(width: 144, height: 48))], width: 144, height: 48, background: .clear)
    let wide = try #require(stretched.inkBounds(background: .clear))
    expectLess(wide.minX, 10)
    expectGreater(wide.maxX, 134)  // resize stretches (the circle spans 1/24…23/24)
  }

  @Test func malformedSVGIsAnErrorNamingTheFile() throws {
    var layer = Self.iconLayer()
    layer.contents = LayerImage(path: Self.fixture("malformed.svg"))
    #expect {
      try Renderer().checkVectorFiles(of: Raster.tree([layer]))
    } throws: { error in
      guard case RasterError.unreadableImage(let path, let reason) = error else { return false }
      return path.contains("malformed.svg:2:") && reason.contains("not a valid SVG")
    }
    #expect(throws: RasterError.self) { _ = try Raster.render([layer]) }
  }

  @Test func anSVGThatRefersToAnotherFileIsRefusedWhereItSaysSo() throws {
    var layer = Self.iconLayer(size: Size(width: 40, height: 20))
    layer.contents = LayerImage(path: Self.fixture("external.svg"))
    #expect {
      try Renderer().checkVectorFiles(of: Raster.tree([layer]))
    } throws: { error in
      guard case RasterError.unreadableImage(let path, let reason) = error else { return false }
      return path.contains("external.svg:1:") && reason.contains("another file is not read")
    }
  }

  /// What Flick's check stands in front of: librsvg 2.54, given the bytes without a base
  /// location (as Flick gives them), loads no file by a relative, absolute or `file:` reference.
  @Test func librsvgWithoutABaseLoadsNoOtherFile() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-svg-victim")
    defer { try? FileManager.default.removeItem(at: folder) }
    let victim = folder.appendingPathComponent("victim.png").path
    try Data(HostileLottie.victimPNG).write(to: URL(fileURLWithPath: victim))
    for href in [victim, "file://" + victim, "../" + folder.lastPathComponent + "/victim.png"] {
      let svg =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\">"
        + "<image href=\"\(href)\" width=\"64\" height=\"64\"/><rect width=\"4\" height=\"4\" fill=\"#00f\"/></svg>"
      let document = try SVGDocument(data: Data(svg.utf8), path: "victim-test.svg")
      let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64))
      defer { cairo_surface_destroy(surface) }
      let cr = try #require(cairo_create(surface))
      try document.draw(in: Rect(x: 0, y: 0, width: 64, height: 64), on: cr, path: "victim-test.svg")
      cairo_destroy(cr)
      cairo_surface_flush(surface)
      let data = try #require(cairo_image_surface_get_data(surface))
      let bytes = [UInt8](UnsafeBufferPointer(start: data, count: 64 * 64 * 4))
      expectEqual(LottieHostileInputTests.count(victimIn: bytes), 0, "\(href)")
      #expect(bytes[0] == 255 && bytes[3] == 255)  // the blue rect is drawn
    }
  }
}
