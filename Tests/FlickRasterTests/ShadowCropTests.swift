import CCairo
import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@testable import FlickRaster

/// Shadow masks are cut to the part of the blurred buffer the clip can see (the clip's extents
/// grown by the blur's reach). These tests hold the cut masks to exactly the pixels of whole
/// ones, cached and uncached, and check that a huge blur on a small canvas blurs a bounded buffer.
@Suite struct ShadowCropTests {
  /// Shadows that reach well beyond the canvas: wide blurs on cards partly off-screen, nested
  /// layers whose shadow is cast by their content (so the mask draws their sublayers' own
  /// shadows), a shadow path, a rotated card, a clip, a translucent group. The cards move by
  /// fractions of a pixel and whole pixels from frame to frame.
  static func trees(frames: Int = 4) -> [RenderTree] {
    let c = Raster.hex
    func card(
      _ id: String, _ x: Double, _ y: Double, radius: Double, size: Double = 60, background: String? = "#2CB1BC",
      sublayers: [Layer] = []
    ) -> Layer {
      Layer(
        id: id, bounds: Rect(x: 0, y: 0, width: size, height: size * 0.7), position: Point(x: x, y: y),
        backgroundColor: background.map(c) ?? .clear, cornerRadius: 8, shadowOpacity: 0.6, shadowRadius: radius,
        shadowOffset: Point(x: 3, y: 9), sublayers: sublayers)
    }
    return (0..<frames).map { n in
      let t = Double(n)
      let left = card("left", -150 + 1.25 * t, 30, radius: 40, size: 400)
      let right = card("right", 330 + 2 * t, 70.5, radius: 90, size: 500)
      // No background: the shadow is cast by the content, and the mask draws the sublayers' own.
      let inner = card("inner", 30, 20, radius: 30, size: 40, background: "#F472B6")
      let nested = card(
        "nested", 60 + 0.5 * t, -160, radius: 70, size: 400, background: nil,
        sublayers: [
          card("middle", 200, 250, radius: 50, size: 300, background: nil, sublayers: [inner])
        ])
      var path = card("path", 100, 100 + 3 * t, radius: 24, size: 50)
      path.shadowPath = .ellipse(in: Rect(x: -300, y: -40, width: 700, height: 560))
      var rotated = card("rotated", 10, 95, radius: 35, size: 300)
      rotated.transform = LayerTransform(rotation: 0.3 + 0.05 * t)
      var translucent = card("translucent", 170, 10, radius: 60, size: 380)
      translucent.opacity = 0.7
      let clip = Layer(
        id: "clip", bounds: Rect(x: 0, y: 0, width: 70, height: 50), position: Point(x: 90, y: 55),
        masksToBounds: true, sublayers: [card("clipped", 20 + t, 30, radius: 45, size: 300)])
      let small = card("small", 60, 60, radius: 8, size: 40)  // wholly on the canvas: never cut
      return Raster.tree(
        [left, right, nested, path, rotated, translucent, clip, small], width: 180, height: 110,
        background: c("#0F172A"))
    }
  }

  /// Draws `trees` in order with one painter per frame (sharing `cache` when given).
  static func render(
    _ trees: [RenderTree], scale: Double, cached: Bool, crops: Bool
  ) throws -> (frames: [Frame], statistics: ShadowStatistics) {
    let text = TextContext(ownFontMap: false)
    let arena = PixelArena()
    let cache = cached ? RasterCache() : nil
    var statistics = ShadowStatistics()
    var frames: [Frame] = []
    for tree in trees {
      let width = Int((tree.size.width * scale).rounded())
      let height = Int((tree.size.height * scale).rounded())
      frames.append(
        try FrameCanvas.draw(width: width, height: height, fill: tree.backgroundColor) { cr, _ throws(RasterError) in
          cairo_scale(cr, scale, scale)
          cache?.beginFrame()
          arena.beginFrame()
          defer { arena.endFrame() }
          let painter = LayerPainter(cache: cache, arena: arena, text: text, targetWidth: width, targetHeight: height)
          painter.cropsShadows = crops
          painter.minimumCutArea = 0  // cut the small masks of these scenes too
          try painter.draw(tree.layers, in: cr)
          cache?.endFrame()
          statistics.masks += painter.shadowStatistics.masks
          statistics.blurredPixels += painter.shadowStatistics.blurredPixels
          statistics.largestMask = max(statistics.largestMask, painter.shadowStatistics.largestMask)
        })
    }
    return (frames, statistics)
  }

  /// How many bytes differ, the largest difference, and where the first differing pixel is.
  static func difference(_ a: Frame, _ b: Frame) -> (count: Int, largest: Int, first: (x: Int, y: Int)?) {
    var count = 0
    var largest = 0
    var first: (x: Int, y: Int)?
    for i in a.pixels.indices where a.pixels[i] != b.pixels[i] {
      count += 1
      largest = max(largest, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
      if first == nil { first = ((i % a.bytesPerRow) / 4, i / a.bytesPerRow) }
    }
    return (count, largest, first)
  }

  @Test(arguments: [1.0, 1.5, 2.0])
  func cutMasksDrawTheWholeMasksPixels(scale: Double) throws {
    let trees = Self.trees()
    let whole = try Self.render(trees, scale: scale, cached: false, crops: false)
    let cut = try Self.render(trees, scale: scale, cached: false, crops: true)
    let cachedCut = try Self.render(trees, scale: scale, cached: true, crops: true)
    for n in trees.indices {
      // Cached and uncached frames cut alike: byte-identical.
      expectEqual(cachedCut.frames[n], cut.frames[n], "frame \(n) at scale \(scale)")
      // Cut masks are the whole ones up to one level here and there (Cairo's rasterisation of
      // the moved shape).
      let d = Self.difference(cut.frames[n], whole.frames[n])
      #expect(d.largest <= 1 && d.count * 1000 < cut.frames[n].pixels.count, "frame \(n) at scale \(scale): \(d)")
    }
    // The scene does cut masks: fewer pixels are blurred.
    expectLess(cut.statistics.blurredPixels, whole.statistics.blurredPixels)
  }

  /// Small moves keep the cut (snapped to a grid) and reuse the mask; a jump makes a new one.
  @Test func cutMasksAreReusedWhileTheyCoverTheClip() throws {
    func tree(_ x: Double) -> RenderTree {
      let card = Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 2000, height: 40), position: Point(x: x, y: 20),
        backgroundColor: .white, cornerRadius: 6, shadowOpacity: 0.5, shadowRadius: 100)
      return Raster.tree([card], width: 40, height: 30, background: .black)
    }
    let trees = [0.0, 4, 8, 12, 400].map(tree)
    let cut = try Self.render(trees, scale: 1, cached: true, crops: true)
    let whole = try Self.render(trees, scale: 1, cached: false, crops: false)
    let uncachedCut = try Self.render(trees, scale: 1, cached: false, crops: true)
    expectEqual(cut.frames, uncachedCut.frames)
    for n in trees.indices { expectLessOrEqual(Self.difference(cut.frames[n], whole.frames[n]).largest, 1) }
    #expect((2...3).contains(cut.statistics.masks))  // the small moves share one or two cuts
    expectEqual(whole.statistics.masks, 5)
    expectLess(cut.statistics.largestMask * 2, whole.statistics.largestMask)
  }

  /// A radius-1000 shadow with nested shadows inside on a 53×24 canvas: the mask is bounded by
  /// the clip grown by the blur's reach, not by the shadow.
  @Test func hugeBlurOnASmallCanvasMakesABoundedMask() throws {
    func card(_ id: String, _ x: Double, _ radius: Double, background: Color, sublayers: [Layer] = []) -> Layer {
      Layer(
        id: id, bounds: Rect(x: 0, y: 0, width: 4000, height: 2400), position: Point(x: x, y: 12),
        backgroundColor: background,
        cornerRadius: 40, shadowOpacity: 0.8, shadowRadius: radius, shadowOffset: Point(x: 0, y: 20),
        sublayers: sublayers)
    }
    let inner = card("inner", 2000, 200, background: Raster.blue)
    let middle = card("middle", 2000, 400, background: .clear, sublayers: [inner])
    let outer = card("outer", 26, 1000, background: .clear, sublayers: [middle])
    let tree = Raster.tree([outer], width: 53, height: 24, background: .white)
    let (frames, statistics) = try Self.render([tree], scale: 1, cached: false, crops: true)
    let reach = BoxBlur.reach(sigma: 1000.0 / 4)  // reduced 4×
    // The visible part (canvas / 4, plus 2 + 2 pixels of bilinear margin) grown by its own size
    // and the reach (plus 4) on each side.
    let (seenX, seenY) = (Int((53.0 / 4).rounded(.up)) + 5, Int((24.0 / 4).rounded(.up)) + 5)
    let bound = (3 * seenX + 2 * (reach + 4)) * (3 * seenY + 2 * (reach + 4))
    expectGreaterOrEqual(statistics.masks, 3)
    expectLessOrEqual(statistics.largestMask, bound)
    // The whole mask of the outer card: its content reduced 4× plus the reach.
    let whole = (4000 / 4 + 2 * reach) * (2400 / 4 + 2 * reach)
    expectLess(statistics.largestMask * 2, whole)
    #expect(frames[0].inkBounds(background: .white) != nil)  // the shadow shows
  }
}

/// A soft shadow is blurred alike along both device axes (σ = radius · √|det|): under a transform
/// that shrinks one axis, its reach on that axis is far more than 3 · radius points of the layer.
/// The ink extents pad for it in device space, so damage regions and groups keep all of it.
extension ShadowCropTests {
  /// A 40 × 400 bar scaled `scale` (or, with `turned`, a smaller bar rotated inside a parent
  /// scaled `scale`: a skewed map) with a 30-point shadow, moving right by 3.3 points a frame, on
  /// an 800 × 600 canvas wide enough for damage regions.
  static func anisotropic(_ n: Int, scale: Point, turned: Bool, opacity: Double = 1) -> RenderTree {
    var bar = Layer(
      id: "bar", bounds: Rect(x: 0, y: 0, width: 40, height: 400), position: Point(x: 300 + 3.3 * Double(n), y: 300),
      opacity: opacity, backgroundColor: Raster.red, shadowOpacity: 1, shadowRadius: 30, shadowOffset: .zero)
    if !turned {
      bar.transform = LayerTransform(scale: scale)
      return Raster.tree([bar], width: 800, height: 600)
    }
    bar.bounds = Rect(x: 0, y: 0, width: 20, height: 100)
    bar.position = Point(x: 50 + 0.8 * Double(n), y: 150)
    bar.transform = LayerTransform(rotation: 0.6)
    let holder = Layer(
      id: "holder", bounds: Rect(x: 0, y: 0, width: 100, height: 300), position: Point(x: 400, y: 300),
      transform: LayerTransform(scale: scale), sublayers: [bar])
    return Raster.tree([holder], width: 800, height: 600)
  }

  @Test(arguments: [
    (Point(x: 4, y: 0.25), false), (Point(x: 0.25, y: 4), false), (Point(x: 4, y: 0.25), true),
    (Point(x: 0.3, y: 2), true),
  ])
  func anisotropicShadowsRedrawByteForByte(scale: Point, turned: Bool) throws {
    for deviceScale in [1.0, 2.0] {
      let trees = (0..<5).map { Self.anisotropic($0, scale: scale, turned: turned) }
      let renderer = FrameRenderer(scale: deviceScale)
      for (n, tree) in trees.enumerated() {
        let d = Self.difference(try renderer.render(tree), try Renderer(scale: deviceScale).render(tree))
        expectEqual(d.count, 0, "frame \(n), scale \(scale), turned \(turned), at \(deviceScale): \(d)")
      }
      expectGreaterOrEqual(renderer.damageStatistics.partialFrames, 1)
    }
  }

  @Test(arguments: [Point(x: 4, y: 0.25), Point(x: 0.25, y: 4)])
  func aGroupKeepsAnAnisotropicShadowWhole(scale: Point) throws {
    // At opacity 0.99 the bar and its shadow are drawn into a group sized by their ink: it
    // must hold the whole shadow, which then differs from the opaque one by about 1 %.
    let opaque = try Renderer().render(Self.anisotropic(0, scale: scale, turned: false))
    let grouped = try Renderer().render(Self.anisotropic(0, scale: scale, turned: false, opacity: 0.99))
    let d = Self.difference(grouped, opaque)
    #expect(d.largest <= 3, "scale \(scale): \(d)")
  }
}
