import CCairo
import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Testing

@testable import FlickRaster

/// ``RadialGradientRaster`` repeats Cairo's matrix conversions and pixman's radial arithmetic to
/// paint a radial gradient layer over whole pixels. These tests hold ``LayerPainter/paintRadial(_:of:in:clear:)``
/// to Cairo's own fill of the same layer (``LayerPainter/fillGradient(_:of:in:)``) byte for byte:
/// random ellipses (centres inside and outside the layer, radii from a pixel to beyond it),
/// translucent and opaque stops in any order, current matrices built by several calls (so Cairo's
/// inverse is its running product, not a fresh inversion), layers partly outside the surface, and
/// clear or painted backgrounds.
@Suite struct RadialGradientRasterTests {
  /// A `w × h` image whose pixels are random premultiplied colours (or clear), and its context.
  static func canvas(w: Int, h: Int, painted: Bool, rng: inout SeededGenerator) -> (OpaquePointer, OpaquePointer) {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
    if painted {
      let data = cairo_image_surface_get_data(surface)!
      let stride = Int(cairo_image_surface_get_stride(surface))
      for y in 0..<h {
        for x in 0..<w {
          let a = UInt32.random(in: 0...255, using: &rng)
          let red = UInt32.random(in: 0...a, using: &rng)
          let green = UInt32.random(in: 0...a, using: &rng)
          let blue = UInt32.random(in: 0...a, using: &rng)
          let pixel = a << 24 | red << 16 | green << 8 | blue
          UnsafeMutableRawPointer(data + y * stride + 4 * x).storeBytes(of: pixel, as: UInt32.self)
        }
      }
      cairo_surface_mark_dirty(surface)
    }
    let cr = cairo_create(surface)!
    return (surface, cr)
  }

  static func pixels(_ surface: OpaquePointer, w: Int, h: Int) -> [UInt32] {
    cairo_surface_flush(surface)
    return LinearGradientRasterTests.read(surface, w: w, h: h)
  }

  @Test(arguments: 0..<4)
  func randomLayersMatchCairoByteForByte(seed: UInt64) throws {
    var rng = SeededGenerator(seed: 0x7261_6469 + seed)
    var painted = 0
    var empty = 0
    for trial in 0..<30 {
      let w = Int.random(in: 1...220, using: &rng)
      let h = Int.random(in: 1...140, using: &rng)
      // The layer's device box, in whole pixels, partly outside the surface on some trials.
      let bx = Int.random(in: -60...w, using: &rng)
      let by = Int.random(in: -60...h, using: &rng)
      let bw = Int.random(in: 1...260, using: &rng)
      let bh = Int.random(in: 1...200, using: &rng)
      // A scale and a translation that map the user bounds onto that box, set in several calls.
      let scales: [Double] = [1, 2, 0.5, 0.75, 3, 1.5]
      let sx = trial % 3 == 0 ? 1 : scales[Int.random(in: 0..<scales.count, using: &rng)]
      let sy = trial % 5 == 0 ? sx : scales[Int.random(in: 0..<scales.count, using: &rng)]
      let origin = Point(
        x: Double(Int.random(in: -40...40, using: &rng)), y: Double(Int.random(in: -40...40, using: &rng)))
      let bounds = Rect(x: origin.x, y: origin.y, width: Double(bw) / sx, height: Double(bh) / sy)
      let n = Int.random(in: 2...4, using: &rng)
      let colors = (0..<n).map { i -> Color in
        let alpha: Double =
          i == n - 1 && trial % 2 == 0 ? 0 : [1, 0.5, 0.13, Double.random(in: 0...1, using: &rng)][trial % 4]
        return Color(
          red: Double.random(in: 0...1, using: &rng), green: Double.random(in: 0...1, using: &rng),
          blue: Double.random(in: 0...1, using: &rng), alpha: alpha)
      }
      let locations = (0..<n).map { i in
        trial % 4 == 3 ? Double(Int.random(in: -2...12, using: &rng)) / 10 : Double(i) / Double(n - 1)
      }
      func unit() -> Double { Double(Int.random(in: -40...140, using: &rng)) / 100 }
      let start = Point(x: unit(), y: unit())
      // Every sixth a thin ellipse (a radius of 0 is empty, and left to Cairo's solid fill).
      let end = trial % 6 == 0 ? Point(x: start.x + 0.01, y: unit()) : Point(x: unit(), y: unit())
      let gradient = GradientContent(
        kind: .radial, colors: colors, locations: locations, startPoint: start, endPoint: end)
      let layer = Layer(id: "glow", bounds: bounds, anchorPoint: .zero, content: .gradient(gradient))
      let background = trial % 3 != 1
      var copy = rng
      let (want, wcr) = Self.canvas(w: w, h: h, painted: background, rng: &rng)
      let (got, gcr) = Self.canvas(w: w, h: h, painted: background, rng: &copy)
      defer {
        for s in [want, got] { cairo_surface_destroy(s) }
        for c in [wcr, gcr] { cairo_destroy(c) }
      }
      for cr in [wcr, gcr] {
        cairo_translate(cr, Double(bx), Double(by))
        cairo_scale(cr, sx, sy)
        cairo_translate(cr, -origin.x, -origin.y)
      }
      LayerPainter.fillGradient(gradient, of: layer, in: wcr)
      // An empty ellipse (a random end on the centre's row or column) is left to Cairo's fill.
      if start.x == end.x || start.y == end.y {
        #expect(!LayerPainter.paintRadial(gradient, of: layer, in: gcr, clear: !background), "trial \(trial)")
        empty += 1
        continue
      }
      guard LayerPainter.paintRadial(gradient, of: layer, in: gcr, clear: !background) else {
        Issue.record("trial \(trial): declined \(bounds) scale \(sx)×\(sy)")
        continue
      }
      painted += 1
      let a = Self.pixels(want, w: w, h: h)
      let b = Self.pixels(got, w: w, h: h)
      let first = a.indices.first { a[$0] != b[$0] }
      #expect(
        first == nil,
        """
        trial \(trial): \(w)×\(h), box \(bx),\(by) \(bw)×\(bh), scale \(sx)×\(sy), \(start)→\(end), \
        stops \(Array(zip(locations, colors))), first differing pixel \(first ?? -1): \
        Cairo \(String(a[first ?? 0], radix: 16)), raster \(String(b[first ?? 0], radix: 16))
        """)
    }
    expectEqual(painted + empty, 30)
  }

  /// What the raster does not reproduce is left to Cairo: a rotated or fractional layer, rounded
  /// corners, a clip, another operator.
  @Test func declinesWhatItDoesNotReproduce() {
    let gradient = GradientContent(
      kind: .radial, colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1, alpha: 0)],
      locations: [0, 1], startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 1))
    let layer = Layer(
      id: "glow", bounds: Rect(x: 0, y: 0, width: 40, height: 30), anchorPoint: .zero, content: .gradient(gradient))
    func accepts(_ setUp: (OpaquePointer) -> Void, layer: Layer = layer) -> Bool {
      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64)!
      let cr = cairo_create(surface)!
      defer {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
      }
      setUp(cr)
      return LayerPainter.paintRadial(gradient, of: layer, in: cr, clear: true)
    }
    #expect(accepts { _ in })
    #expect(accepts { cairo_translate($0, 3, 4) })
    // An ellipse with a radius of 0 is one colour, which Cairo fills.
    for end in [Point(x: 0.5, y: 1), Point(x: 1, y: 0.5), Point(x: 0.5, y: 0.5)] {
      var empty = layer
      var g = gradient
      g.endPoint = end
      empty.content = .gradient(g)
      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64)!
      let cr = cairo_create(surface)!
      #expect(!LayerPainter.paintRadial(g, of: empty, in: cr, clear: true), "endPoint \(end)")
      cairo_destroy(cr)
      cairo_surface_destroy(surface)
    }
    #expect(!accepts { cairo_translate($0, 0.5, 0) })
    #expect(!accepts { cairo_rotate($0, 0.3) })
    #expect(!accepts { cairo_set_operator($0, CAIRO_OPERATOR_ADD) })
    #expect(
      !accepts {
        cairo_rectangle($0, 1, 1, 20, 20)
        cairo_clip($0)
      })
    var rounded = layer
    rounded.cornerRadius = 6
    #expect(!accepts({ _ in }, layer: rounded))
  }
}
