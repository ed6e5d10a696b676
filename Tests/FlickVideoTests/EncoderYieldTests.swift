import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@testable import FlickVideo

/// A raster worker that waits on a full encoder lead, once delivery has taken a lead's worth of
/// frames, lowers its own priority (``RenderPipeline/yieldsToEncoder``); a worker that never
/// waits, or a pipeline without the setting, keeps its priority. Each frame records the worker
/// that drew it and that worker's nice value.
@Suite(.enabled(if: ThreadPriority.nice != nil, "threads have a nice value of their own only on Linux"))
struct EncoderYieldTests {
  static let frames = 48
  static let lead = 6

  /// What each frame's worker was when it finished the frame, by frame number.
  struct Drawn {
    /// The worker thread's name (`flick.raster.N`).
    var worker = ""
    var nice: Int32 = -100
  }

  /// Draws ``frames`` frames with two workers; each draw sleeps `drawing` µs, each delivery
  /// `delivering` µs. With `behindDelivery`, the draw of frame n first waits until n − 1 frames
  /// are delivered: workers that never get a lead ahead of delivery whatever the load of the
  /// machine (when a worker asks for its next frame at most 4 are in flight, under the lead of 6).
  ///
  /// The wait goes by frame number, which a worker learns as the pipeline asks it for the frame's
  /// tree just before the draw. Going by the order in which draws start instead could deadlock: a
  /// worker descheduled between taking frame n and starting its draw starts after the other
  /// worker's draws of the frames after n, and then waits on deliveries that need frame n.
  static func drawn(yields: Bool, drawing: UInt32, delivering: UInt32, behindDelivery: Bool = false) throws
    -> [Drawn]
  {
    let progress = NSCondition()
    nonisolated(unsafe) var delivered = 0
    // The frame each worker thread was last given a tree for, by thread name.
    let given = Locked([String: Int]())
    var pipeline = RenderPipeline(jobs: 2, framesInFlight: lead) { _ in
      { _ in
        if behindDelivery {
          let n = try #require(given.withLock { $0[Thread.current.name ?? ""] })
          progress.lock()
          while delivered < n - 1 { progress.wait() }
          progress.unlock()
        }
        if drawing > 0 { usleep(drawing) }
        return Frame(width: 2, height: 2)
      }
    }
    pipeline.reusesUnchangedFrames = false
    pipeline.yieldsToEncoder = yields
    let scene = Scene(size: Size(width: 2, height: 2), fps: 10, duration: 1, layers: [])
    let drawn = Locked([Drawn](repeating: Drawn(), count: frames))
    try pipeline.run(
      frames: 0..<frames,
      tree: { n in
        given.withLock { $0[Thread.current.name ?? ""] = n }
        return scene.renderTree(at: scene.time(ofFrame: n))
      }, layouts: FrameLayouts(),
      onWorker: { frame in
        let one = Drawn(worker: Thread.current.name ?? "", nice: ThreadPriority.nice ?? -100)
        drawn.withLock { $0[frame.index] = one }
      }
    ) { _ in
      if delivering > 0 { usleep(delivering) }
      progress.lock()
      delivered += 1
      progress.broadcast()
      progress.unlock()
    }
    return drawn.withLock { $0 }
  }

  @Test func workersAheadOfASlowerEncoderYieldToIt() throws {
    let base = try #require(ThreadPriority.nice)
    let drawn = try Self.drawn(yields: true, drawing: 0, delivering: 3000)
    // The first lead's worth of frames is drawn before delivery has taken any: full priority.
    for n in 0..<Self.lead { expectEqual(drawn[n].nice, base, "frame \(n)") }
    // Drawing takes no time, so each worker waits on the full lead again after every frame: its
    // last frame (long after delivery has taken a lead's worth) is drawn at the lower priority.
    // (Which frames before it a worker drew yielded depends on when it was scheduled.)
    let yielding = max(base, ThreadPriority.yielding)
    var checked = 0
    for worker in Set(drawn.map(\.worker)) {
      guard let last = drawn.indices.last(where: { drawn[$0].worker == worker }), last >= 3 * Self.lead else {
        continue
      }
      expectEqual(drawn[last].nice, yielding, "\(worker), frame \(last)")
      checked += 1
    }
    expectGreaterOrEqual(checked, 1)
    expectEqual(drawn.last?.nice, yielding)
  }

  @Test func workersSlowerThanTheirEncoderKeepTheirPriority() throws {
    let base = try #require(ThreadPriority.nice)
    let drawn = try Self.drawn(yields: true, drawing: 0, delivering: 0, behindDelivery: true)
    for n in 0..<Self.frames { expectEqual(drawn[n].nice, base, "frame \(n)") }
  }

  @Test func withoutTheSettingNoWorkerYields() throws {
    let base = try #require(ThreadPriority.nice)
    let drawn = try Self.drawn(yields: false, drawing: 0, delivering: 3000)
    for n in 0..<Self.frames { expectEqual(drawn[n].nice, base, "frame \(n)") }
  }

  /// The priority is the worker thread's alone: the thread that runs the pipeline keeps its own.
  @Test func theCallingThreadKeepsItsPriority() throws {
    let before = try #require(ThreadPriority.nice)
    _ = try Self.drawn(yields: true, drawing: 0, delivering: 3000)
    expectEqual(ThreadPriority.nice, before)
  }
}
