import CCairo
import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Testing

@testable import FlickRaster

/// A gradient that is not kept is painted straight into the frame where that writes the bytes a
/// copy of its picture holds (``LayerPainter/paintDirectly(_:of:matrix:area:in:)``); a kept one,
/// or one drawn ahead, is copied from its picture. Both must give the same bytes, or a still and
/// a rendered sequence of one frame differ. These tests paint random layers of every kind both
/// ways, byte for byte: whole-pixel boxes at any scale, partly outside the frame, on group
/// surfaces with a device offset, under clips that cut into the layer or not, opaque and
/// translucent, square and rounded.
@Suite struct GradientDirectPaintTests {
  /// A frame-sized target (or a group's: `offset` pixels into the frame), random premultiplied
  /// pixels, and its context.
  static func target(
    w: Int, h: Int, offset: (Int, Int), seed: UInt64
  ) -> (OpaquePointer, OpaquePointer) {
    var rng = SeededGenerator(seed: seed)
    let (surface, cr) = RadialGradientRasterTests.canvas(w: w, h: h, painted: true, rng: &rng)
    cairo_surface_set_device_offset(surface, Double(-offset.0), Double(-offset.1))
    return (surface, cr)
  }

  @Test(arguments: [GradientContent.Kind.axial, .radial, .conic])
  func directPaintingWritesThePicturesBytes(kind: GradientContent.Kind) throws {
    let index: UInt64 =
      switch kind {
      case .axial: 0
      case .radial: 1
      case .conic: 2
      }
    var rng = SeededGenerator(seed: 0x6469_7265 + index)
    var direct = 0
    for trial in 0..<150 {
      let frame = (w: Int.random(in: 1...240, using: &rng), h: Int.random(in: 1...160, using: &rng))
      // A group surface covering part of the frame (its device offset), or the frame itself.
      let grouped = trial % 4 == 3
      let gx = grouped ? Int.random(in: 0...frame.w / 2, using: &rng) : 0
      let gy = grouped ? Int.random(in: 0...frame.h / 2, using: &rng) : 0
      let w = grouped ? Int.random(in: 1...(frame.w - gx), using: &rng) : frame.w
      let h = grouped ? Int.random(in: 1...(frame.h - gy), using: &rng) : frame.h
      // The layer's device box, whole pixels, partly outside on some trials; fractional on a few.
      let fraction = trial % 10 == 9 ? 0.5 : 0
      var bx = Double(Int.random(in: -50...frame.w, using: &rng)) + fraction
      var by = Double(Int.random(in: -50...frame.h, using: &rng))
      let bw = Int.random(in: 1...260, using: &rng)
      let bh = Int.random(in: 1...200, using: &rng)
      let scales: [Double] = [1, 2, 0.5, 0.75, 3, 1.5, 1.25]
      var sx = trial % 3 == 0 ? 1 : scales[Int.random(in: 0..<scales.count, using: &rng)]
      var sy = trial % 5 == 0 ? sx : scales[Int.random(in: 0..<scales.count, using: &rng)]
      var origin = Point(
        x: Double(Int.random(in: -40...40, using: &rng)), y: Double(Int.random(in: -40...40, using: &rng)))
      // Some layers drawn in device space itself (the identity matrix: a background at scale 1).
      if trial % 11 == 10 {
        (sx, sy, bx, by) = (1, 1, 0, 0)
        origin = .zero
      }
      let bounds = Rect(x: origin.x, y: origin.y, width: Double(bw) / sx, height: Double(bh) / sy)
      let n = Int.random(in: 1...4, using: &rng)
      let translucent = trial % 8 == 7
      let colors = (0..<n).map { i -> Color in
        Color(
          red: Double.random(in: 0...1, using: &rng), green: Double.random(in: 0...1, using: &rng),
          blue: Double.random(in: 0...1, using: &rng), alpha: translucent && i == 0 ? 0.5 : 1)
      }
      let locations =
        trial % 4 == 1 ? (0..<n).map { _ in Double(Int.random(in: -2...12, using: &rng)) / 10 }.sorted() : nil
      func unit() -> Double { Double(Int.random(in: -40...140, using: &rng)) / 100 }
      let start = Point(x: unit(), y: unit())
      let end = trial % 6 == 0 ? Point(x: start.x, y: unit()) : Point(x: unit(), y: unit())
      let gradient = GradientContent(kind: kind, colors: colors, locations: locations, startPoint: start, endPoint: end)
      var layer = Layer(id: "g", bounds: bounds, anchorPoint: .zero, content: .gradient(gradient))
      if trial % 7 == 6 {
        layer.cornerRadius = 6
        if trial % 2 == 0 { layer.maskedCorners = [] }
      }
      // A clip that cuts into the layer, or one that does not.
      let clip: (Double, Double, Double, Double)? =
        switch trial % 9 {
        case 4: (bx + 1, by, Double(bw), Double(bh))
        case 5: (bx - 3, by - 2, Double(bw + 6), Double(bh + 5))
        default: nil
        }
      let seed = rng.next()
      let (want, wcr) = Self.target(w: w, h: h, offset: (gx, gy), seed: seed)
      let (got, gcr) = Self.target(w: w, h: h, offset: (gx, gy), seed: seed)
      defer {
        for s in [want, got] { cairo_surface_destroy(s) }
        for c in [wcr, gcr] { cairo_destroy(c) }
      }
      let before = RadialGradientRasterTests.pixels(got, w: w, h: h)
      for cr in [wcr, gcr] {
        if let clip {
          cairo_rectangle(cr, clip.0, clip.1, clip.2, clip.3)
          cairo_clip(cr)
        }
        cairo_translate(cr, bx, by)
        cairo_scale(cr, sx, sy)
        cairo_translate(cr, -origin.x, -origin.y)
      }
      let m = CairoDraw.matrix(gcr)
      guard
        let area = LayerPainter.gradientArea(of: layer, matrix: m, targetWidth: frame.w, targetHeight: frame.h)
      else { continue }
      let what = """
        \(kind) trial \(trial): frame \(frame.w)×\(frame.h), group \(gx),\(gy) \(w)×\(h), \
        box \(bx),\(by) \(bw)×\(bh), scale \(sx)×\(sy), \(start)→\(end), stops \(gradient.stops), clip \(clip.map { "\($0)" } ?? "none")
        """
      guard LayerPainter.paintDirectly(gradient, of: layer, matrix: m, area: area, in: gcr) else {
        expectEqual(RadialGradientRasterTests.pixels(got, w: w, h: h), before, "\(what): declined, but painted")
        continue
      }
      direct += 1
      let image = try #require(
        LayerPainter.gradientPicture(gradient, of: layer, matrix: m, area: area, arena: PixelArena()))
      CairoDraw.paint(image, atDevice: area.0, area.1, in: wcr)
      let a = RadialGradientRasterTests.pixels(want, w: w, h: h)
      let b = RadialGradientRasterTests.pixels(got, w: w, h: h)
      let first = a.indices.first { a[$0] != b[$0] }
      let differing = zip(a, b).filter { $0 != $1 }.count
      #expect(
        first == nil,
        """
        \(what): \(differing) pixels differ, the first at \(first.map { ($0 % w, $0 / w) } ?? (0, 0)): \
        picture \(String(a[first ?? 0], radix: 16)), direct \(String(b[first ?? 0], radix: 16))
        """)
    }
    // Conic gradients always go through their picture; the others are often painted directly.
    if kind == .conic {
      expectEqual(direct, 0)
    } else {
      expectGreater(direct, 40)
    }
  }

  /// The review's scene: an opaque radial gradient on whole pixels that steps 4 points at a
  /// time. A rendered sequence (each step kept from its second frame, then copied) and stills
  /// (painted directly) give the same frames.
  @Test(arguments: [1.0, 2.0])
  func aSteppingRadialGradientRendersAsItsStills(scale: Double) throws {
    let gradient = GradientContent(
      kind: .radial, colors: [Raster.hex("#FFFF00"), Raster.hex("#00FF00")], startPoint: Point(x: 0.5, y: 0.5),
      endPoint: Point(x: 1, y: 1))
    let cached = FrameRenderer(scale: scale)
    for n in 0..<10 {
      let step = Double(min(5, max(0, n - 1)))
      let layer = Layer(
        id: "g2", bounds: Rect(x: 0, y: 0, width: 120, height: 120),
        position: Point(x: 300 - 4 * step, y: 200 - 2 * step), content: .gradient(gradient))
      let tree = Raster.tree([layer], width: 400, height: 300)
      try expectEqual(cached.render(tree), Renderer(scale: scale).render(tree), "frame \(n) at scale \(scale)")
    }
  }
}
