import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// Gradient pictures drawn ahead on a second thread (`GradientPrefetch`, used by `flick still`
/// and `Renderer.render`) give the bytes of a frame drawn on one thread: for every bundled
/// template at five instants, with the helper off, drawing beside the frame and drawing every
/// predicted picture before the frame starts (so that each is taken, not drawn again).
@Suite struct GradientPrefetchTests {
  static let templates = StaticPrefixTemplateTests.templates
  static let bundled = StaticPrefixTemplateTests.bundled

  static func render(_ tree: RenderTree, _ mode: GradientPrefetch.Mode) throws -> (Frame, GradientPrefetch.Statistics) {
    var statistics = GradientPrefetch.Statistics()
    let frame = try Renderer.render(
      tree, scale: 1, cache: nil, arena: PixelArena(), text: TextContext(ownFontMap: false), prefetch: mode,
      report: { statistics = $0 })
    return (frame, statistics)
  }

  @Test(arguments: bundled)
  func picturesDrawnAheadGiveTheSameBytes(_ name: String) throws {
    let scene = try Template.load(path: Self.templates.appendingPathComponent("\(name).json5").path).scene
    var taken = 0
    for fraction in [0, 0.2, 0.5, 0.8, 1] {
      let frame = Int((Double(scene.frameCount - 1) * fraction).rounded())
      let tree = scene.renderTree(at: scene.time(ofFrame: frame))
      let (alone, _) = try Self.render(tree, .off)
      let (first, statistics) = try Self.render(tree, .first)
      let (beside, _) = try Self.render(tree, .beside)
      #expect(SameBytes.equal(alone.pixels, first.pixels), "\(name) frame \(frame): pictures drawn first")
      #expect(SameBytes.equal(alone.pixels, beside.pixels), "\(name) frame \(frame): pictures drawn beside")
      // Drawn before the frame started, every picture drawn ahead is one the frame asks for.
      expectEqual(statistics.taken, statistics.drawn, "\(name) frame \(frame): \(statistics)")
      taken += statistics.taken
    }
    // The templates with gradient layers outside groups have their pictures predicted.
    if ["card-swap", "rotating-cover", "frosted-player", "swipe-deck"].contains(name) {
      expectGreater(taken, 0, "\(name): no picture was predicted")
    }
  }

  /// Predicted keys that the frame never asks for only cost the helper's time: a prefetch told to
  /// draw a picture for a key that no layer has leaves the frame as it was, and nothing is taken.
  @Test func aWrongPredictionIsNeverUsed() throws {
    let scene = try Template.load(path: Self.templates.appendingPathComponent("card-swap.json5").path).scene
    let tree = scene.renderTree(at: 0)
    let (alone, _) = try Self.render(tree, .off)
    let layers = Layer(id: "", sublayers: tree.layers).sublayersInDrawingOrder
    let width = Int(tree.size.width)
    let height = Int(tree.size.height)
    var jobs = GradientPrefetch.jobs(for: layers, scale: 1, width: width, height: height)
    try #require(!jobs.isEmpty)
    // Every picture drawn half a pixel off: keys that differ from the frame's in their matrix.
    for i in jobs.indices {
      jobs[i].matrix.x0 += 0.5
      jobs[i].key = GradientKey(
        gradient: jobs[i].gradient, of: jobs[i].layer, matrix: jobs[i].matrix, area: jobs[i].area)
    }
    let prefetch = GradientPrefetch(jobs: jobs)
    prefetch.start(wait: true)
    let painter = LayerPainter(
      cache: nil, arena: PixelArena(), text: TextContext(ownFontMap: false), targetWidth: width, targetHeight: height)
    painter.prefetch = prefetch
    let frame = try FrameCanvas.draw(
      width: width, height: height, fill: tree.backgroundColor, pool: nil, initial: nil, overwritten: false
    ) { cr, _ throws(RasterError) in
      for layer in layers { try painter.draw(layer, in: cr) }
    }
    let statistics = prefetch.finish()
    expectEqual(statistics.drawn, jobs.count)
    expectEqual(statistics.taken, 0)
    #expect(SameBytes.equal(alone.pixels, frame.pixels))
  }
}
