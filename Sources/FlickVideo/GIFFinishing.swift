import FlickMotion
import Foundation

/// The last step of a GIF before it is committed (``GIFSink``'s `completeFile()`, after the
/// identical-frame merge): gifsicle `-O3` (``GIFOptimizer``, when installed; the smaller of its
/// file and ffmpeg's is kept) and, with a budget (``OutputBudget``), the search for the first
/// setting on the budget's ladder whose GIF fits.
///
/// Every setting after the output's own is encoded again from the frames the render kept
/// (``FrameSpool``, at the GIF's rate): a lower rate keeps the spooled frames its
/// ``FrameSchedule/Output`` keeps (the schedule's rule, which is ffmpeg's `fps` filter's), read at
/// that rate, with their repeats carried as ``FrameSchedule/Delivery`` carries them; then ffmpeg's
/// `scale` and `palettegen=max_colors`, the identical-frame merge, and gifsicle (`--lossy` on the
/// last steps; not the lossless pass on an encoding more than ``OutputBudget/losslessReach`` times
/// the budget, which it cannot bring under it). The lossy steps differ from the setting before
/// them only in gifsicle's strength, so they start from that setting's ffmpeg file, kept as a
/// second link (`.NAME.encoded.gif.PID.partial`), instead of encoding it five more times.
/// Candidates are written to `.NAME.budget.gif.PID.partial` beside the destination (temporaries
/// named like the output's own, which the sweep of stale temporaries knows) and the one chosen
/// replaces the output's temporary file; nothing else is left.
struct GIFFinishing {
  /// The output's temporary GIF (replaced in place) and the temporaries named after it.
  let file: EncodedFile
  /// The frames the GIF was made from, at ``fps``.
  let spool: FrameSpool
  /// The GIF's own frame rate (the spooled frames'), in frames per second.
  let fps: Int
  /// The frames' size in pixels.
  let width: Int
  let height: Int
  let options: EncodingOptions
  /// For each spooled frame, whether it repeats the one before (nil: frames are not merged).
  let repeats: [Bool]?
  let ffmpeg: FFmpegTool
  let optimizer: GIFOptimizer?
  let stallTimeout: Double?
  /// The memory gifsicle may use, in bytes; nil: ``GIFOptimizer/allowance(width:height:preset:)``
  /// of these frames (tests set a bound of their own).
  var memoryAllowance: Int? = nil
  /// What the memory watch leaves now (``MemoryWatch/headroom()``; tests give their own): read
  /// before each gifsicle pass, it fails that pass when it is less than gifsicle needs
  /// (``GIFOptimizer/Failure/Cause/memory(needed:left:)``) and bounds the lookahead.
  var headroom: @Sendable () -> MemoryWatch.Headroom? = MemoryWatch.headroom
  /// gifsicle's first failure on this GIF: no other pass runs after it (shared by copies).
  private let failure = Locked<GIFOptimizer.Failure?>(nil)

  private var destination: String { file.destination }
  /// The gifsicle that runs on each GIF made here: ``optimizer`` unless the options turn it off
  /// or it has failed.
  private var gifsicle: GIFOptimizer? { options.optimizesGIF && failure.withLock({ $0 }) == nil ? optimizer : nil }

  /// What a budget chose, for the summary.
  struct Outcome {
    var setting: OutputBudget.Setting
    /// The chosen file's size in bytes.
    var bytes: Int
    /// Settings encoded to find it (the output's own counts as one).
    var encodings: Int
    /// Frames in the chosen file (before identical frames are merged).
    var frames: Int

    /// `fits under 2 MB at 20 fps, 480 px wide, 256 colours (1.93 MB; 3 encodings)`.
    func note(budget: OutputBudget) -> String {
      let count = encodings == 1 ? "1 encoding" : "\(encodings) encodings"
      return "fits under \(OutputBudget.describe(budget.bytes)) \(escaped: setting.description(frames: frames)) "
        + "(\(OutputBudget.describe(bytes)); \(count))"
    }
  }

  /// What finishing did: the budget's choice (nil without a budget) and the images the GIF now
  /// stores when the file was rewritten (gifsicle may merge frames that map to the same pixels;
  /// nil when the file is ffmpeg's as it was).
  struct Result {
    var budget: Outcome?
    var images: Int?
    /// What gifsicle did to the GIF at its own settings, when it ran and that GIF is the one kept.
    var optimized: GIFOptimizer.Outcome? = nil
    /// gifsicle's failure, when a pass failed (or the memory watch left too little for it) and
    /// the GIF was kept without it.
    var gifsicleFailure: GIFOptimizer.Failure? = nil
  }

  /// Optimises the GIF and fits it to the budget.
  ///
  /// - Throws: ``VideoError/invalidOption(_:)`` when even the last setting does not fit (the
  ///   caller aborts the output), or what an encoding or gifsicle throws.
  func run(reporting step: (RenderProgress.Step) -> Void = { _ in }) throws(VideoError) -> Result {
    let candidate = file.partial("budget.gif")
    defer {
      for path in [candidate, file.partial("gifsicle.gif")] { EncodedFile.discard(path) }
    }
    let before = SinkReport.fileSize(file.path)
    let started = DispatchTime.now().uptimeNanoseconds
    // An encoding more than twice the budget fits after no lossless pass (gifsicle -O3 takes
    // 0.4–10 % off Flick's GIFs): the search goes on to a smaller setting without paying for one,
    // which on a large GIF takes as long as its encoding (``OutputBudget/losslessReach``).
    func beyondReach(_ bytes: Int) -> Bool {
      options.maxSize.map { Double(bytes) > OutputBudget.losslessReach * Double($0.bytes) } ?? false
    }
    let overBudget = beyondReach(before)
    // The GIF's own width is `--gif-width` when given: every setting keeps it or goes narrower.
    let ladder = OutputBudget.ladder(
      fps: fps, width: options.gifWidth ?? width, frames: spool.frameCount, hasLossy: optimizer != nil)
    // While gifsicle works on an encoding over the budget, the setting the search measures next
    // if gifsicle does not bring it under is encoded beside it (``GIFLookahead``). Which one that
    // is depends on the size gifsicle makes, so the guess is made from the size expected: the
    // encoding's, less the share gifsicle took off the last lossless pass on this GIF
    // (``OutputBudget/expectedLosslessGain`` before the first).
    var lookahead: GIFLookahead?
    var gain = OutputBudget.expectedLosslessGain
    func expected(_ bytes: Int) -> Int { Int(Double(bytes) * (1 - gain)) }
    /// Notes what a lossless pass took off (when gifsicle ran), for the next guess.
    func learn(from before: Int, to after: Int, skipped: GIFOptimizer.Skip?) {
      if skipped == nil, gifsicle != nil, before > 0 { gain = 1 - Double(after) / Double(before) }
    }
    defer { lookahead?.stop() }
    func lookAhead(to next: OutputBudget.Setting?, past path: String, beside pass: GifsiclePass?) {
      // Not when gifsicle is expected to bring the file under the budget: the encoding would
      // most likely be stopped unused.
      guard let next, let budget = options.maxSize, expected(SinkReport.fileSize(path)) > budget.bytes,
        besideGifsicle(pass)
      else { return }
      let work = self
      lookahead = GIFLookahead(
        setting: next, path: file.partial("lookahead.gif"), palette: file.sibling(".lookahead.palette")
      ) { (setting, path, palette, stopping) throws(VideoError) -> Int? in
        try work.encode(setting, into: path, palette: palette, stopping: stopping)
      }
    }
    let ownPass = overBudget ? nil : gifsiclePass(file.path)
    if !overBudget, let budget = options.maxSize {
      lookAhead(
        to: budget.next(in: ladder, from: 1, after: (ladder[0], expected(before))).map { ladder[$0] }, past: file.path,
        beside: ownPass)
    }
    let (own, skipped) =
      overBudget ? (before, nil) : try optimize(file.path, lossy: 0, with: ownPass, reporting: step)
    if !overBudget { learn(from: before, to: own, skipped: skipped) }
    let optimized =
      gifsicle != nil && !overBudget
      ? GIFOptimizer.Outcome(
        before: before, after: own, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
        skipped: skipped) : nil
    var rewritten = own != before
    guard let budget = options.maxSize else {
      return Result(
        images: rewritten ? Self.imageCount(file.path) : nil, optimized: optimized,
        gifsicleFailure: failure.withLock { $0 })
    }
    var frames = [ladder[0]: spool.frameCount]
    // What gifsicle did to each setting's encoding: the summary reports the kept one's.
    var outcomes = [ladder[0]: optimized]
    var encodings = 1
    // ffmpeg's file for the last setting encoded, kept (a second link to it) while settings that
    // differ from it in gifsicle's lossy strength alone are still to come: those start from it
    // rather than encode the same frames with the same palette again.
    let encodedFile = file.partial("encoded.gif")
    var encoded: (setting: OutputBudget.Setting, frames: Int, file: EncodedFile.Kept)?
    defer { EncodedFile.discard(encodedFile) }
    let found = try budget.search(ladder) { (setting, following) throws(VideoError) -> Int in
      if setting == ladder[0] {
        if own <= budget.bytes { lookahead?.stop() }
        return own
      }
      encodings += 1
      step(.fitting(destination: destination, encoding: encodings, setting: setting.description))
      if let kept = encoded, Self.sameEncoding(kept.setting, setting), file.restore(kept.file, to: candidate) {
        frames[setting] = kept.frames
      } else {
        encoded = nil
        EncodedFile.discard(encodedFile)
        let count = try encodeOrTake(setting, into: candidate, from: &lookahead)
        frames[setting] = count
        if ladder.contains(where: { $0.lossy > setting.lossy && Self.sameEncoding($0, setting) }),
          let kept = file.keep(candidate, as: encodedFile)
        {
          encoded = (setting, count, kept)
        }
      }
      let encodedBytes = SinkReport.fileSize(candidate)
      if setting.lossy == 0, beyondReach(encodedBytes) { return encodedBytes }
      let pass = gifsiclePass(candidate)
      if let next = following(expected(encodedBytes)), !Self.sameEncoding(next, setting) {
        lookAhead(to: next, past: candidate, beside: pass)
      }
      let passStarted = DispatchTime.now().uptimeNanoseconds
      let (bytes, skipped) = try optimize(candidate, lossy: setting.lossy, with: pass, reporting: { _ in })
      if pass != nil, failure.withLock({ $0 }) == nil {
        outcomes[setting] = GIFOptimizer.Outcome(
          before: encodedBytes, after: bytes,
          seconds: Double(DispatchTime.now().uptimeNanoseconds - passStarted) / 1e9, skipped: skipped,
          lossy: setting.lossy)
      }
      if setting.lossy == 0 { learn(from: encodedBytes, to: bytes, skipped: skipped) }
      if bytes <= budget.bytes { lookahead?.stop() }
      return bytes
    }
    guard let chosen = found.chosen else {
      let limit = OutputBudget.describe(budget.bytes)
      let smallest = ladder.last.map(\.description) ?? ""
      throw .invalidOption(
        "\(quoted: destination) does not fit under --max-size \(escaped: limit): the smallest setting "
          + "(\(escaped: smallest)) makes \(escaped: OutputBudget.describe(found.bytes)); "
          + "raise --max-size, render fewer frames (--frames) or a smaller size (--size)")
    }
    if chosen != ladder[0] {
      try file.replace(file.path, with: candidate)
      rewritten = true
    }
    return Result(
      budget: Outcome(
        setting: chosen, bytes: found.bytes, encodings: found.encodings, frames: frames[chosen] ?? spool.frameCount),
      images: rewritten ? Self.imageCount(file.path) : nil, optimized: outcomes[chosen] ?? nil,
      gifsicleFailure: failure.withLock { $0 })
  }

  /// Whether ffmpeg encodes `a` and `b` alike: they differ in gifsicle's lossy strength alone.
  static func sameEncoding(_ a: OutputBudget.Setting, _ b: OutputBudget.Setting) -> Bool {
    a.fps == b.fps && a.width == b.width && a.colors == b.colors
  }

  /// Runs gifsicle on `path` (in place) with `pass` (``gifsiclePass(_:)`` of `path`; nil when
  /// there is no gifsicle) when the memory it would need fits its allowance, keeping the smaller
  /// file (always the lossy one); returns the size kept, and the ``GIFOptimizer/Skip`` when that
  /// allowance (a rule of the GIF alone) kept gifsicle from running. When it fits the allowance
  /// but not what the memory watch left (``GifsiclePass/headroom``), or gifsicle fails, the GIF
  /// stays as it is with the ``GIFOptimizer/Failure`` noted, or the output fails when gifsicle is
  /// required (``EncodingOptions/requiresGIFOptimizer``).
  private func optimize(
    _ path: String, lossy: Int, with pass: GifsiclePass?, reporting step: (RenderProgress.Step) -> Void
  ) throws(VideoError) -> (bytes: Int, skipped: GIFOptimizer.Skip?) {
    guard let pass else { return (SinkReport.fileSize(path), nil) }
    if let skip = pass.skip { return (SinkReport.fileSize(path), skip) }
    // An optional pass: the GIF stays as it is, unless gifsicle is required.
    func keep(_ failed: GIFOptimizer.Failure) throws(VideoError) -> (bytes: Int, skipped: GIFOptimizer.Skip?) {
      if options.requiresGIFOptimizer { throw .cannotWrite(path: destination, reason: failed.summary) }
      failure.withLock { $0 = $0 ?? failed }
      return (SinkReport.fileSize(path), nil)
    }
    if let left = pass.headroom, pass.needed > left.bytes {
      return try keep(
        GIFOptimizer.Failure(
          gifsicle: pass.gifsicle.path, destination: destination, cause: .memory(needed: pass.needed, left: left)))
    }
    step(.optimizingGIF(destination: destination))
    let optimized = file.partial("gifsicle.gif")
    if let failed = try pass.gifsicle.optimize(
      path, to: optimized, lossy: lossy, destination: destination, stallTimeout: stallTimeout)
    {
      return try keep(failed)
    }
    if lossy > 0 || SinkReport.fileSize(optimized) < SinkReport.fileSize(path) {
      try file.replace(path, with: optimized)
    } else {
      EncodedFile.discard(optimized)
    }
    return (SinkReport.fileSize(path), nil)
  }

  /// Puts `setting`'s encoding at `path`: the lookahead's when it encoded that setting (it is
  /// then used up), else a new one (any other lookahead is stopped first). Returns the frames
  /// encoded.
  private func encodeOrTake(
    _ setting: OutputBudget.Setting, into path: String, from lookahead: inout GIFLookahead?
  ) throws(VideoError) -> Int {
    let ahead = lookahead
    lookahead = nil
    if let ahead, ahead.setting == setting {
      defer { ahead.stop() }
      let frames = try ahead.wait()
      Cleanup.shared.add(file: path)
      try file.replace(path, with: ahead.path)
      return frames
    }
    ahead?.stop()
    guard let frames = try encode(setting, into: path, palette: file.sibling(".budget.palette")) else {
      preconditionFailure("an encoding that is never stopped stopped")
    }
    return frames
  }

  /// Whether an encoding may run beside gifsicle's `pass`: both fit the memory gifsicle may use
  /// (``GIFOptimizer/allowance(width:height:preset:)``) and what the memory watch left
  /// (``GifsiclePass/headroom``), so the process tree needs no more than when they run one after
  /// the other under those bounds. It decides only whether the next setting is encoded early,
  /// which changes no bytes (``GIFLookahead``), so it may depend on the memory in use.
  private func besideGifsicle(_ pass: GifsiclePass?) -> Bool {
    guard let pass, options.budgetLooksAhead else { return false }
    return MemoryEstimate.add(pass.needed, MemoryEstimate.encoderBytes(.gif, width: width, height: height))
      <= min(pass.allowance, pass.headroom?.bytes ?? .max)
  }

  /// gifsicle's pass on one file: the memory it needs, the memory it may use, and what the memory
  /// watch left.
  private struct GifsiclePass {
    let gifsicle: GIFOptimizer
    /// ``GIFOptimizer/memory(file:pixels:)`` of the file, in bytes.
    let needed: Int
    /// ``GIFOptimizer/allowance(width:height:preset:)`` (or ``GIFFinishing/memoryAllowance``), in bytes.
    let allowance: Int
    /// What the memory watch left when the pass was planned, before any lookahead started beside
    /// it (nil when nothing is watched).
    let headroom: MemoryWatch.Headroom?
    /// Whether the allowance leaves gifsicle out (``GIFOptimizer/skip(file:pixels:allowance:)``),
    /// which depends on the file alone.
    let skip: GIFOptimizer.Skip?
  }

  /// gifsicle's pass on `path` as it stands (its structure read once, for both the lookahead's
  /// memory rule and the pass), or nil when there is no gifsicle. Called before a lookahead
  /// starts beside the pass, so the headroom it reads does not count that encoding.
  private func gifsiclePass(_ path: String) -> GifsiclePass? {
    guard let gifsicle else { return nil }
    let (bytes, pixels) = (SinkReport.fileSize(path), Self.structure(path)?.pixels ?? width * height)
    let allowance = memoryAllowance ?? GIFOptimizer.allowance(width: width, height: height, preset: options.preset)
    return GifsiclePass(
      gifsicle: gifsicle, needed: GIFOptimizer.memory(file: bytes, pixels: pixels), allowance: allowance,
      headroom: headroom(), skip: GIFOptimizer.skip(file: bytes, pixels: pixels, allowance: allowance))
  }

  /// Encodes the spooled frames with `setting` into `path`: the frames a GIF at the setting's
  /// rate keeps (``FrameSchedule/Output/keeps(position:)``), ffmpeg's palette pass (into
  /// `palette`) and encoding pass, then the identical-frame merge. Returns the frames encoded,
  /// or nil when `stopping` said to stop (asked before each frame and each step; ffmpeg is then
  /// killed and `path` may hold part of a GIF).
  func encode(
    _ setting: OutputBudget.Setting, into path: String, palette: String, stopping: () -> Bool = { false }
  ) throws(VideoError) -> Int? {
    let plan = FrameSchedule.Output(format: .gif, renderFPS: fps, fps: setting.fps, renderFrames: spool.frameCount)
    var delivery = FrameSchedule.Delivery(plan, first: 0)
    var keeps: [Bool] = []
    var keptRepeats: [Bool] = []
    for position in 0..<spool.frameCount {
      let repeated = delivery.admit(position: position, repeatsPrevious: repeats?[position] ?? false)
      keeps.append(repeated != nil)
      if let repeated { keptRepeats.append(repeated) }
    }
    var o = options
    o.gifWidth = setting.width == width ? nil : setting.width
    o.gifColors = setting.colors
    // At the GIF's own width and 256 colours Flick's palette is `palettegen`'s (``GIFPalette``),
    // made here from the kept frames instead of by an ffmpeg pass of its own.
    if setting.width != width || setting.colors != 256 { o.gifPalette = .ffmpeg }
    let command = try FFmpegCommand(
      format: .gif, width: width, height: height, fps: setting.fps, options: o, output: path, palette: palette,
      gifFinalDelay: plan.gifFinalDelay)
    defer { command.palettePath.map(EncodedFile.discard) }
    // Each ffmpeg pass: its arguments, the files it writes, and a frame sent before the spooled
    // ones (Flick's palette, for an encoding pass that reads it first).
    var passes: [(arguments: [String], files: [String], first: [UInt8]?)] = []
    var paletteFrame: [UInt8]?
    if let palettePass = command.palettePass, let palette = command.palettePath {
      passes.append((palettePass, [palette], nil))
    } else if command.computesPalette {
      let colors: [UInt32]
      switch GIFPalette.of(spool, keeping: keeps, stopping: stopping) {
      case .success(let palette?): colors = palette
      case .success(nil): return nil
      case .failure(let failure):
        throw .cannotWrite(
          path: destination, reason: "cannot make the palette of the kept frames: \(escaped: failure.reason)")
      }
      if command.readsPaletteFirst {
        paletteFrame = GIFPalette.frame(colors, width: width, height: height)
      } else if let palette = command.palettePath {
        try GIFPalette.writePAM(colors, to: palette, for: destination)
      }
    } else {
      throw .invalidOption("internal: a budget GIF has no palette")
    }
    passes.append((command.arguments, [path], paletteFrame))
    for (arguments, files, first) in passes {
      if stopping() { return nil }
      let process = try file.launch(ffmpeg, arguments, files: files)
      if let first, let error = first.withUnsafeBytes({ process.write($0, stallTimeout: stallTimeout) }) {
        process.kill()
        throw error
      }
      if let error = spool.send(
        to: process, keeping: keeps, stallTimeout: stallTimeout, destination: destination, stopping: stopping)
      {
        process.kill()
        if stopping() { return nil }
        throw error
      }
      if let error = process.finish(stallTimeout: stallTimeout) { throw error }
    }
    if stopping() { return nil }
    try file.checkWritten(path)
    if repeats != nil { _ = try file.mergeIdenticalFrames(keptRepeats, in: path) }
    return keptRepeats.count
  }
}
