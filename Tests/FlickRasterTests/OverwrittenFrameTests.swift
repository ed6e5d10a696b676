import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Testing

@testable import FlickRaster

/// A frame whose first layer writes every pixel opaquely is not cleared (or filled) before it
/// (``LayerPainter/paintsEveryPixel(_:width:height:scale:)``). These tests draw such frames into
/// pool buffers full of noise, so that a pixel the first layer does not write keeps noise, and
/// compare them with the same frames behind an empty first layer (which are cleared as before),
/// for layers the check accepts and layers it must refuse.
@Suite struct OverwrittenFrameTests {
  static let size = (width: 96.0, height: 60.0)
  static let stops = [Raster.hex("#0B1022"), Raster.hex("#3B2F7A"), Raster.hex("#1E6F86")]

  /// A layer covering `rect` (points): an opaque three-stop gradient, or a solid colour.
  static func cover(_ rect: Rect, solid: Bool = false, edit: (inout Layer) -> Void = { _ in }) -> Layer {
    var layer = Layer(
      id: "cover", bounds: Rect(origin: .zero, size: rect.size), position: rect.origin, anchorPoint: .zero,
      backgroundColor: solid ? Raster.hex("#224466") : .clear,
      content: solid
        ? .none
        : .gradient(
          GradientContent(colors: stops, locations: [0, 0.55, 1], startPoint: .zero, endPoint: Point(x: 1, y: 1))))
    edit(&layer)
    return layer
  }

  /// What is drawn over the first layer, so that later drawing is checked too.
  static let card = Layer(
    id: "card", bounds: Rect(x: 0, y: 0, width: 30, height: 20), position: Point(x: 40.3, y: 25.6),
    backgroundColor: Raster.hex("#FF8A5B"), cornerRadius: 6, shadowColor: .black, shadowOpacity: 0.5,
    shadowRadius: 3, shadowOffset: Point(x: 0, y: 2))

  static let whole = Rect(x: 0, y: 0, width: 96, height: 60)

  /// First layers the check accepts, and the scale they are drawn at.
  static let accepted: [(String, Layer, Double)] = [
    ("gradient", cover(whole), 1), ("solid", cover(whole, solid: true), 1), ("gradient at 2×", cover(whole), 2),
    ("gradient at 0.5×", cover(whole), 0.5),
    ("larger than the frame", cover(Rect(x: -10, y: -7, width: 130, height: 90)), 1),
    (
      "mirrored",
      cover(whole) {
        $0.transform = LayerTransform(scale: Point(x: -1, y: 1))
        $0.position.x = OverwrittenFrameTests.size.width
      }, 1
    ),
    (
      "clipping its sublayers",
      cover(whole) {
        $0.masksToBounds = true
        $0.sublayers = [card]
      }, 1
    ),
  ]

  /// First layers it must refuse: each leaves pixels unwritten or depends on what they held.
  static let refused: [(String, Layer, Double)] = [
    ("fractional edges at 1.5×", cover(Rect(x: 0, y: 0, width: 95, height: 59)), 1.5),
    ("half a pixel off", cover(Rect(x: 0.5, y: 0, width: 96, height: 60)), 1),
    ("smaller than the frame", cover(Rect(x: 0, y: 0, width: 95, height: 60)), 1),
    ("rounded", cover(whole) { $0.cornerRadius = 8 }, 1),
    (
      "with a shadow",
      cover(whole) {
        $0.shadowOpacity = 0.6
        $0.shadowRadius = 4
      }, 1
    ),
    (
      "translucent stop",
      cover(whole) {
        $0.content = .gradient(GradientContent(colors: [.black, Color(red: 1, green: 0, blue: 0, alpha: 0.5)]))
      }, 1
    ),
    ("translucent colour", cover(whole, solid: true) { $0.backgroundColor.alpha = 0.5 }, 1),
    ("half opaque", cover(whole) { $0.opacity = 0.5 }, 1),
    ("radial", cover(whole) { $0.content = .gradient(GradientContent(kind: .radial, colors: stops)) }, 1),
    ("turned", cover(whole) { $0.transform = LayerTransform(rotation: .pi / 2) }, 1),
    ("hidden", cover(whole) { $0.isHidden = true }, 1),
  ]

  static func tree(_ first: Layer?, emptyFirst: Bool, background: Color) -> RenderTree {
    var layers = [first, card].compactMap { $0 }
    if emptyFirst { layers.insert(Layer(id: "nothing"), at: 0) }
    return Raster.tree(layers, width: size.width, height: size.height, background: background)
  }

  /// A pool holding one buffer of noise of the size of a frame at `scale`.
  static func noisyPool(scale: Double, seed: UInt64) -> FramePool {
    let width = Int((size.width * scale).rounded())
    let height = Int((size.height * scale).rounded())
    var rng = SeededGenerator(seed: seed)
    let pool = FramePool(capacity: 2)
    pool.recycle((0..<(width * 4 * height)).map { _ in UInt8.random(in: 0...255, using: &rng) })
    return pool
  }

  @Test func theCheckAcceptsAndRefusesAsListed() {
    for (name, layer, scale) in Self.accepted {
      let (w, h) = (Int((Self.size.width * scale).rounded()), Int((Self.size.height * scale).rounded()))
      #expect(LayerPainter.paintsEveryPixel(layer, width: w, height: h, scale: scale), "\(name)")
    }
    for (name, layer, scale) in Self.refused {
      let (w, h) = (Int((Self.size.width * scale).rounded()), Int((Self.size.height * scale).rounded()))
      #expect(!LayerPainter.paintsEveryPixel(layer, width: w, height: h, scale: scale), "\(name)")
    }
  }

  @Test(arguments: [Color.clear, Color(red: 0.2, green: 0.9, blue: 0.1, alpha: 0.4), .white])
  func framesOnNoiseEqualClearedFrames(background: Color) throws {
    for (index, (name, layer, scale)) in (Self.accepted + Self.refused).enumerated() {
      let want = try FrameRenderer(scale: scale).render(Self.tree(layer, emptyFirst: true, background: background))
      let pool = Self.noisyPool(scale: scale, seed: UInt64(index))
      let got = try FrameRenderer.wholeFrames(scale: scale, pool: pool).render(
        Self.tree(layer, emptyFirst: false, background: background))
      expectEqual(pool.statistics.reused, 1, "\(name): drawn into the noise")
      expectEqual(got.pixels, want.pixels, "\(name) on \(background)")
    }
  }

  /// Frames redrawn in boxes (damage regions) skip the boxes' clear the same way.
  @Test func redrawnBoxesEqualWholeFrames() throws {
    let renderer = FrameRenderer()
    let (width, height) = (320.0, 200.0)
    for step in 0..<6 {
      var card = Self.card
      card.position.x += Double(step) * 3.7
      card.position.y -= Double(step) * 1.3
      let layers = [Self.cover(Rect(x: 0, y: 0, width: width, height: height)), card]
      let got = try renderer.render(Raster.tree(layers, width: width, height: height, background: .clear))
      let want = try Renderer().render(
        Raster.tree([Layer(id: "nothing")] + layers, width: width, height: height, background: .clear))
      expectEqual(got.pixels, want.pixels, "step \(step)")
    }
    expectGreaterOrEqual(renderer.damageStatistics.partialFrames, 4)
  }
}
