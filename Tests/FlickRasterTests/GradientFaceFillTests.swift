import CCairo
import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Testing

@testable import FlickRaster

/// ``GradientFaceFill`` paints the middle rows of a gradient-filled rounded rectangle itself and
/// must write exactly the bytes of Cairo's own fill of the whole path into the cleared
/// intermediate a gradient layer is drawn into. These tests compare the two on random shapes:
/// fractional positions and translations, sizes on both sides of Cairo's 256-pixel run length,
/// radii, rounded corners, gradient directions and stops.
@Suite struct GradientFaceFillTests {
  /// The pixels of a `w × h` cleared image after `draw` ran on a context whose matrix is the
  /// translation `(tx, ty)`, and what `draw` returned.
  static func pixels(
    w: Int, h: Int, translation: (Double, Double), arena: PixelArena,
    _ draw: (CairoImage, OpaquePointer, cairo_matrix_t) -> Bool
  ) throws -> (pixels: [UInt32], drawn: Bool) {
    let image = try #require(CairoImage(width: w, height: h, format: CAIRO_FORMAT_ARGB32, arena: arena))
    let cr = try #require(image.makeContext())
    defer { cairo_destroy(cr) }
    var m = cairo_matrix_t()
    cairo_matrix_init_translate(&m, translation.0, translation.1)
    cairo_set_matrix(cr, &m)
    let drawn = draw(image, cr, m)
    cairo_surface_flush(image.surface)
    return (LinearGradientRasterTests.read(image.surface, w: w, h: h), drawn)
  }

  static func randomFace(_ rng: inout SeededGenerator, trial: Int) -> (
    Layer, GradientContent, (Double, Double), Int, Int
  ) {
    // Narrow faces (one masked call a row) and wide ones (the full span composited alone).
    let width = trial % 3 == 0 ? Double.random(in: 6...250, using: &rng) : Double.random(in: 240...620, using: &rng)
    let height = Double.random(in: 8...300, using: &rng)
    var origin = Point(x: Double.random(in: -3...3, using: &rng), y: Double.random(in: -3...3, using: &rng))
    // On every eighth trial the left side lies on the image's first column, as a card at rest:
    // a corner's control point then lands a hair below 0 (cos(π) · r), which Cairo rounds to 0.
    if trial % 8 == 0 { origin.x = origin.x.rounded() }
    let radius = trial % 7 == 0 ? Double.random(in: 0.2...2, using: &rng) : Double.random(in: 1...90, using: &rng)
    var corners = CornerMask.all
    if trial % 5 == 4 {
      let all: [CornerMask] = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
      corners = CornerMask(all.filter { _ in Bool.random(using: &rng) })
    }
    // Fractional translations, whole ones and ones of several pixels.
    var tx = -origin.x + Double.random(in: 0..<1, using: &rng)
    var ty = -origin.y + Double.random(in: 0..<1, using: &rng)
    switch trial % 4 {
    case 0 where trial % 8 == 0: tx = -origin.x
    case 1: (tx, ty) = (tx.rounded(.up) + 2, ty.rounded(.up))
    case 2:
      (tx, ty) = (tx + Double(Int.random(in: 0...5, using: &rng)), ty + Double(Int.random(in: 0...5, using: &rng)))
    case 3: tx = Double(Int(tx.rounded(.up))) + Double(Int.random(in: 0...3, using: &rng)) / 256
    default: break
    }
    let w = Int((tx + origin.x + width).rounded(.up)) + Int.random(in: 0...2, using: &rng)
    let h = Int((ty + origin.y + height).rounded(.up)) + Int.random(in: 0...2, using: &rng)
    func unit() -> Double { Double.random(in: -0.4...1.4, using: &rng) }
    var start = Point(x: unit(), y: unit())
    var end = Point(x: unit(), y: unit())
    switch trial % 6 {
    case 0: (start, end) = (.zero, Point(x: 1, y: 1))
    case 1: end.y = start.y  // horizontal: every row the same
    case 2: end.x = start.x  // vertical
    default: break
    }
    let n = Int.random(in: 2...4, using: &rng)
    let colors = (0..<n).map { _ in
      Color(
        red: Double.random(in: 0...1, using: &rng), green: Double.random(in: 0...1, using: &rng),
        blue: Double.random(in: 0...1, using: &rng))
    }
    let gradient = GradientContent(colors: colors, startPoint: start, endPoint: end)
    let layer = Layer(
      id: "face", bounds: Rect(x: origin.x, y: origin.y, width: width, height: height), cornerRadius: radius,
      maskedCorners: corners, content: .gradient(gradient))
    return (layer, gradient, (tx, ty), w, h)
  }

  @Test(arguments: 0..<4)
  func randomFacesMatchCairoByteForByte(seed: UInt64) throws {
    var rng = SeededGenerator(seed: 0xFACE + seed)
    let arena = PixelArena()
    var painted = 0
    for trial in 0..<50 {
      let (layer, g, translation, w, h) = Self.randomFace(&rng, trial: trial)
      let want = try Self.pixels(w: w, h: h, translation: translation, arena: arena) { _, cr, _ in
        LayerPainter.fillGradient(g, of: layer, in: cr)
        return true
      }
      let got = try Self.pixels(w: w, h: h, translation: translation, arena: arena) { image, cr, m in
        GradientFaceFill.fill(g, of: layer, matrix: m, image: image, context: cr)
      }
      guard got.drawn else { continue }
      painted += 1
      let first =
        SameBytes.equal(got.pixels, want.pixels) ? nil : got.pixels.indices.first { got.pixels[$0] != want.pixels[$0] }
      #expect(
        first == nil,
        """
        trial \(trial): \(w)×\(h) bounds \(layer.bounds) radius \(layer.cornerRadius) translation \(translation) \
        gradient \(g.startPoint)→\(g.endPoint), first pixel (\(first.map { $0 % w } ?? -1), \(first.map { $0 / w } ?? -1))
        """)
    }
    // Most faces are painted here; the rest (too short for middle rows, too narrow) by Cairo.
    expectGreaterOrEqual(painted, 30)
  }

  /// What the reasoning does not cover is left to Cairo: no rounded corner (Cairo fills boxes),
  /// a scaled matrix, a gradient pixman takes as horizontal over one row although it is not,
  /// a shape too short for rows between its corners.
  @Test func declinesWhatItDoesNotReproduce() throws {
    let arena = PixelArena()
    let g = GradientContent(
      colors: [Color(red: 0.1, green: 0.2, blue: 0.3), Color(red: 0.9, green: 0.5, blue: 0.1)],
      startPoint: .zero, endPoint: Point(x: 1, y: 1))
    func fills(_ layer: Layer, _ g: GradientContent, scale: Double = 1) throws -> Bool {
      try Self.pixels(w: 420, h: 300, translation: (0.3, 0.6), arena: arena) { image, cr, m in
        var m = m
        m.xx = scale
        m.yy = scale
        return GradientFaceFill.fill(g, of: layer, matrix: m, image: image, context: cr)
      }.drawn
    }
    let bounds = Rect(x: 0, y: 0, width: 400, height: 280)
    #expect(try fills(Layer(id: "a", bounds: bounds, cornerRadius: 36, content: .gradient(g)), g))
    // A face on whole-pixel x (a card at rest) is accepted.
    let atRest = try Self.pixels(w: 400, h: 281, translation: (0, 0.37), arena: arena) { image, cr, m in
      GradientFaceFill.fill(
        g, of: Layer(id: "r", bounds: bounds, cornerRadius: 36, content: .gradient(g)), matrix: m, image: image,
        context: cr)
    }
    #expect(atRest.drawn)
    #expect(try !fills(Layer(id: "b", bounds: bounds, cornerRadius: 0, content: .gradient(g)), g))
    #expect(try !fills(Layer(id: "c", bounds: bounds, cornerRadius: 36, content: .gradient(g)), g, scale: 0.9))
    let flat = GradientContent(colors: g.colors.colors, startPoint: .zero, endPoint: Point(x: 1, y: 1e-7))
    #expect(try !fills(Layer(id: "d", bounds: bounds, cornerRadius: 36, content: .gradient(flat)), flat))
    let short = Rect(x: 0, y: 0, width: 400, height: 40)
    #expect(try !fills(Layer(id: "e", bounds: short, cornerRadius: 20, content: .gradient(g)), g))
  }
}
