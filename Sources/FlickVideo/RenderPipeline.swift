import FlickMotion
import FlickRaster
import FlickScene
import Foundation

/// The parallel frame pipeline: render trees in order, rasterised by N workers, delivered in order.
///
/// Worker threads take frame numbers in increasing order and evaluate each frame's
/// ``RenderTree`` under the pipeline's lock (cheap, and in timeline order), then rasterise it
/// outside the lock with their own renderer and prepare the pixel layouts the sinks want. A
/// reorder buffer hands finished frames to ``run(frames:tree:scale:layouts:onWorker:deliver:)``'s
/// `deliver` on the calling thread strictly in order. At most ``framesInFlight`` frames exist
/// between being taken by a worker and being delivered, so memory is bounded by that number,
/// never by the length of the video.
///
/// With the default renderer, frames are drawn into buffers from a ``FlickRaster/FramePool``
/// and each delivered frame's buffers (pixels and straight-alpha copy) go back to the pool once
/// `deliver` has returned, so a render allocates about `framesInFlight` frame buffers in all,
/// not one or two per frame. `deliver` must therefore not keep the frame's arrays (if it does,
/// they stay correct: the pool then copies the shared buffer before drawing into it). When the
/// sinks read a frame's yuv420p planes alone (an MP4), the worker is done with the frame once
/// it has converted it, and draws the next one over it in place
/// (``FlickRaster/FrameRenderer/drawsInPlace``): no frame buffer is copied or pooled, and each
/// frame redraws only what changed since that worker's last one.
///
/// A frame whose tree draws the same as the previous frame's (``FlickRaster/Renderer/drawsIdentically(_:_:)``:
/// a hold, a pause, a settled spring) is not rasterised again (``reusesUnchangedFrames``): the
/// previous frame's pixels are delivered once more under the new frame number, with `onWorker`
/// run for it on the calling thread. The decision is made from the trees, never from pixels, and
/// the frames are byte-identical either way, since the renderer draws a tree the same every time.
/// The last delivered frame is kept until the next one is known, one frame buffer more in flight.
/// Such a frame is delivered with ``PreparedFrame/repeatsPrevious`` set.
///
///     let pipeline = RenderPipeline(jobs: 4)
///     try pipeline.run(frames: 0..<scene.frameCount, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) },
///                      scale: 1, layouts: FrameLayouts(sinks: [sink])) { frame in try sink.write(frame) }
public struct RenderPipeline: Sendable {
  /// Makes the renderer one worker uses for all its frames, drawing at the given scale (pixels
  /// per point). Called once on each worker thread; the returned closure is used only on that
  /// thread, so it may keep caches between frames.
  public typealias RendererFactory = @Sendable (_ scale: Double) throws -> (RenderTree) throws -> Frame

  /// Number of raster worker threads (≥ 1).
  public var jobs: Int
  /// Maximum frames between being started and being delivered (≥ `jobs`). A ``RenderSession``
  /// whose frames ffmpeg reads as they render adds a few more when they fit its memory cap
  /// (`RenderSession.encoderLead`).
  public var framesInFlight: Int
  /// The per-worker renderer seam; by default a caching ``FlickRaster/FrameRenderer`` per worker
  /// (byte-identical to ``FlickRaster/Renderer``, faster on consecutive frames) that draws into
  /// pooled buffers. Setting it turns buffer pooling off.
  public var makeRenderer: RendererFactory {
    didSet { usesDefaultRenderer = false }
  }
  /// The buffers the default renderer draws into and delivered frames return to; nil makes a
  /// pool of `2 × framesInFlight + 2` buffers for each run (enough for every frame in flight
  /// and its straight-alpha copy). Unused with a custom ``makeRenderer``.
  package var pool: FramePool?
  /// Whether a frame whose tree draws the same as the previous one reuses its pixels instead of
  /// being rasterised again (default true; the frames are the same either way).
  public var reusesUnchangedFrames = true
  /// Whether a worker that is ``framesInFlight`` frames ahead of delivery once delivery has taken
  /// that many frames (an encoder past its start-up that reads frames more slowly than they are
  /// drawn) lowers its own priority to ``ThreadPriority/yielding`` for the rest of the run
  /// (default false; `RenderSession` sets it with an encoder lead). The encoder, usually x264 on
  /// every core, then runs as soon as it has a frame, and the workers draw while it leaves a core
  /// idle; a render whose workers are slower than its encoder never waits on delivery and keeps
  /// its priority. The frames are the same either way.
  package var yieldsToEncoder = false
  private var usesDefaultRenderer: Bool

  /// The workers a pipeline has by default: the CPUs this process may run on (its affinity mask,
  /// which `taskset`, a cgroup's cpuset or a scheduler's binding lowers; at least 1).
  public static var defaultJobs: Int { MachineCPUs.usable }

  /// A pipeline with `jobs` workers (default: ``defaultJobs``) and at most `framesInFlight`
  /// frames in memory (default `jobs + 1`: one being written while every worker draws).
  public init(
    jobs: Int = RenderPipeline.defaultJobs, framesInFlight: Int? = nil,
    makeRenderer: RendererFactory? = nil
  ) {
    self.jobs = max(1, jobs)
    self.framesInFlight = max(self.jobs, framesInFlight ?? self.jobs + 1)
    self.usesDefaultRenderer = makeRenderer == nil
    self.makeRenderer =
      makeRenderer ?? { scale in
        let renderer = FrameRenderer(scale: scale)
        return { tree in try renderer.render(tree) }
      }
  }

  /// Renders `frames` and delivers each, in order, to `deliver` on the calling thread.
  ///
  /// - Parameters:
  ///   - frames: Frame numbers to render, in order.
  ///   - tree: The render tree of a frame number; called in increasing order, one at a time.
  ///   - scale: Pixels per scene point.
  ///   - layouts: What the sinks read of each frame, which the workers prepare.
  ///   - onWorker: Work done on the raster worker right after a frame is drawn, in any order
  ///     and concurrently (a PNG sequence encodes its files here); an error stops the run.
  ///   - deliver: Consumes a frame; a thrown error stops the workers and is rethrown.
  /// - Throws: The first error from a renderer or from `deliver`.
  package func run(
    frames: Range<Int>, tree: @escaping @Sendable (Int) -> RenderTree, scale: Double = 1, layouts: FrameLayouts,
    onWorker: @escaping @Sendable (PreparedFrame) throws -> Void = { _ in },
    deliver: (PreparedFrame) throws -> Void
  ) throws {
    try run(frames: Array(frames), tree: tree, scale: scale, layouts: layouts, onWorker: onWorker, deliver: deliver)
  }

  /// Renders the frame numbers in `frames` (increasing, not necessarily consecutive: frames no
  /// output needs are left out) and delivers each, in order, to `deliver`, as the form taking a
  /// range does. A frame "repeats" the one delivered before it (``PreparedFrame/repeatsPrevious``).
  package func run(
    frames: [Int], tree: @escaping @Sendable (Int) -> RenderTree, scale: Double = 1, layouts: FrameLayouts,
    onWorker: @escaping @Sendable (PreparedFrame) throws -> Void = { _ in },
    deliver: (PreparedFrame) throws -> Void
  ) throws {
    precondition(zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 }, "frames are rendered in increasing order")
    let state = PipelineState(
      frames: frames, limit: framesInFlight, reusesFrames: reusesUnchangedFrames, yields: yieldsToEncoder)
    let group = DispatchGroup()
    // A frame read only as planes (an MP4 alone) is done with once its worker has converted it:
    // each worker then draws every frame over its last one, in place (FrameRenderer.drawsInPlace),
    // and takes no frame buffers from a pool.
    let inPlace = usesDefaultRenderer && layouts.yuv420 && !layouts.keepsPixels && !layouts.straightAlpha
    let pool = usesDefaultRenderer && !inPlace ? (self.pool ?? FramePool(capacity: 2 * framesInFlight + 2)) : nil
    // The planes of every frame in flight and the one held back.
    let yuvPool = layouts.yuv420 && usesDefaultRenderer ? FramePool(capacity: framesInFlight + 2) : nil
    let factory: RendererFactory =
      if inPlace {
        { scale in
          let renderer = FrameRenderer(scale: scale, drawsInPlace: true)
          return { tree in try renderer.render(tree) }
        }
      } else if let pool {
        { scale in
          let renderer = FrameRenderer(scale: scale, pool: pool)
          return { tree in try renderer.render(tree) }
        }
      } else {
        makeRenderer
      }
    for worker in 0..<min(jobs, max(1, frames.count)) {
      group.enter()
      DrawingThread.start(name: "flick.raster.\(worker)") {
        defer { group.leave() }
        state.work(
          makeRenderer: { try factory(scale) }, tree: tree, layouts: layouts, pool: pool, yuvPool: yuvPool,
          onWorker: onWorker)
      }
    }
    defer {
      state.stop()
      group.wait()
    }
    // The last frame delivered, kept in case the next one repeats it.
    var held: PreparedFrame?
    for (position, index) in frames.enumerated() {
      if let frame = try state.take(position) {
        try deliver(frame)
        // Buffers go back before the slot is freed, so the worker that takes the slot draws into
        // this frame's memory instead of allocating one more buffer.
        if var previous = held.take() { previous.recycle(into: pool, yuv420: yuvPool) }
        held = consume frame
      } else {
        // The tree draws the same as the previous frame's: the same pixels, the next number.
        guard var again = held else { preconditionFailure("only a frame after the first repeats") }
        again.index = index
        again.repeatsPrevious = true
        try onWorker(again)
        try deliver(again)
      }
      state.delivered(position)
    }
    if var last = held.take() { last.recycle(into: pool, yuv420: yuvPool) }
  }
}

/// The shared state of one pipeline run, guarded by a condition variable.
private final class PipelineState: @unchecked Sendable {
  private let condition = NSCondition()
  /// The frame numbers to render; the state counts positions in this list.
  private let frames: [Int]
  private var next = 0
  private let end: Int
  private let limit: Int
  private var nextToDeliver = 0
  /// Frames drawn and not yet delivered, by position.
  private var ready: [Int: PreparedFrame] = [:]
  /// Positions whose tree draws the same as the previous one's: not rasterised.
  private var repeats: Set<Int> = []
  private let reusesFrames: Bool
  /// ``RenderPipeline/yieldsToEncoder``.
  private let yields: Bool
  private var previousTree: RenderTree?
  /// The frame number ``previousTree`` belongs to.
  private var lastTreeIndex: Int?
  private var failure: (any Error)?
  private var stopped = false

  init(frames: [Int], limit: Int, reusesFrames: Bool, yields: Bool) {
    self.frames = frames
    self.end = frames.count
    self.limit = limit
    self.reusesFrames = reusesFrames
    self.yields = yields
  }

  /// A worker's loop: claim the next frame number, evaluate its tree, rasterise, publish.
  func work(
    makeRenderer: () throws -> (RenderTree) throws -> Frame, tree: @Sendable (Int) -> RenderTree, layouts: FrameLayouts,
    pool: FramePool?, yuvPool: FramePool?, onWorker: @Sendable (PreparedFrame) throws -> Void
  ) {
    // This worker's converter (it keeps chroma rows between its stages), made for the first frame.
    var converter: YUV420Converter?
    let render: (RenderTree) throws -> Frame
    do {
      render = try makeRenderer()
    } catch {
      fail(error)
      return
    }
    var yielded = !yields
    while true {
      condition.lock()
      while !stopped && next < end && next - nextToDeliver >= limit {
        // A whole lead ahead after delivery has taken a lead's worth (ffmpeg's start-up is over):
        // the encoder is the slower side, so it goes first from now on.
        if !yielded && nextToDeliver >= limit {
          yielded = true
          ThreadPriority.lower(to: ThreadPriority.yielding)
        }
        condition.wait()
      }
      if stopped || next >= end {
        condition.unlock()
        return
      }
      let position = next
      let index = frames[position]
      next += 1
      // Trees are taken in order under the lock, so this compares each frame with the one before;
      // across frames left out (no output needs them) the chain of comparisons goes through their
      // trees (taken first, in order), so a frame repeats the one delivered before exactly when
      // every frame between them, drawn or not, repeated its predecessor.
      var repeats = reusesFrames && position > 0 && previousTree != nil
      if repeats, let last = lastTreeIndex, last + 1 < index {
        for skipped in (last + 1)..<index {
          let between = tree(skipped)
          if previousTree.map({ Renderer.drawsIdentically($0, between) }) != true {
            repeats = false
            break
          }
          previousTree = between
        }
      }
      let snapshot = tree(index)
      if reusesFrames {
        repeats = repeats && previousTree.map { Renderer.drawsIdentically($0, snapshot) } == true
        previousTree = snapshot
        lastTreeIndex = index
        if repeats {
          self.repeats.insert(position)
          condition.broadcast()
          condition.unlock()
          continue
        }
      }
      condition.unlock()
      do {
        let frame = try render(snapshot)
        // A custom renderer's frame whose pixel array does not match its geometry would send
        // the converters and encoders (C) past the array's end.
        if let mismatch = frame.pixelsMismatch {
          throw VideoError.invalidSize(
            width: frame.width, height: frame.height, reason: "the renderer's frame \(index): \(escaped: mismatch)")
        }
        if layouts.yuv420 && (converter?.width != frame.width || converter?.height != frame.height) {
          // Made again when the size changes. yuv420p needs even sides: a frame without them gets
          // no planes, and the sink that asked reports the size (a custom renderer may draw any).
          converter =
            YUV420Converter.accepts(width: frame.width, height: frame.height)
            ? YUV420Converter(width: frame.width, height: frame.height) : nil
        }
        let prepared = PreparedFrame(
          index: index, frame: consume frame, layouts: layouts, pool: pool, converter: converter, yuvPool: yuvPool)
        try onWorker(prepared)
        condition.lock()
        // `consume` drops this thread's reference now, not at the end of the scope: once the
        // frame is delivered its buffers go back to the pool and must be referenced only there.
        ready[position] = consume prepared
        condition.broadcast()
        condition.unlock()
      } catch {
        fail(error)
        return
      }
    }
  }

  /// Waits for the frame at `position` and removes it from the reorder buffer; nil when the
  /// frame repeats the previous one.
  func take(_ position: Int) throws -> PreparedFrame? {
    condition.lock()
    defer { condition.unlock() }
    while ready[position] == nil && !repeats.contains(position) && failure == nil { condition.wait() }
    if let frame = ready.removeValue(forKey: position) { return frame }
    if failure == nil, repeats.remove(position) != nil { return nil }
    throw failure ?? CancellationError()
  }

  /// Marks the frame at `position` consumed, freeing a slot for the workers.
  func delivered(_ position: Int) {
    condition.lock()
    nextToDeliver = position + 1
    condition.broadcast()
    condition.unlock()
  }

  func fail(_ error: any Error) {
    condition.lock()
    if failure == nil { failure = error }
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  func stop() {
    condition.lock()
    stopped = true
    ready.removeAll()
    condition.broadcast()
    condition.unlock()
  }
}
