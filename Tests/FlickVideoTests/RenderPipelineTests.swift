import FlickMotion
import FlickRaster
import FlickScene
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

@Suite struct RenderPipelineTests {
  /// Counters shared by the test renderers on the worker threads.
  final class Probe: Sendable {
    private struct Counts {
      var started = 0
      var delivered = 0
      var maxInFlight = 0
      var factories = 0
    }
    private let counts = Locked(Counts())

    var started: Int { counts.withLock { $0.started } }
    var maxInFlight: Int { counts.withLock { $0.maxInFlight } }
    var factories: Int { counts.withLock { $0.factories } }
    func madeRenderer() { counts.withLock { $0.factories += 1 } }
    func start() {
      counts.withLock {
        $0.started += 1
        $0.maxInFlight = max($0.maxInFlight, $0.started - $0.delivered)
      }
    }
    func deliver() { counts.withLock { $0.delivered += 1 } }
  }

  struct Boom: Error, Equatable { var frame: Int }

  static let scene = TestSupport.movingScene(width: 32, height: 24, fps: 30, duration: 1)

  /// A pipeline whose renderers take an uneven, frame-dependent time, so frames finish out of order.
  static func pipeline(jobs: Int, inFlight: Int? = nil, probe: Probe, failAt: Int? = nil) -> RenderPipeline {
    RenderPipeline(jobs: jobs, framesInFlight: inFlight) { scale in
      probe.madeRenderer()
      let renderer = Renderer(scale: scale)
      return { tree in
        probe.start()
        let index = Int((tree.time * 30).rounded())
        if index == failAt { throw Boom(frame: index) }
        usleep(UInt32((index * 7919) % 5) * 1000)
        return try renderer.render(tree)
      }
    }
  }

  @Test func deliversInOrderWithBoundedFramesInFlight() throws {
    let probe = Probe()
    let scene = Self.scene
    var order: [Int] = []
    try Self.pipeline(jobs: 4, inFlight: 6, probe: probe).run(
      frames: 0..<30, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) }, layouts: .premultipliedAndStraight
    ) { frame in
      order.append(frame.index)
      expectEqual(frame.frame.width, 32)
      expectEqual(frame.straight?.count, 32 * 24 * 4)
      probe.deliver()
    }
    expectEqual(order, Array(0..<30))
    expectLessOrEqual(probe.maxInFlight, 6)
    expectEqual(probe.factories, 4, "one renderer per worker")
  }

  @Test func aRendererErrorStopsTheRun() {
    let probe = Probe()
    let scene = Self.scene
    var delivered: [Int] = []
    #expect(throws: Boom(frame: 9)) {
      try Self.pipeline(jobs: 3, probe: probe, failAt: 9).run(
        frames: 0..<30, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) }, layouts: .premultiplied
      ) { frame in delivered.append(frame.index) }
    }
    expectEqual(delivered, Array(0..<delivered.count))
    expectLessOrEqual(delivered.count, 9)
  }

  @Test func aDeliveryErrorStopsTheWorkers() {
    let probe = Probe()
    let scene = Self.scene
    #expect(throws: Boom(frame: 3)) {
      try Self.pipeline(jobs: 2, probe: probe).run(
        frames: 0..<30, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) }, layouts: .premultiplied
      ) { frame in
        if frame.index == 3 { throw Boom(frame: 3) }
      }
    }
    // The workers stop within the in-flight window (jobs + 1 = 3 frames past the 3 delivered)
    // instead of rendering the rest.
    expectLessOrEqual(probe.started, 3 + 3)
  }

  @Test func straightAlphaDividesByAlpha() {
    // Premultiplied BGRA: opaque, half-transparent, transparent, quarter.
    let premultiplied: [UInt8] = [10, 20, 30, 255, 64, 0, 128, 128, 5, 5, 5, 0, 16, 32, 64, 64]
    expectEqual(
      StraightAlpha.convert(premultiplied), [10, 20, 30, 255, 128, 0, 255, 128, 0, 0, 0, 0, 64, 128, 255, 64])
  }

  /// With no premultiplied reader (a WebM or GIF alone), frames are converted in place: the
  /// same straight bytes, and no straight-alpha buffers beside the frame buffers.
  @Test func straightAloneIsConvertedInPlace() throws {
    let scene = TestSupport.movingScene(width: 32, height: 24, fps: 30, duration: 1, background: .clear)
    /// Per frame: a checksum of the straight bytes and whether any pixel is translucent. (The
    /// arrays themselves are not kept: a kept buffer would be copied when the pool hands it out.)
    func run(keepsPremultiplied: Bool) throws -> (straight: [Int], pool: FramePool.Statistics, translucent: Bool) {
      let pool = FramePool(capacity: 8)
      var pipeline = RenderPipeline(jobs: 2)
      pipeline.pool = pool
      var sums: [Int] = []
      var translucent = false
      try pipeline.run(
        frames: 0..<30, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) },
        layouts: FrameLayouts(straightAlpha: true, keepsPremultiplied: keepsPremultiplied)
      ) { frame in
        let bytes = frame.straight ?? []
        sums.append(bytes.enumerated().reduce(0) { $0 &+ ($1.offset &* 31 &+ Int($1.element)) &* 1_000_003 })
        translucent = translucent || stride(from: 3, to: bytes.count, by: 4).contains { bytes[$0] < 255 }
        #expect(keepsPremultiplied || frame.premultiplied.isEmpty)
      }
      return (sums, pool.statistics, translucent)
    }
    let copied = try run(keepsPremultiplied: true)
    let inPlace = try run(keepsPremultiplied: false)
    expectEqual(inPlace.straight, copied.straight)
    #expect(copied.translucent)
    // Buffers ever allocated: frames in flight only, against frames and their copies.
    expectLess(inPlace.pool.allocated, copied.pool.allocated, "\(inPlace.pool) vs \(copied.pool)")
    expectEqual(inPlace.pool.copied, 0)
  }

  /// With only the yuv420p planes read (an MP4 alone), a worker is done with a frame once it has
  /// converted it and draws the next over it in place: the same planes, no frame buffer taken
  /// from the pool however many frames wait in flight (their planes alone).
  @Test func planesAloneGiveThePixelsBackAtOnce() throws {
    let scene = TestSupport.movingScene(width: 32, height: 24, fps: 30, duration: 1)
    func run(keepsPixels: Bool) throws -> (planes: [Int], pool: FramePool.Statistics) {
      let pool = FramePool(capacity: 40)
      var pipeline = RenderPipeline(jobs: 2, framesInFlight: 16)
      pipeline.pool = pool
      var sums: [Int] = []
      try pipeline.run(
        frames: 0..<30, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) },
        layouts: FrameLayouts(yuv420: true, keepsPixels: keepsPixels)
      ) { frame in
        let planes = frame.yuv420 ?? []
        expectEqual(planes.count, 32 * 24 * 3 / 2)
        sums.append(planes.enumerated().reduce(0) { $0 &+ ($1.offset &* 31 &+ Int($1.element)) &* 1_000_003 })
        expectNotEqual(keepsPixels, frame.premultiplied.isEmpty)
        expectNotEqual(keepsPixels, frame.frame.pixels.isEmpty)
        expectEqual(frame.yuv420Bytes(), planes)
        // The slow reader lets the workers fill every slot in flight.
        usleep(2000)
      }
      return (sums, pool.statistics)
    }
    let kept = try run(keepsPixels: true)
    let given = try run(keepsPixels: false)
    expectEqual(given.planes, kept.planes)
    expectEqual(given.pool, FramePool.Statistics(), "\(given.pool)")
    expectGreater(kept.pool.allocated, 8, "\(kept.pool)")
  }

  @Test func pngSequenceIsByteIdenticalForOneAndFourJobs() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = TestSupport.movingScene(fps: 24, duration: 0.5, background: .clear)
    for jobs in [1, 4] {
      try RenderSession(
        scene: scene, outputs: [try OutputTarget(path: dir.path + "/j\(jobs)/")], pipeline: RenderPipeline(jobs: jobs)
      ).run()
    }
    let names = try TestSupport.contents(dir.appendingPathComponent("j1"))
    expectEqual(names.count, 12)
    try expectEqual(TestSupport.contents(dir.appendingPathComponent("j4")), names)
    var distinct = Set<Data>()
    for name in names {
      let one = try Data(contentsOf: dir.appendingPathComponent("j1/" + name))
      let four = try Data(contentsOf: dir.appendingPathComponent("j4/" + name))
      expectEqual(one, four, "\(name) differs between --jobs 1 and --jobs 4")
      distinct.insert(one)
    }
    expectEqual(distinct.count, names.count, "the card moves, so every frame differs")
  }
}
