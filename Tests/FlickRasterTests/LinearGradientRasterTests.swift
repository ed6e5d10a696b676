import CCairo
import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Testing

@testable import FlickRaster

/// ``LinearGradientRaster`` repeats pixman's arithmetic to paint opaque axial gradients with a
/// colour table. These tests hold it to Cairo's own bytes for random gradients (diagonal, nearly
/// horizontal and vertical, stops out of order, on one offset, beyond 0…1, end points outside the
/// area) and hold the renderer's direct path to Cairo's fill of the same layer.
@Suite struct LinearGradientRasterTests {
  /// Cairo's pixels for the gradient filled over `x0..<x1 × y0..<y1` of a `w × h` transparent image.
  static func cairoPixels(
    start: Point, end: Point, stops: [(location: Double, color: Color)], w: Int, h: Int,
    area: (Int, Int, Int, Int)
  ) -> [UInt32] {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))
    let cr = cairo_create(surface)
    let pattern = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)
    for s in stops {
      let c = s.color
      cairo_pattern_add_color_stop_rgba(pattern, s.location, c.red, c.green, c.blue, c.alpha)
    }
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_set_source(cr, pattern)
    let (x0, y0, x1, y1) = area
    cairo_rectangle(cr, Double(x0), Double(y0), Double(x1 - x0), Double(y1 - y0))
    cairo_fill(cr)
    cairo_surface_flush(surface)
    let pixels = read(surface, w: w, h: h)
    cairo_pattern_destroy(pattern)
    cairo_destroy(cr)
    cairo_surface_destroy(surface)
    return pixels
  }

  static func read(_ surface: OpaquePointer?, w: Int, h: Int) -> [UInt32] {
    let data = cairo_image_surface_get_data(surface)!
    let stride = Int(cairo_image_surface_get_stride(surface))
    // Row by row (a pixel at a time took most of the debug build's time in these suites).
    return [UInt32](unsafeUninitializedCapacity: w * h) { out, count in
      for y in 0..<h {
        UnsafeMutableRawPointer(out.baseAddress! + y * w).copyMemory(from: data + y * stride, byteCount: 4 * w)
      }
      count = w * h
    }
  }

  static func rasterPixels(_ raster: LinearGradientRaster, w: Int, h: Int, area: (Int, Int, Int, Int)) -> [UInt32] {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))
    let data = cairo_image_surface_get_data(surface)!
    let stride = Int(cairo_image_surface_get_stride(surface))
    raster.paint(into: data + area.1 * stride, stride: stride, x0: area.0, y0: area.1, x1: area.2, y1: area.3)
    cairo_surface_mark_dirty(surface)
    let pixels = read(surface, w: w, h: h)
    cairo_surface_destroy(surface)
    return pixels
  }

  @Test(arguments: 0..<4)
  func randomGradientsMatchCairoByteForByte(seed: UInt64) throws {
    var rng = SeededGenerator(seed: 0x6C67 + seed)
    var checked = 0
    for trial in 0..<60 {
      let w = Int.random(in: 1...260, using: &rng)
      let h = Int.random(in: 1...160, using: &rng)
      func coordinate() -> Double { Double.random(in: -600...600, using: &rng).rounded(.down) / 3.7 }
      var start = Point(x: coordinate(), y: coordinate())
      var end = Point(x: coordinate(), y: coordinate())
      switch trial % 5 {
      case 0: (start, end) = (.zero, Point(x: Double(w), y: Double(h)))
      case 1: end.y = start.y + Double(Int.random(in: 0..<100, using: &rng)) / 1e5  // nearly horizontal
      case 2: end.x = start.x + Double(Int.random(in: 0..<100, using: &rng)) / 1e5  // nearly vertical
      default: break
      }
      let n = Int.random(in: 2...5, using: &rng)
      let stops = (0..<n).map { i -> (location: Double, color: Color) in
        // Out of order, repeated and out-of-range offsets on some trials.
        let location = trial % 4 == 3 ? Double(Int.random(in: -2...12, using: &rng)) / 10 : Double(i) / Double(n - 1)
        let color = Color(
          red: Double.random(in: 0...1, using: &rng), green: Double.random(in: 0...1, using: &rng),
          blue: Double.random(in: 0...1, using: &rng))
        return (location, color)
      }
      let x0 = Int.random(in: 0..<w, using: &rng)
      let y0 = Int.random(in: 0..<h, using: &rng)
      let area =
        trial % 2 == 0
        ? (0, 0, w, h) : (x0, y0, Int.random(in: x0 + 1...w, using: &rng), Int.random(in: y0 + 1...h, using: &rng))
      guard let raster = LinearGradientRaster(start: start, end: end, stops: stops) else { continue }
      checked += 1
      let want = Self.cairoPixels(start: start, end: end, stops: stops, w: w, h: h, area: area)
      let got = Self.rasterPixels(raster, w: w, h: h, area: area)
      let first = got.indices.first { got[$0] != want[$0] }
      #expect(
        first == nil,
        "trial \(trial): \(w)×\(h) \(start)→\(end) stops \(stops) area \(area), first pixel \(first ?? -1)")
    }
    expectGreaterOrEqual(checked, 40)
  }

  /// A gradient whose `t` moves by less than one 16.16 unit over the whole height: pixman
  /// computes the first row and repeats it, although later rows' own `t` may truncate one lower.
  @Test func nearlyHorizontalGradientsRepeatTheFirstRow() throws {
    let stops: [(location: Double, color: Color)] = [
      (0, Color(red: 0.1, green: 0.7, blue: 0.2)), (1, Color(red: 0.9, green: 0.1, blue: 0.6)),
    ]
    for k in 0..<40 {
      // Over 100 rows `t` moves by about 0.3…0.97 units of 1/65536.
      let end = Point(x: 300 + Double(k) / 7, y: (300 + Double(k) * 15) / 65536)
      let raster = try #require(LinearGradientRaster(start: Point(x: 0.3, y: 0), end: end, stops: stops))
      let area = (0, 0, 320, 100)
      let want = Self.cairoPixels(start: Point(x: 0.3, y: 0), end: end, stops: stops, w: 320, h: 100, area: area)
      let got = Self.rasterPixels(raster, w: 320, h: 100, area: area)
      #expect(got.indices.first { got[$0] != want[$0] } == nil, "end \(end)")
    }
  }

  /// What the raster does not claim to reproduce is left to Cairo: translucent stops, one colour,
  /// coinciding end points, coordinates beyond Cairo's unscaled range.
  @Test func declinesWhatItDoesNotReproduce() {
    let a = Color(red: 0.1, green: 0.2, blue: 0.3)
    let b = Color(red: 0.9, green: 0.5, blue: 0.1)
    let p = Point(x: 1, y: 2)
    let q = Point(x: 50, y: 70)
    #expect(LinearGradientRaster(start: p, end: q, stops: [(0, a), (1, b)]) != nil)
    #expect(
      LinearGradientRaster(start: p, end: q, stops: [(0, a), (1, Color(red: 1, green: 0, blue: 0, alpha: 0.5))]) == nil)
    #expect(LinearGradientRaster(start: p, end: q, stops: [(0, a), (1, a)]) == nil)
    #expect(LinearGradientRaster(start: p, end: p, stops: [(0, a), (1, b)]) == nil)
    #expect(LinearGradientRaster(start: p, end: Point(x: 20_000, y: 0), stops: [(0, a), (1, b)]) == nil)
    #expect(LinearGradientRaster(start: p, end: q, stops: [(0, a)]) == nil)
  }

  /// The raster is used only with the Cairo and pixman it copies (Debian 12's 1.16 and 0.42); with
  /// others, Cairo paints every gradient.
  @Test func onlyWithTheLibrariesItCopies() {
    let renderer = RendererFingerprint.current
    expectEqual(
      LinearGradientRaster.matchesLoadedLibraries,
      (renderer.cairo.hasPrefix("1.16.") && renderer.pixman.hasPrefix("0.42.")))
  }

  /// A whole-frame opaque background is painted by the raster (the renderer's direct path); its
  /// frame equals Cairo's fill of the same gradient, and the layers drawn over it are unchanged.
  /// (480 × 270 is past the area from which rows are painted from a table of every `t`; there the
  /// end points also lie inside the layer, both ways round, so rows start and end beyond the
  /// stops, where the table's end colours are taken.)
  @Test(arguments: [
    (320, 180, 0.0, 0.0, 1.0, 1.0), (97, 211, 0.0, 0.0, 1.0, 1.0), (480, 270, 0.0, 0.0, 1.0, 1.0),
    (480, 270, 0.2, 0.3, 0.7, 0.6), (480, 270, 0.8, 0.1, 0.15, 0.9),
  ])
  func rendererBackgroundEqualsCairosFill(w: Int, h: Int, x0: Double, y0: Double, x1: Double, y1: Double) throws {
    let stops: [Color] = [Raster.hex("#0B1022"), Raster.hex("#3B2F7A"), Raster.hex("#1E6F86")]
    let background = Layer(
      id: "bg", bounds: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), anchorPoint: .zero,
      content: .gradient(
        GradientContent(
          colors: stops, locations: [0, 0.55, 1], startPoint: Point(x: x0, y: y0), endPoint: Point(x: x1, y: y1))))
    let frame = try Raster.render([background], width: Double(w), height: Double(h), background: .clear)
    let want = Self.cairoPixels(
      start: Point(x: x0 * Double(w), y: y0 * Double(h)), end: Point(x: x1 * Double(w), y: y1 * Double(h)),
      stops: zip([0, 0.55, 1], stops).map { ($0, $1) }, w: w, h: h, area: (0, 0, w, h))
    let got = (0..<h).flatMap { y in
      (0..<w).map { x in
        let i = y * frame.bytesPerRow + 4 * x
        return UInt32(frame.pixels[i]) | UInt32(frame.pixels[i + 1]) << 8 | UInt32(frame.pixels[i + 2]) << 16
          | UInt32(frame.pixels[i + 3]) << 24
      }
    }
    expectEqual(got, want)
  }
}
