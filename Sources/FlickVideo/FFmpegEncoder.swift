import FlickMotion
import FlickRaster
import Foundation

/// Streams frames into an ffmpeg subprocess that encodes one output file.
///
/// ffmpeg writes to a temporary file beside the destination (`.NAME.PID.partial`); ``finish()``
/// waits for ffmpeg and checks it succeeded, ``commit()`` renames the file into place, and
/// ``abort()`` (or any failure) stops ffmpeg and removes the temporary file, so the destination
/// is either the complete new file or untouched. Frames are written whole through a 1 MiB pipe
/// (retrying partial writes and EINTR); ffmpeg's stderr is drained concurrently and kept for
/// error messages.
///
/// A GIF takes two passes over one rasterisation: the frames go into the palette's statistics
/// (Flick's ``GIFPalette``, or an ffmpeg running `palettegen` when a filter comes first, see
/// ``FFmpegCommand/computesPalette``) and, losslessly, into a spool file beside the output
/// (`.NAME.PID.frames`, see ``FrameSpool``); ``finish()`` writes the palette
/// (`.NAME.PID.palette.bgra`, or ffmpeg's `.NAME.PID.palette.png`) and replays the spool into
/// the ffmpeg that encodes with it. That ffmpeg reads exactly the frames the palette was made
/// from, so the GIF is the one ffmpeg's two passes make; every temporary file is removed on every
/// exit path.
package final class FFmpegEncoder: FrameSink {
  /// The destination path.
  package let destination: String
  /// The encoded format.
  let format: OutputFormat
  /// Frame rate of the encoded file (frames per second).
  let outputFPS: Int
  package var wantsStraightAlpha: Bool { format.hasAlpha }
  /// An MP4 with even sides reads Flick's `yuv420p` planes (``FFmpegCommand/readsYUV420``).
  package var wantsYUV420: Bool { command.readsYUV420 }
  package var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { nil }

  /// The ffmpeg running now (the only one, or a GIF's palette pass, then its encoding pass; none
  /// while Flick gathers a GIF's palette).
  private var running: FFmpegProcess?
  /// A GIF's palette statistics when Flick computes the palette (``FFmpegCommand/computesPalette``).
  private var palette: GIFPalette?
  /// The frame last added to ``palette`` (its statistics compare each frame with the one before).
  private var paletteFrame: [UInt8]?
  /// The scene's number of the render's first frame (frame `index − firstFrame` is at that
  /// position in the render, which a resampled GIF's choice of frames counts from).
  private let firstFrame: Int
  /// Frames kept so far by a resampled GIF whose frames Flick selects (``FFmpegCommand/selectsFrames``).
  private var framesKept = 0
  /// Whether every frame received since the last one kept repeated the one before it.
  private var unchangedSinceKept = true
  /// A split encoding pass's ffmpeg processes, while they run.
  private var parts: [FFmpegProcess] = []
  private let temporaryPath: String
  private var state = State.running
  private let frameBytes: Int
  /// Frame width and height in pixels.
  private let size: (width: Int, height: Int)
  private let command: FFmpegCommand
  private let options: EncodingOptions
  /// The setting a budget chose (``GIFFinishing``), nil without a budget.
  private(set) var budgetOutcome: GIFFinishing.Outcome?
  /// What a budget chose, for the summary: `fits under 2 MB at 20 fps, 480 px wide, 256 colours
  /// (1.93 MB; 3 encodings)`; nil without a budget.
  package var budgetNote: String? {
    guard let outcome = budgetOutcome, let budget = options.maxSize else { return nil }
    let encodings = outcome.encodings == 1 ? "1 encoding" : "\(outcome.encodings) encodings"
    return "fits under \(OutputBudget.describe(budget.bytes)) at \(outcome.setting) "
      + "(\(OutputBudget.describe(outcome.bytes)); \(encodings))"
  }
  private let ffmpeg: FFmpegTool
  /// Seconds ffmpeg may go without reading frames or using CPU before it is declared stuck.
  private let stallTimeout: Double?
  /// A GIF's frames, kept for the encoding pass.
  private var spool: FrameSpool?
  /// Whether a frame that repeats the one before is left out of the palette pass: `palettegen`
  /// counts only the pixels that differ from the frame before (`stats_mode=diff`), so such a
  /// frame adds nothing; only without an `fps` filter, whose choice of frames depends on their
  /// number.
  private let palettePassSkipsRepeats: Bool
  /// For a GIF or APNG that merges identical frames: whether each frame written repeats the one
  /// before (``PreparedFrame/repeatsPrevious``); nil for other outputs.
  private var repeats: [Bool]?
  /// The render's frame rate (a GIF's encoded rate may be lower).
  private let inputFPS: Int
  /// Where the merged GIF or APNG is written before it replaces ``temporaryPath``.
  private let mergedPath: String
  /// Images in the finished GIF or APNG when identical frames were merged (nil otherwise).
  package private(set) var mergedImages: Int?
  /// How many ffmpeg processes a GIF's encoding pass ran in at once (``GIFStitcher``; 1: one).
  private(set) var encodedParts = 1
  /// Why identical frames were not merged although some repeated (nil otherwise).
  package private(set) var unmergedReason: String?

  private enum State { case running, finished, committed, aborted }

  /// Starts ffmpeg for frames of `width × height` pixels at `fps`.
  ///
  /// - Throws: ``VideoError`` when the options do not fit the format, the destination folder
  ///   does not exist, or ffmpeg cannot start.
  package init(
    destination: String, format: OutputFormat, width: Int, height: Int, fps: Int,
    options: EncodingOptions = EncodingOptions(), ffmpeg: FFmpegTool, stallTimeout: Double? = 120, firstFrame: Int = 0
  ) throws(VideoError) {
    _ = PipeWriter.ignoreSIGPIPE
    try OutputEntry.refuseLink(destination)
    let url = URL(fileURLWithPath: destination)
    let directory = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw .cannotWrite(path: destination, reason: "the folder \(quoted: directory) does not exist")
    }
    var isDestinationDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: destination, isDirectory: &isDestinationDirectory),
      isDestinationDirectory.boolValue
    {
      throw .cannotWrite(path: destination, reason: "it is a folder")
    }
    let directoryURL = url.deletingLastPathComponent()
    let temporaryPath = directoryURL.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
    let palettePath = directoryURL.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).palette").path
    let command = try FFmpegCommand(
      format: format, width: width, height: height, fps: fps, options: options, output: temporaryPath,
      palette: palettePath)
    self.destination = destination
    self.format = format
    self.outputFPS = command.outputFPS
    self.temporaryPath = temporaryPath
    self.size = (width, height)
    self.frameBytes = command.readsYUV420 ? YUV420Converter.frameSize(width: width, height: height) : width * height * 4
    self.command = command
    self.options = options
    self.ffmpeg = ffmpeg
    self.stallTimeout = stallTimeout
    self.inputFPS = fps
    self.firstFrame = firstFrame
    // Named like the output's own temporary (`.NAME.merged.EXT.PID.partial`), so the sweep of
    // stale temporaries recognises it.
    self.mergedPath =
      directoryURL.appendingPathComponent(".\(url.lastPathComponent).merged.\(format.rawValue).\(getpid()).partial")
      .path
    if options.mergesIdenticalFrames && (format == .gif || format == .apng) { repeats = [] }
    palettePassSkipsRepeats = command.palettePath != nil && (command.outputFPS == fps || command.selectsFrames)
    if command.palettePath != nil {
      spool = try FrameSpool(
        path: directoryURL.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).frames").path,
        width: width, height: height, output: destination)
    }
    if command.computesPalette {
      // No ffmpeg until the palette exists; the files it and Flick will write are temporaries
      // from now on.
      palette = GIFPalette()
      Cleanup.shared.add(file: temporaryPath)
      if let palettePath = command.palettePath { Cleanup.shared.add(file: palettePath) }
    } else {
      try launch(
        command.palettePass ?? command.arguments, files: [temporaryPath] + (command.palettePath.map { [$0] } ?? []))
    }
  }

  /// Starts ffmpeg with `arguments` (registering `files` as temporary first, atomically with the
  /// launch, so an interruption sees both or neither) and drains its stderr.
  @discardableResult
  private func launch(_ arguments: [String], files: [String]) throws(VideoError) -> FFmpegProcess {
    do {
      try OutputEntry.reserveTemporaries(files, for: destination)
      let process = try FFmpegProcess(executable: ffmpeg.path, arguments: arguments, files: files, output: destination)
      running = process
      return process
    } catch {
      for file in files {
        unlink(file)
        Cleanup.shared.remove(file: file)
      }
      state = .aborted
      throw error
    }
  }

  deinit {
    abort()
  }

  /// Sends one frame (its size must match the encoder's).
  ///
  /// - Throws: ``VideoError/ffmpegFailed(output:status:stderr:)`` or
  ///   ``VideoError/ffmpegKilled(output:signal:stderr:)`` when ffmpeg has died,
  ///   ``VideoError/pipeFailed(output:reason:)`` otherwise.
  package func write(_ frame: PreparedFrame) throws {
    let sameSize = frame.frame.width == size.width && frame.frame.height == size.height
    let bytes: [UInt8] =
      if !sameSize { [] } else if wantsYUV420 { frame.yuv420Bytes() } else { frame.bytes(straight: wantsStraightAlpha) }
    guard sameSize, bytes.count == frameBytes else {
      abort()
      throw VideoError.invalidSize(
        width: frame.frame.width, height: frame.frame.height,
        reason: "the renderer made a frame of another size than \(quoted: destination) was started with")
    }
    guard state == .running, running != nil || palette != nil else {
      throw VideoError.pipeFailed(output: destination, reason: "the encoder is no longer running")
    }
    var repeatsPrevious = frame.repeatsPrevious
    if command.selectsFrames {
      // Only the frames ffmpeg's fps filter would keep (other sinks may still have them rendered
      // and delivered); one repeats the frame kept before it when every frame since did.
      unchangedSinceKept = unchangedSinceKept && frame.repeatsPrevious
      guard wants(frameAt: frame.index - firstFrame) else { return }
      repeatsPrevious = framesKept > 0 && unchangedSinceKept
      unchangedSinceKept = true
      framesKept += 1
    }
    // Merged later at the GIF's rate: the flags of the frames kept, or of every frame, resampled
    // like the fps filter (IdenticalFrameMerger.resampled).
    repeats?.append(repeatsPrevious)
    if !(palettePassSkipsRepeats && repeatsPrevious) {
      if palette != nil {
        addToPalette(bytes)
      } else if let error = bytes.withUnsafeBytes({ running?.write($0, stallTimeout: stallTimeout) }) {
        abort()
        throw error
      }
    }
    if let spool, let failure = spool.append(bytes) {
      abort()
      throw VideoError.cannotWrite(
        path: destination,
        reason: "cannot keep the frames in \(quoted: spool.path): "
          + "\(escaped: failure)")
    }
  }

  /// A GIF resampled by Flick needs only the frames the fps filter keeps.
  package func wants(frameAt position: Int) -> Bool {
    !command.selectsFrames || FFmpegCommand.keepsFrame(position, from: inputFPS, to: outputFPS)
  }

  /// Adds a frame to Flick's palette statistics, which compare it with the frame added before.
  private func addToPalette(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { new in
      if let previous = paletteFrame {
        previous.withUnsafeBytes { palette?.add(new, previous: $0) }
      } else {
        palette?.add(new, previous: nil)
      }
    }
    paletteFrame = bytes
  }

  /// Writes Flick's palette (``GIFPalette``) where the encoding pass reads it: 16 × 16 BGRA.
  private func writePalette(_ statistics: GIFPalette) throws(VideoError) {
    paletteFrame = nil
    palette = nil
    guard let path = command.palettePath, let colors = statistics.palette() else {
      abort()
      if command.selectsFrames {
        throw .invalidOption(
          "\(quoted: destination): the render's frames at \(inputFPS) fps make no frame at \(outputFPS) fps; "
            + "render more frames or choose a higher --gif-fps")
      }
      throw .cannotWrite(path: destination, reason: "a GIF needs at least one frame")
    }
    do {
      let writer = try BufferedWriter(path: path, capacity: GIFPalette.size * 4)
      try writer.write(GIFPalette.image(colors))
      try writer.close()
    } catch {
      abort()
      throw .cannotWrite(path: destination, reason: "cannot write the palette \(quoted: path): \(escaped: error)")
    }
    StartupTrace.mark("GIF palette computed")
  }

  /// Closes ffmpeg's input and waits for it to complete the temporary file.
  ///
  /// - Throws: ``VideoError`` if ffmpeg failed; the temporary file is then removed.
  package func finish() throws {
    guard state == .running else { return }
    if let palette {
      try writePalette(palette)
    } else {
      try waitForExit()
    }
    if let spool {
      // The palette exists: encode the frames with it, read back from the spool.
      spool.endAppending()
      let pixels = spool.frameCount * frameBytes / 4
      if let pass = command.splittableEncodingPass, spool.frameCount >= 4, pixels >= minimumPixelsToSplit,
        maximumParts > 1
      {
        // A part a core, each of at least half the pixels that make a split worth it, and of
        // two frames or more.
        let byPixels = minimumPixelsToSplit > 0 ? pixels / max(1, minimumPixelsToSplit / 2) : Int.max
        try encodeInParts(max(2, min(maximumParts, spool.frameCount / 2, byPixels)), spool, pass)
      } else {
        try encodeWhole(spool)
      }
    }
    removePalette()
    // A program that exits 0 without writing the file is no ffmpeg: fail here (the check then
    // says what it is), not at the rename.
    var written = stat()
    guard lstat(temporaryPath, &written) == 0, written.st_size > 0 else {
      abort()
      throw VideoError.ffmpegFailed(output: destination, status: 0, stderr: "it exited without writing the file")
    }
    try mergeIdenticalFrames()
    try finishGIF()
    state = .finished
  }

  /// A GIF's last step before the commit, while its frames are still spooled: gifsicle and the
  /// budget (``GIFFinishing``); the spool is removed after it.
  private func finishGIF() throws(VideoError) {
    defer {
      spool?.remove()
      spool = nil
    }
    guard format == .gif, let spool else { return }
    do {
      let result = try GIFFinishing(
        file: temporaryPath, destination: destination, spool: spool,
        spoolFPS: command.selectsFrames ? outputFPS : inputFPS, outputFPS: outputFPS, width: size.width,
        height: size.height, options: options, repeats: repeats, ffmpeg: ffmpeg,
        // gifsicle merges frames that map to the same pixels: not with --every-frame.
        optimizer: options.optimizesGIF && options.mergesIdenticalFrames ? GIFOptimizer.locate() : nil,
        stallTimeout: stallTimeout
      ).run()
      budgetOutcome = result.budget
      // gifsicle or another setting's file replaced the one whose images were counted.
      if let images = result.images { mergedImages = images }
    } catch {
      abort()
      throw error
    }
  }

  /// Pixels (frames × width × height) a GIF needs before its encoding pass is split: below,
  /// about 0.2 s of encoding, a second ffmpeg start-up costs more than it saves (hello.gif,
  /// 90 frames at 640×360, 21 M pixels, went from 0.35 to 0.37 s split; card-swap.gif, 186
  /// frames at 960×540, 96 M pixels, from 1.81 to 1.66 s). Settable for tests.
  var minimumPixelsToSplit = FFmpegEncoder.defaultMinimumPixelsToSplit
  static let defaultMinimumPixelsToSplit = 32_000_000
  /// The most ffmpeg processes a split encoding pass runs at once: 1 (no split) by default.
  /// Each part is an ffmpeg whose `paletteuse` keeps a cache of every colour it has mapped, so
  /// a part needs 90–180 MiB whatever its share of the frames (640×360: 87 and 111 MiB; 720p:
  /// 136 and 177 MiB); two parts made a GIF's process tree 1.6–1.8× an MP4's of the same size
  /// (248 against 139 MiB at 640×360), one keeps it level with the MP4's. The split (about 8 %
  /// less wall time on two cores) stays available to callers that set this (tests do).
  var maximumParts = 1

  /// A GIF's encoding pass in one ffmpeg, reading every frame back from the spool.
  private func encodeWhole(_ spool: FrameSpool) throws {
    let process = try launch(command.arguments, files: [temporaryPath])
    if let error = Self.replay(spool, frames: nil, into: process, stallTimeout: stallTimeout, destination: destination)
    {
      abort()
      throw error
    }
    try waitForExit()
  }

  /// Writes the spooled `frames` (all when nil) to `process`; nil, or why they did not all go.
  static func replay(
    _ spool: FrameSpool, frames: Range<Int>?, into process: FFmpegProcess, stallTimeout: Double?, destination: String
  ) -> VideoError? {
    var writeError: VideoError?
    guard
      let failure = spool.replay(
        frames: frames,
        { frame in
          writeError = process.write(frame, stallTimeout: stallTimeout)
          return writeError?.description
        })
    else { return nil }
    return writeError ?? .cannotWrite(path: destination, reason: "cannot read the frames back: \(escaped: failure)")
  }

  /// A GIF's encoding pass in `count` ffmpeg processes at once, each encoding a run of the
  /// frames with the frame before and the frame after it (``GIFStitcher/frames(ofPart:starts:frames:)``;
  /// the encoder is one thread, so on `count` cores the pass takes about `1 / count` as long),
  /// joined by ``GIFStitcher`` into the file one process makes. Parts that do not join (a
  /// structure the stitcher does not expect) are encoded again in one process.
  private func encodeInParts(_ count: Int, _ spool: FrameSpool, _ pass: FFmpegCommand.GIFEncodingPass) throws {
    let frames = spool.frameCount
    let starts = (0..<count).map { $0 * frames / count }
    let ranges = (0..<count).map { GIFStitcher.frames(ofPart: $0, starts: starts, frames: frames) }
    let directory = URL(fileURLWithPath: temporaryPath).deletingLastPathComponent()
    let name = URL(fileURLWithPath: destination).lastPathComponent
    // Named like the output's own temporary, so the sweep of stale temporaries recognises them.
    let paths = (1...count).map { directory.appendingPathComponent(".\(name).part\($0).gif.\(getpid()).partial").path }
    defer {
      for path in paths {
        unlink(path)
        Cleanup.shared.remove(file: path)
      }
    }
    do {
      for (path, range) in zip(paths, ranges) {
        try OutputEntry.reserveTemporaries([path], for: destination)
        parts.append(
          try FFmpegProcess(
            executable: ffmpeg.path, arguments: pass.arguments(from: range.lowerBound, output: path), files: [path],
            output: destination))
      }
    } catch {
      abort()
      throw error
    }
    StartupTrace.mark("GIF encoding parts started (\(count))")
    // Each part reads the spool on a thread of its own.
    let errors = Locked<[VideoError?]>(Array(repeating: nil, count: count))
    let parts = self.parts
    let stallTimeout = self.stallTimeout
    let destination = self.destination
    // Safe to share: the spool's replays read with their own offsets and buffers, and part `i`'s
    // process is used by iteration `i` alone.
    nonisolated(unsafe) let shared = (spool: spool, parts: parts)
    DispatchQueue.concurrentPerform(iterations: count) { i in
      // A part that fails stops its own replay; the others go on to their ends (each part's
      // process is used by its own thread only) and all are waited for below.
      if let error = Self.replay(
        shared.spool, frames: ranges[i], into: shared.parts[i], stallTimeout: stallTimeout, destination: destination)
      {
        errors.withLock { $0[i] = error }
      }
    }
    var failure = errors.withLock { $0.compactMap { $0 }.first }
    for part in parts {
      let error = part.finish(stallTimeout: stallTimeout)
      if failure == nil { failure = error }
    }
    self.parts = []
    StartupTrace.mark("GIF encoding parts finished")
    if let failure {
      abort()
      throw failure
    }
    do {
      try GIFStitcher.stitch(parts: paths, starts: starts, frames: frames, into: temporaryPath)
      encodedParts = count
    } catch is GIFStitcher.Mismatch {
      try encodeWhole(spool)
    } catch {
      abort()
      throw VideoError.cannotWrite(path: destination, reason: "cannot join the GIF's parts: \(escaped: error)")
    }
  }

  /// Rewrites a finished GIF or APNG with each run of identical frames merged into one frame
  /// (``IdenticalFrameMerger``): into ``mergedPath``, which then replaces the temporary file, so
  /// the destination is still untouched until ``commit()``. A file whose structure is not the
  /// expected one stays as ffmpeg wrote it; a read or write failure aborts the output.
  private func mergeIdenticalFrames() throws(VideoError) {
    guard var repeats, repeats.contains(true) else { return }
    if format == .gif && !command.selectsFrames {
      repeats = IdenticalFrameMerger.resampled(repeats, from: inputFPS, to: outputFPS)
    }
    Cleanup.shared.add(file: mergedPath)
    defer { Cleanup.shared.remove(file: mergedPath) }
    let outcome: IdenticalFrameMerger.Outcome
    do {
      outcome = try IdenticalFrameMerger.merge(format, input: temporaryPath, output: mergedPath, repeats: repeats)
    } catch {
      unlink(mergedPath)
      abort()
      throw .cannotWrite(path: destination, reason: "cannot merge identical frames: \(escaped: error)")
    }
    switch outcome {
    case .merged(let kept, _):
      let failure: String? = Cleanup.shared.locked {
        rename(mergedPath, temporaryPath) == 0 ? nil : String(cString: strerror(errno))
      }
      if let failure {
        unlink(mergedPath)
        abort()
        throw .cannotWrite(path: destination, reason: "cannot replace the unmerged file: \(escaped: failure)")
      }
      mergedImages = kept
    case .unchanged(let reason):
      unlink(mergedPath)
      unmergedReason = reason
    }
  }

  /// Closes ffmpeg's input and waits for it; a failure aborts and is thrown.
  private func waitForExit() throws(VideoError) {
    if let error = running?.finish(stallTimeout: stallTimeout) {
      abort()
      throw error
    }
  }

  private func removePalette() {
    guard let palette = command.palettePath else { return }
    unlink(palette)
    Cleanup.shared.remove(file: palette)
  }

  /// Renames the finished temporary file over the destination.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  package func commit() throws {
    guard state == .finished else { return }
    let failure = Cleanup.shared.commitFile(temporaryPath, to: destination)
    state = failure == nil ? .committed : .aborted
    if let failure { throw failure }
  }

  /// Stops ffmpeg and removes the temporary file; the destination is left as it was.
  package func abort() {
    guard state == .running || state == .finished else { return }
    state = .aborted
    running?.kill()
    for part in parts { part.kill() }
    parts = []
    unlink(temporaryPath)
    Cleanup.shared.remove(file: temporaryPath)
    removePalette()
    spool?.remove()
    spool = nil
    unlink(mergedPath)
  }

  /// The last lines the running ffmpeg wrote to stderr.
  var stderrText: String { running?.stderrText ?? "" }
}
