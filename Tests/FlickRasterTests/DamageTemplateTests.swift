import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// Every bundled template, every frame: a renderer that redraws only where a frame differs from
/// the one it drew last (damage regions) gives the raw bytes of one that draws every frame whole:
/// in forward order and in a random order (seeks) drawing each frame over the last one in place
/// (``FrameRenderer/drawsInPlace``, as an MP4's workers do), and spread over three workers
/// drawing at once into new buffers.
///
/// `make test` checks every frame at a quarter of each template's size (60 of them in random
/// order); `make check-damage` (`FLICK_DAMAGE_CHECK=full`) checks every frame at full size, all
/// of them in random order too.
@Suite struct DamageTemplateTests {
  static let full = ProcessInfo.processInfo.environment["FLICK_DAMAGE_CHECK"] == "full"
  static let scale = full ? 1 : 0.25

  @Test func everyBundledTemplateIsChecked() {
    expectGreaterOrEqual(StaticPrefixTemplateTests.bundled.count, 10)
  }

  @Test(arguments: StaticPrefixTemplateTests.bundled)
  func damageRegionsGiveTheSameBytes(_ name: String) throws {
    let path = StaticPrefixTemplateTests.templates.appendingPathComponent("\(name).json5").path
    let scene = try Template.load(path: path).scene
    let trees = (0..<scene.frameCount).map { scene.renderTree(at: scene.time(ofFrame: $0)) }
    // Reference: every frame drawn whole (the other caches on, each proven byte-identical to
    // `Renderer` by its own tests).
    let whole = FrameRenderer(scale: Self.scale)
    whole.reusesPreviousFrame = false
    let forward = FrameRenderer(scale: Self.scale, drawsInPlace: true)
    var reference: [Int] = []
    for (n, tree) in trees.enumerated() {
      let expected = try whole.render(tree)
      let got = try forward.render(tree)
      #expect(SameBytes.equal(got.pixels, expected.pixels), "\(name) frame \(n), forward")
      reference.append(StaticPrefixTemplateTests.digest(expected))
    }
    expectEqual(whole.damageStatistics.partialFrames, 0)
    let stats = forward.damageStatistics
    let pixels = trees.isEmpty ? 1 : trees.count * whole.scale.pixelCount(trees[0].size)
    print(
      "\(name): \(stats.partialFrames) of \(trees.count) frames redrawn in part, "
        + "\(100 * stats.redrawnPixels / max(1, pixels)) % of the pixels drawn")
    // Random order, one worker: every frame follows one it has little or nothing in common with.
    var random = SeededGenerator(seed: UInt64(name.utf8.reduce(31) { $0 &* 31 &+ UInt64($1) }))
    let shuffled = FrameRenderer(scale: Self.scale, drawsInPlace: true)
    for n in trees.indices.shuffled(using: &random).prefix(Self.full ? trees.count : 60) {
      let digest = StaticPrefixTemplateTests.digest(try shuffled.render(trees[n]))
      expectEqual(digest, reference[n], "\(name) frame \(n), random order")
    }
    // Three workers at once, each frame to a random one (increasing order with gaps, as a
    // pipeline hands them out): each worker redraws against its own last frame.
    let assignment = trees.indices.map { _ in Int(random.next() % 3) }
    let results = StaticPrefixTemplateTests.Results()
    DispatchQueue.concurrentPerform(iterations: 3) { worker in
      let renderer = FrameRenderer(scale: Self.scale)
      for n in trees.indices where assignment[n] == worker {
        do { results.set(n, StaticPrefixTemplateTests.digest(try renderer.render(trees[n]))) } catch {
          results.fail("frame \(n): \(error)")
        }
      }
    }
    #expect(results.errors.isEmpty)
    let digests = results.all
    for n in trees.indices { expectEqual(digests[n], reference[n], "\(name) frame \(n), three workers") }
  }
}

extension Double {
  /// The pixels of a frame of `size` points drawn at this scale.
  fileprivate func pixelCount(_ size: Size) -> Int {
    Int((size.width * self).rounded()) * Int((size.height * self).rounded())
  }
}
