import FlickMotion
import FlickRaster
import FlickScene
import Foundation

/// Renders a ``Scene`` once and streams every frame to all requested outputs, so several
/// outputs share one rasterisation; outputs appear at their destinations only when every one
/// of them succeeded.
///
///     var session = RenderSession(scene: scene, outputs: [try OutputTarget(path: "a.mp4"),
///                                                         try OutputTarget(path: "frames/")])
///     session.pipeline = RenderPipeline(jobs: 4)
///     let summary = try session.run()
public struct RenderSession: Sendable {
  /// The scene to render.
  public var scene: Scene
  /// Where the frames go.
  public var outputs: [OutputTarget]
  /// Frame numbers to render (default: all); output timing starts at the first.
  public var frames: Range<Int>?
  /// Pixels per scene point (the output is `scene.size × scale`, rounded).
  public var scale: Double
  /// Encoder settings.
  public var options: EncodingOptions
  /// The raster workers.
  public var pipeline: RenderPipeline
  /// Render and discard every frame in addition to (or instead of) the outputs.
  package var discardFrames: Bool
  /// The ffmpeg to use; nil finds one on `PATH` (or `FLICK_FFMPEG`) and checks it only when an
  /// encoder fails (through ``ffmpegProbe`` when that is set, else a probe of its own).
  package var ffmpeg: FFmpegTool?
  /// The ffmpeg to check, used when ``ffmpeg`` is nil: the encoders start with its executable
  /// at once and the check runs only when an encoder fails, to explain why (a missing encoder,
  /// a too-old or broken ffmpeg); a failed check's error replaces the encoder's.
  package var ffmpegProbe: FFmpegTool.Probe?
  /// Caps on pixels, frames, work, memory and encoder stalls (defaults:
  /// ``RenderLimits/init(maximumPixels:maximumFrames:maximumMemory:encoderTimeout:maximumWork:)``).
  package var limits = RenderLimits()
  /// What each layer's content adds to the memory estimate (``MemoryEstimate/defaultContentBytes``
  /// by default; set it to count content kinds more precisely).
  package var contentBytes: MemoryEstimate.ContentBytes = MemoryEstimate.defaultContentBytes
  /// The files the render reads (the template, its params files, its assets): no output may
  /// replace one (``refuseOutputsOverInputs(_:)``, part of every ``validate()``).
  package var inputs: [String] = []

  public init(
    scene: Scene, outputs: [OutputTarget], frames: Range<Int>? = nil, scale: Double = 1,
    options: EncodingOptions = EncodingOptions(), pipeline: RenderPipeline = RenderPipeline(),
    discardFrames: Bool = false, ffmpeg: FFmpegTool? = nil
  ) {
    self.scene = scene
    self.outputs = outputs
    self.frames = frames
    self.scale = scale
    self.options = options
    self.pipeline = pipeline
    self.discardFrames = discardFrames
    self.ffmpeg = ffmpeg
  }

  /// Output frame width in pixels: the canvas width × ``scale``, rounded to the nearest pixel.
  public var width: Int { Renderer.pixelSize(of: scene.size, scale: scale).width }
  /// Output frame height in pixels.
  public var height: Int { Renderer.pixelSize(of: scene.size, scale: scale).height }

  /// Checks everything that can be checked before rendering: the frame range, the size and
  /// every encoder option.
  ///
  /// - Throws: ``VideoError`` (``VideoError/isInvalidInput`` tells usage errors apart).
  public func validate() throws(VideoError) {
    _ = try checkedSchedule()
  }

  /// Checks what ``validate()`` checks and returns the render's ``FrameSchedule``.
  ///
  /// - Throws: ``VideoError`` (``VideoError/isInvalidInput`` tells usage errors apart).
  package func checkedSchedule() throws(VideoError) -> FrameSchedule {
    // The scene first: its size, duration and fps are finite and in range before anything below
    // counts its frames or sizes its pixels. Every animation names a real layer and every
    // scene-building call was valid (one throw).
    do { try scene.validate() } catch { throw .invalidOption("the scene: \(escaped: error.description)") }
    let range = frames ?? 0..<scene.frameCount
    guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= scene.frameCount else {
      throw .invalidOption(
        "the frame range \(range.lowerBound)..\(range.upperBound - 1) is outside the scene's frames 0..\(scene.frameCount - 1)"
      )
    }
    guard Renderer.pixelSides.contains(width), Renderer.pixelSides.contains(height) else {
      throw .invalidSize(
        width: width, height: height,
        reason: Renderer.sideRefusal(canvas: scene.size, scale: "--scale")
          + " for this \(escaped: Renderer.points(scene.size.width))×\(escaped: Renderer.points(scene.size.height)) canvas"
      )
    }
    try limits.check(frames: range.count, width: width, height: height, samples: scene.motionBlur?.samples ?? 1)
    guard fittedPipeline != nil else {
      let estimate = memoryEstimate(jobs: 1, lead: 0)
      let cap = limits.maximumMemory
      // In whole MiB, rounded up: the cap to give, as `--max-memory` reads it.
      let needed = (MemoryWatch.capNeeded(for: estimate.total, frameBytes: frameBytes) + (1 << 20) - 1) >> 20
      throw .overLimit(
        "rendering \(width)×\(height) frames needs \(escaped: estimate.summary) with one worker, more than the "
          + "memory cap of \(RenderLimits.format(bytes: cap)) leaves once the memory watch's margin of "
          + "\(RenderLimits.format(bytes: cap - memoryBudget)) is kept (\(RenderLimits.format(bytes: memoryBudget))); "
          + "it needs --max-memory \(quoted: needed)M or more (or FLICK_MAX_MEMORY; a smaller --scale needs less)")
    }
    for output in outputs {
      if let reason = RenderLimits.encoderRefuses(output.format, width: width, height: height) {
        throw .invalidSize(width: width, height: height, reason: "\(quoted: output.path): \(escaped: reason)")
      }
    }
    guard !outputs.isEmpty || discardFrames else { throw .invalidOption("no output was given") }
    try checkOutputPaths()
    for output in outputs where output.format == .png {
      try PNGSequenceWriter.refuseTakenFrameNames(
        destination: output.path, frames: range, lastIndex: range.upperBound - 1)
    }
    try refuseOutputsOverInputs(inputs)
    try refuseInputNames()
    if options.maxSize != nil {
      for output in outputs {
        if let reason = OutputBudget.refusal(for: output.format) {
          throw .invalidOption("--max-size cannot fit \(quoted: output.path): \(escaped: reason)")
        }
      }
    }
    let schedule = try self.schedule()
    for (output, plan) in zip(outputs, schedule.outputs) where output.format.usesFFmpeg {
      _ = try FFmpegCommand(
        format: output.format, width: width, height: height, fps: plan.fps, options: options, output: "x",
        canvas: scene.size)
    }
    return schedule
  }

  /// Which frames the render draws and which each output keeps, at what rate
  /// (``FrameSchedule``): the one place that decides it, for the pipeline, the sinks, the
  /// summary and the CLI.
  ///
  /// - Throws: ``VideoError/invalidOption(_:)`` for a GIF rate that does not fit the render.
  package func schedule() throws(VideoError) -> FrameSchedule {
    try FrameSchedule(
      renderFPS: scene.fps, frames: frames ?? 0..<scene.frameCount, outputs: outputs.map(\.format), options: options,
      everyFrame: discardFrames)
  }

  /// About how much memory the render needs at its peak with the pipeline's workers, in bytes
  /// (``MemoryEstimate``).
  public var estimatedMemory: Int { memoryEstimate(jobs: pipeline.jobs).total }

  /// The most memory the workers may fill ahead of an encoder, in bytes (64 MiB): see
  /// ``encoderLead``.
  package static let encoderLeadBytes = 64 << 20
  /// The most frames the workers may draw ahead of an encoder (32).
  package static let maximumEncoderLead = 32

  /// Frames the workers may draw beyond the pipeline's `framesInFlight` when ffmpeg reads an
  /// output's frames as they render (``OutputFormat/streamsToFFmpeg``; 0 otherwise, a GIF alone
  /// included): while ffmpeg starts (about 0.1 s on one core before it reads a
  /// frame) and later while it works on frames it already has and reads none (x264's frame
  /// threads waiting on one another), the workers go on drawing instead of leaving a core idle.
  /// Up to ``maximumEncoderLead`` frames within ``encoderLeadBytes``
  /// (``MemoryEstimate/bytesPerFrameInFlight(width:height:outputs:)`` each): for an MP4 alone,
  /// whose frames wait as yuv420p planes, 32 at 1280×720, 21 at 1920×1080, 5 at 3840×2160.
  /// The frames, and so the outputs, are the same whatever the lead.
  package var encoderLead: Int {
    guard outputs.contains(where: { $0.format.streamsToFFmpeg }) else { return 0 }
    let frame = MemoryEstimate.bytesPerFrameInFlight(width: width, height: height, outputs: outputs.map(\.format))
    return min(Self.maximumEncoderLead, Self.encoderLeadBytes / max(1, frame))
  }

  /// The memory estimate of this render with `jobs` workers (and as many fewer frames in flight)
  /// and `lead` more frames in flight ahead of the encoders (``encoderLead`` when nil).
  package func memoryEstimate(jobs: Int, lead: Int? = nil) -> MemoryEstimate {
    MemoryEstimate(
      scene: scene, width: width, height: height, scale: scale, jobs: jobs,
      framesInFlight: framesInFlight(jobs: jobs) + (lead ?? encoderLead), outputs: outputs.map(\.format),
      preset: options.preset, content: contentBytes)
  }

  /// The pipeline's frames in flight with `jobs` of its workers: one fewer for each worker left out.
  private func framesInFlight(jobs: Int) -> Int {
    max(jobs, pipeline.framesInFlight - (pipeline.jobs - jobs))
  }

  /// The bytes of one output frame's pixels (the memory watch's margin depends on it).
  package var frameBytes: Int { width * height * 4 }

  /// What the render's estimate may reach under the memory cap, in bytes: the cap less the
  /// memory watch's margin for this render's frames (``RenderLimits/memoryBudget(frameBytes:)``).
  package var memoryBudget: Int { limits.memoryBudget(frameBytes: frameBytes) }

  /// ``pipeline`` with as many of its workers as fit under the memory cap less the memory
  /// watch's margin (``memoryBudget``, by the estimate), and
  /// the ``encoderLead`` when that fits too, or nil when not even one worker does. The frames are
  /// the same whatever the number of workers and frames in flight.
  package var fittedPipeline: RenderPipeline? {
    let lead = encoderLead
    for jobs in stride(from: pipeline.jobs, through: 1, by: -1) {
      for extra in lead > 0 ? [lead, 0] : [0]
      where memoryEstimate(jobs: jobs, lead: extra).total <= memoryBudget {
        var fitted = pipeline
        fitted.jobs = jobs
        fitted.framesInFlight = framesInFlight(jobs: jobs) + extra
        fitted.yieldsToEncoder = extra > 0
        return fitted
      }
    }
    return nil
  }

  /// Renders every frame to every output.
  ///
  /// - Parameter progress: Called on the calling thread after every frame, at each stage, and
  ///   as the finish stage advances (``RenderProgress/step``: a GIF's encoding pass, gifsicle,
  ///   each `--max-size` encoding).
  /// - Returns: What was written.
  /// - Throws: ``VideoError`` or ``FlickRaster/RasterError``; no output is then left
  ///   half-written and existing destinations are untouched.
  @discardableResult
  public func run(progress: (RenderProgress) -> Void = { _ in }) throws -> RenderSummary {
    try run(beforeFirstFrame: {}, progress: progress)
  }

  /// Renders every frame to every output, once `beforeFirstFrame` has succeeded.
  ///
  /// - Parameters:
  ///   - beforeFirstFrame: Work that must pass before the first frame reaches the outputs (the
  ///     glyph check of `flick render`, running beside the encoders' start-up), called once on
  ///     the calling thread; what it throws stops the render before any output is complete.
  ///   - early: Encoders started before the scene was complete (``EarlyEncoders``): each one
  ///     started with exactly the settings this render needs is used, the others are stopped; on
  ///     return or failure none is left running.
  ///   - progress: As for ``run(progress:)``.
  @discardableResult
  package func run(
    early: EarlyEncoders? = nil, beforeFirstFrame: () throws -> Void, progress: (RenderProgress) -> Void
  ) throws -> RenderSummary {
    try draw(early: early, beforeFirstFrame: beforeFirstFrame, progress: progress).finish(progress: progress)
  }

  /// Draws every frame into every output and stops there: each output has all its frames, but
  /// its encoder has not finished (a GIF's encoding pass and gifsicle are still to run) and no
  /// destination is touched yet. ``RenderFinish/finish(beforeCommit:progress:)`` completes the render, on
  /// this thread or another (`flick run` finishes one job while it draws the next);
  /// ``run(early:beforeFirstFrame:progress:)`` is the two, one after the other.
  ///
  /// - Parameters: As for ``run(early:beforeFirstFrame:progress:)``; `progress` sees the render
  ///   stage and the start of the finish stage.
  /// - Throws: As ``run(progress:)`` does; every output is then already aborted.
  package func draw(
    early: EarlyEncoders? = nil, beforeFirstFrame: () throws -> Void, progress: (RenderProgress) -> Void
  ) throws -> RenderFinish {
    defer { early?.abortUnclaimed() }
    // SIGPIPE and SIGXFSZ ignored: a dead encoder or a file-size limit is an error, not a kill.
    _ = PipeWriter.ignoreSIGPIPE
    let schedule = try checkedSchedule()
    // Fewer workers when the estimate says all of them would not fit under the memory cap.
    let pipeline = fittedPipeline ?? self.pipeline
    let range = frames ?? 0..<scene.frameCount
    var options = self.options
    options.padColor = Self.rgb(scene.backgroundColor)
    let needsFFmpeg = outputs.contains { $0.format.usesFFmpeg }
    // The check that explains an encoder's failure (run only then: an ffmpeg start-up of its own).
    let pending = needsFFmpeg && ffmpeg == nil ? ffmpegProbe ?? FFmpegTool.Probe(for: outputs.map(\.format)) : nil
    let tool: FFmpegTool?
    if let pending {
      tool = try pending.unchecked()
    } else {
      tool = needsFFmpeg ? ffmpeg : nil
    }

    var sinks: [any FrameSink] = []
    do {
      for (index, (output, plan)) in zip(outputs, schedule.outputs).enumerated() {
        let settings = EarlyEncoders.Settings(
          destination: output.path, format: output.format, width: width, height: height, fps: plan.fps,
          options: options, stallTimeout: limits.encoderTimeout)
        if let started = early?.claim(index, settings) {
          sinks.append(started)
        } else if output.format == .png {
          sinks.append(
            try PNGSequenceWriter(
              destination: output.path, lastIndex: range.upperBound - 1, sceneLastIndex: scene.frameCount - 1))
        } else if output.format == .bgra {
          sinks.append(try RawVideoWriter(destination: output.path))
        } else if let tool {
          sinks.append(
            try plan.encoder(
              destination: output.path, width: width, height: height, options: options, ffmpeg: tool,
              stallTimeout: limits.encoderTimeout,
              firstGIF: FrameSchedule.Output.isFirstGIF(index, in: schedule.outputs)))
        }
      }
      // Each output takes the frames it keeps; the discarding sink takes every frame rendered.
      var deliveries = schedule.outputs.map { FrameSchedule.Delivery($0, first: range.lowerBound) }
      let discarding = discardFrames ? DiscardingSink() : nil
      let all: [any FrameSink] = sinks + (discarding.map { [$0 as any FrameSink] } ?? [])
      StartupTrace.mark("outputs opened (encoders started)")
      let total = schedule.rendered.count
      let scene = self.scene
      progress(RenderProgress(stage: .render, framesDone: 0, totalFrames: total))
      var done = 0
      let steps = all.compactMap(\.workerStep)
      try pipeline.run(
        frames: schedule.rendered, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) }, scale: scale,
        layouts: FrameLayouts(sinks: all), onWorker: { frame in for step in steps { try step(frame) } }
      ) { frame in
        if done == 0 {
          StartupTrace.mark("first frame rendered")
          try beforeFirstFrame()
        }
        for (i, sink) in sinks.enumerated() {
          if let kept = deliveries[i].admit(frame) { try sink.write(kept) }
        }
        try discarding?.write(frame)
        if done == 0 { StartupTrace.mark("first frame written") }
        done += 1
        try checkMemory()
        progress(RenderProgress(stage: .render, framesDone: done, totalFrames: total))
      }
      progress(RenderProgress(stage: .finish, framesDone: total, totalFrames: total))
      StartupTrace.mark("last frame written")
      return RenderFinish(
        outputs: sinks, discarding: discarding, frames: total, probe: pending, summary: summary(schedule: schedule))
    } catch {
      for sink in sinks { sink.abort() }
      throw RenderFinish.explained(error, by: pending)
    }
  }

  /// Stops the run when the resident memory of the process and its ffmpeg processes has passed
  /// the cap (checked after every frame; `flick` also runs ``MemoryWatch``, which does not wait
  /// for a frame to end).
  private func checkMemory() throws(VideoError) {
    let resident = MemoryWatch.residentBytes()
    guard resident <= limits.maximumMemory else {
      throw .limitReached(
        "the render uses \(RenderLimits.format(bytes: resident)), more than the cap of "
          + "\(RenderLimits.format(bytes: limits.maximumMemory)); stopped (--max-memory or FLICK_MAX_MEMORY raises it)")
    }
  }

  /// The summary of this render from its outputs' reports once they have finished (in
  /// ``outputs``' order): each output's rate and counts from the schedule, its size and merged
  /// images from its sink's report.
  private func summary(schedule: FrameSchedule) -> RenderFinish.Summary {
    let targets = outputs
    let (width, height) = (self.width, self.height)
    return { reports in
      var outputs: [RenderSummary.Output] = []
      for ((target, plan), report) in zip(zip(targets, schedule.outputs), reports) {
        var output = RenderSummary.Output(
          path: target.path, format: target.format, bytes: report.bytes, frames: report.frames ?? plan.frameCount,
          duration: plan.duration, images: report.images, unmergedReason: report.unmergedReason,
          budgetNote: report.budgetNote, optimized: report.optimized, gifsicleFailure: report.gifsicleFailure)
        output.fps = report.fps ?? plan.fps
        outputs.append(output)
      }
      return RenderSummary(
        outputs: outputs, frames: schedule.frames.count, rendered: schedule.rendered.count, width: width,
        height: height)
    }
  }

  /// The colour `c` shows as in a picture without alpha (an MP4's): the bytes the renderer
  /// paints for it as a background, premultiplied, so over black (0xRRGGBB). `--pad`'s stripe
  /// gets it, so it matches the frame beside it; it took `c`'s colour without its alpha, and a
  /// translucent background left a bright line on the right and bottom edges.
  package static func rgb(_ c: Color) -> UInt32 {
    let tree = RenderTree(size: Size(width: 1, height: 1), backgroundColor: c, layers: [], time: 0)
    guard let p = try? Renderer().render(tree).pixels, p.count >= 4 else { return 0 }
    // Cairo's pixels are BGRA in memory.
    return UInt32(p[2]) << 16 | UInt32(p[1]) << 8 | UInt32(p[0])
  }
}
