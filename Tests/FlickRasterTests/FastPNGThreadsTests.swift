import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// Flick's PNG encoder on two threads (`flick_fastpng_encode_threads`, used by `flick still` and
/// the studio's frames) writes the very bytes it writes on one: the second half of the deflate
/// blocks is deflated from a guessed hash and kept only when no probe would have found another
/// match with the real one, else deflated again. Both outcomes are checked, the second by a
/// guess that real frames contradict (an empty hash).
@Suite struct FastPNGThreadsTests {
  /// Expects the same bytes from one thread, two with the usual guess and two with the empty
  /// one; returns whether each two-thread encoding deflated its second half again.
  @discardableResult
  static func expectSameBytes(
    _ frame: Frame, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> (warm: Bool, cold: Bool) {
    let one = frame.encodedPNG(threads: 1).png
    let warm = frame.encodedPNG(threads: 2).png
    let cold = frame.encodedPNG(threads: 2, warmGuess: false).png
    #expect(one != nil, "\(name): encoded", sourceLocation: sourceLocation)
    #expect(warm != nil, "\(name): encoded", sourceLocation: sourceLocation)
    #expect(cold != nil, "\(name): encoded", sourceLocation: sourceLocation)
    guard let one, let warm, let cold else { return (false, false) }
    #expect(!one.redone, "\(name): one thread guesses nothing", sourceLocation: sourceLocation)
    expectEqual(one.data, warm.data, "\(name): two threads (usual guess), same bytes", sourceLocation: sourceLocation)
    expectEqual(one.data, cold.data, "\(name): two threads (empty guess), same bytes", sourceLocation: sourceLocation)
    return (warm.redone, cold.redone)
  }

  /// Rendered frames of several deflate blocks (128 KiB of filtered rows each): the usual guess
  /// holds on them, the empty one does not, and the bytes are the same either way.
  @Test func renderedFramesGiveTheSameBytes() throws {
    let scene = CompositeScenes.cards(size: Size(width: 640, height: 400))
    var warmHeld = 0
    var coldRedone = 0
    for n in stride(from: 0, to: scene.frameCount, by: max(1, scene.frameCount / 3)) {
      let frame = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: n)))
      let redone = Self.expectSameBytes(frame, "cards-\(n)")
      if !redone.warm { warmHeld += 1 }
      if redone.cold { coldRedone += 1 }
    }
    expectGreater(warmHeld, 0, "the usual guess held on some frame (the two halves ran side by side)")
    expectGreater(coldRedone, 0, "the empty guess failed on some frame (the half was deflated again)")
  }

  /// Seeded mixtures of runs, noise and copies at distances up to 40,000 bytes (hash matches
  /// that reach across the split), opaque and translucent, from two blocks to about twenty.
  @Test func seededMixturesGiveTheSameBytes() {
    var random = SeededGenerator(seed: 0x7EAD_5EED)
    for n in 0..<10 {
      let width = Int.random(in: 200...900, using: &random)
      let height = Int.random(in: 120...500, using: &random)
      let rowBytes = width * 4 + 4 * Int.random(in: 0...2, using: &random)
      let frame = PNGMixture.frame(
        width: width, height: height, bytesPerRow: rowBytes, longestPiece: 4000, translucent: n % 3 == 0,
        using: &random)
      Self.expectSameBytes(frame, "mixture-\(n)-\(width)x\(height)")
    }
  }

  /// A frame whose lower half repeats its upper half (every probe after the split finds its
  /// copy), and sizes at the edges of the split: one block (no second thread), two, a last block
  /// of one byte, one row of several blocks (no half of rows to filter).
  @Test func repeatsAndEdgeSizes() {
    let top = FastPNGEncoderTests.frame(600, 150) { x, y in
      FastPNGEncoderTests.premultiplied((x * 7 + y * 3) % 256, (x ^ y) % 256, y % 256, 255)
    }
    let twice = Frame(
      width: 600, height: 300, bytesPerRow: top.bytesPerRow, pixels: top.pixels + top.pixels)
    Self.expectSameBytes(twice, "repeated-halves")
    // Opaque rows of 3 · width + 1 bytes: 2 × 65,536 is one block exactly, 5 × 52,429 two
    // blocks and a byte; a single row never splits.
    let sizes = [(43_690, 1), (100_000, 1), (1000, 43), (1000, 87), (1000, 88), (21_845, 2), (17_476, 5), (13_107, 10)]
    for (width, height) in sizes {
      let frame = FastPNGEncoderTests.frame(width, height) { x, y in
        (UInt8(x % 251), UInt8((x / 7 + y) % 256), UInt8(y % 256), 255)
      }
      Self.expectSameBytes(frame, "\(width)x\(height)")
    }
  }
}
