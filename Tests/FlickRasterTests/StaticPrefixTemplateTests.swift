import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// Every bundled template, every frame: the caching renderer gives the same bytes with the kept
/// static prefix and kept groups as without them, in forward order, in a random order and spread
/// over several workers drawing at the same time.
///
/// `make test` checks every frame at a quarter of each template's size (60 of them in random
/// order); `make fuzz-raster` (`FLICK_RASTER_CHECK=full`) checks every frame at full size, all
/// of them in random order too.
@Suite struct StaticPrefixTemplateTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let templates = root.appendingPathComponent("Templates")
  /// Every bundled template, by name.
  static let bundled: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? []
    return names.filter { $0.hasSuffix(".json5") }.map { String($0.dropLast(6)) }.sorted()
  }()
  static let full = ProcessInfo.processInfo.environment["FLICK_RASTER_CHECK"] == "full"
  static let scale = full ? 1 : 0.25

  /// A digest of a frame's bytes (frames are compared by digest so that a full-size check of a
  /// long template does not hold every frame).
  static func digest(_ frame: Frame) -> Int {
    var hasher = Hasher()
    hasher.combine(frame.width)
    hasher.combine(frame.height)
    frame.pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
    return hasher.finalize()
  }

  /// Frame digests and failures, from the worker threads.
  final class Results: Sendable {
    private let state = Locked((digests: [Int: Int](), failures: [String]()))
    func set(_ n: Int, _ d: Int) { state.withLock { $0.digests[n] = d } }
    func fail(_ s: String) { state.withLock { $0.failures.append(s) } }
    var all: [Int: Int] { state.withLock { $0.digests } }
    var errors: [String] { state.withLock { $0.failures } }
  }

  @Test func everyBundledTemplateIsChecked() {
    expectGreaterOrEqual(Self.bundled.count, 10)
    #expect(Self.bundled.contains("rotating-cover"))
  }

  @Test(arguments: bundled)
  func keptPrefixGivesTheSameBytes(_ name: String) throws {
    let scene = try Template.load(path: Self.templates.appendingPathComponent("\(name).json5").path).scene
    let scale = Self.scale
    let trees = (0..<scene.frameCount).map { scene.renderTree(at: scene.time(ofFrame: $0)) }
    // Reference: the caching renderer with the prefix and kept groups switched off (itself
    // byte-identical to `Renderer`, DeterminismTests).
    let plain = FrameRenderer.wholeFrames(scale: scale)
    plain.reusesStaticPrefix = false
    plain.reusesGroups = false
    let reference = try trees.map { try Self.digest(plain.render($0)) }
    expectEqual(plain.prefixStatistics.framesReused, 0)
    // Forward.
    let forward = FrameRenderer.wholeFrames(scale: scale)
    for (n, tree) in trees.enumerated() {
      try expectEqual(Self.digest(forward.render(tree)), reference[n], "\(name) frame \(n), forward")
    }
    let reused = forward.prefixStatistics
    print(
      "\(name): \(reused.framesReused) of \(trees.count) frames started from kept pixels (\(reused.layersReused) layers, "
        + "\(reused.framesStartedInside) inside a layer); "
        + "\(forward.keptGroupHits) groups composited from kept pixels")
    // Random order, one worker.
    var random = SeededGenerator(seed: UInt64(name.utf8.reduce(18) { $0 &* 31 &+ UInt64($1) }))
    let shuffled = FrameRenderer.wholeFrames(scale: scale)
    for n in trees.indices.shuffled(using: &random).prefix(Self.full ? trees.count : 60) {
      try expectEqual(Self.digest(shuffled.render(trees[n])), reference[n], "\(name) frame \(n), random order")
    }
    // Three workers at once, each frame to a random one (each worker in increasing order, as a
    // pipeline hands them out, but with gaps of any length).
    let assignment = trees.indices.map { _ in Int(random.next() % 3) }
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 3) { worker in
      let renderer = FrameRenderer.wholeFrames(scale: scale)
      for n in trees.indices where assignment[n] == worker {
        do { results.set(n, Self.digest(try renderer.render(trees[n]))) } catch { results.fail("frame \(n): \(error)") }
      }
    }
    #expect(results.errors.isEmpty)
    let digests = results.all
    for n in trees.indices { expectEqual(digests[n], reference[n], "\(name) frame \(n), three workers") }
  }
}
