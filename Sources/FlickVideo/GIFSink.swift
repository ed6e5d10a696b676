import FlickMotion
import FlickRaster
import Foundation

/// Encodes a palette GIF: two passes over one rasterisation, never a lossy intermediate.
///
/// The frames it gets (those its ``FrameSchedule/Output`` keeps, at the GIF's rate) go into the
/// palette's statistics (Flick's ``GIFPalette``, or an ffmpeg running `palettegen` when a filter
/// comes first, see ``FFmpegCommand/computesPalette``) and, losslessly, into a spool beside the
/// output (`.NAME.PID.frames`, ``FrameSpool``). ``finish()`` hands the palette to the ffmpeg
/// that encodes with it (Flick's as that ffmpeg's first frame, an ffmpeg started with the sink,
/// ``FFmpegCommand/readsPaletteFirst``; else in `.NAME.PID.palette.pam`, or ffmpeg's
/// `.NAME.PID.palette.png`), replays the spool into it (`GIFSink+Encoding.swift`), then merges
/// runs of identical frames (``IdenticalFrameMerger``). That ffmpeg reads exactly the frames the
/// palette was made from, so the GIF is the one ffmpeg's two passes make. Its last step, ``completeFile()``, runs while
/// the frames are still spooled: gifsicle and `--max-size` (``GIFFinishing``), whose choice
/// reaches the summary through ``report``.
///
/// The finished GIF is the temporary `.NAME.PID.partial` when ``finish()`` returns;
/// ``commit()`` puts it in place (``FlickMotion/AtomicDestination``); ``abort()`` (or any
/// failure) stops every ffmpeg and removes every temporary, so the destination is either the
/// complete new GIF or untouched.
package final class GIFSink: FrameSink {
  package var destination: String { file.destination }
  package let wantsStraightAlpha = true
  package var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { nil }
  /// What was written (images after merging, and the size once committed).
  package private(set) var report = SinkReport()

  /// The temporary GIF and the temporaries named after it.
  let file: EncodedFile
  let command: FFmpegCommand
  let options: EncodingOptions
  /// The GIF's frame rate (the frames arrive at it), in frames per second.
  let fps: Int
  let ffmpeg: FFmpegTool
  /// Seconds ffmpeg may go without reading frames or using CPU before it is declared stuck.
  let stallTimeout: Double?
  /// The frames' size and layout on ffmpeg's input.
  let layout: RawFrameFormat
  /// The GIF's frames, kept for the encoding pass.
  var spool: FrameSpool?
  /// The ffmpeg of the encoding pass while it runs.
  var encoder: FFmpegProcess?

  /// Flick's palette statistics (``GIFPalette``) while the frames arrive, when Flick computes
  /// the palette (``FFmpegCommand/computesPalette``).
  private var statistics: GIFPalette?
  /// The ffmpeg running `palettegen` on the frames, when ffmpeg makes the palette.
  private var palettePass: FFmpegProcess?
  /// Whether each frame written repeats the one before (merged after encoding); nil with
  /// `--every-frame`.
  private var repeats: [Bool]?
  private var state = SinkState.running

  /// Prepares a GIF of `width × height` frames arriving at `fps` (the GIF's own rate: the
  /// frames are those its schedule keeps).
  ///
  /// - Parameter startsEncoderNow: Whether an encoding pass that reads the palette first
  ///   (``FFmpegCommand/readsPaletteFirst``) starts its ffmpeg now, beside the raster pass: for
  ///   a render's first GIF, which finishes first. The sinks finish one after another, so a
  ///   later GIF's ffmpeg would only wait, holding about 46 MiB; it starts when its palette
  ///   exists.
  ///
  /// - Parameter finalDelay: The last image's delay in centiseconds
  ///   (``FrameSchedule/Output/gifFinalDelay``); nil leaves ffmpeg's (the one before it).
  ///
  /// - Throws: ``VideoError`` when the options do not fit, the destination folder does not
  ///   exist, or ffmpeg cannot start.
  package init(
    destination: String, width: Int, height: Int, fps: Int, options: EncodingOptions = EncodingOptions(),
    ffmpeg: FFmpegTool, stallTimeout: Double? = 120, startsEncoderNow: Bool = true, finalDelay: Int? = nil
  ) throws(VideoError) {
    let file = try EncodedFile(destination: destination, format: .gif)
    let command = try FFmpegCommand(
      format: .gif, width: width, height: height, fps: fps, options: options, output: file.path,
      palette: file.sibling(".palette"), gifFinalDelay: finalDelay)
    self.file = file
    self.command = command
    self.options = options
    self.fps = fps
    self.ffmpeg = ffmpeg
    self.stallTimeout = stallTimeout
    self.layout = RawFrameFormat(width: width, height: height, straightAlpha: true, yuv420: false)
    if options.mergesIdenticalFrames { repeats = [] }
    spool = try FrameSpool(path: file.sibling(".frames"), width: width, height: height, output: destination)
    if let pass = command.palettePass, let palettePath = command.palettePath {
      palettePass = try abortingOnFailure { () throws(VideoError) in
        try file.launch(ffmpeg, pass, files: [file.path, palettePath])
      }
    } else {
      // No ffmpeg until the palette exists; the files it and Flick will write are temporaries
      // from now on.
      statistics = GIFPalette()
      Cleanup.shared.add(file: file.path)
      if let palettePath = command.palettePath { Cleanup.shared.add(file: palettePath) }
      // An encoding pass that reads the palette first needs nothing more to start: its start-up
      // (about 0.08 s of CPU, most of it the dynamic linker) runs beside the raster pass, and
      // it waits on its input until ``finish()``.
      if command.readsPaletteFirst && startsEncoderNow { _ = try runningEncoder() }
    }
  }

  deinit {
    abort()
  }

  /// Takes one frame: into the palette's statistics (unless it repeats the frame before, which
  /// adds nothing to `stats_mode=diff`) and into the spool.
  ///
  /// - Throws: ``VideoError`` when the frame has another size, ffmpeg has died, or the spool
  ///   cannot be written.
  package func write(_ frame: PreparedFrame) throws {
    let bytes = try abortingOnFailure { try layout.bytes(of: frame, for: destination) }
    guard state == .running, let spool else {
      throw VideoError.pipeFailed(output: destination, reason: "the encoder is no longer running")
    }
    repeats?.append(frame.repeatsPrevious)
    if !frame.repeatsPrevious {
      if statistics != nil {
        statistics?.append(bytes)
      } else if let error = bytes.withUnsafeBytes({ palettePass?.write($0, stallTimeout: stallTimeout) }) {
        abort()
        throw error
      }
    }
    if let failure = spool.append(bytes) {
      abort()
      throw VideoError.cannotWrite(
        path: destination, reason: "cannot keep the frames in \(quoted: spool.path): \(escaped: failure)")
    }
  }

  /// Writes the palette, encodes the spooled frames with it and merges identical frames: the
  /// finished GIF is then the temporary file.
  ///
  /// - Throws: ``VideoError`` if a step failed; every temporary is then removed.
  package func finish() throws { try finish(reporting: { _ in }) }

  /// ``finish()``, telling `step` how far the encoding pass is, and when gifsicle or a
  /// `--max-size` encoding runs.
  package func finish(reporting step: (RenderProgress.Step) -> Void) throws {
    guard state == .running, let spool else { return }
    try writePalette()
    spool.endAppending()
    try encodeWhole(spool, reporting: step)
    removePalette()
    try completeFile(spool, reporting: step)
    spool.remove()
    self.spool = nil
    state = .finished
  }

  /// The last step of ``finish()``, on the GIF as ffmpeg wrote it and while its frames are still
  /// in `spool`: checks it was written, merges runs of identical frames, then optimises it and
  /// fits it to the budget (``GIFFinishing``). The file is then the GIF ``commit()`` puts in place.
  private func completeFile(_ spool: FrameSpool, reporting step: (RenderProgress.Step) -> Void) throws(VideoError) {
    do {
      try file.checkWritten()
      if let repeats { report = try file.mergeIdenticalFrames(repeats) }
      let result = try GIFFinishing(
        file: file, spool: spool, fps: fps, width: layout.width, height: layout.height, options: options,
        repeats: repeats, ffmpeg: ffmpeg,
        // gifsicle merges frames that map to the same pixels: not with --every-frame.
        optimizer: options.optimizesGIF && options.mergesIdenticalFrames ? GIFOptimizer.locate() : nil,
        stallTimeout: stallTimeout
      ).run(reporting: step)
      // gifsicle or another setting's file replaced the one whose images were counted.
      if let images = result.images { report.images = images }
      report.optimized = result.optimized
      report.gifsicleFailure = result.gifsicleFailure
      if let outcome = result.budget, let budget = options.maxSize {
        report.budgetNote = outcome.note(budget: budget)
        if outcome.setting.fps != fps {
          report.frames = outcome.frames
          report.fps = outcome.setting.fps
        }
      }
    } catch {
      abort()
      throw error
    }
  }

  /// Completes the palette: waits for ffmpeg's palette pass to write its own, or hands Flick's
  /// to the encoding pass: as the first frame on its input (``FFmpegCommand/readsPaletteFirst``),
  /// else as a 16 × 16 PAM image where it reads it.
  private func writePalette() throws(VideoError) {
    if let process = palettePass {
      palettePass = nil
      if let error = process.finish(stallTimeout: stallTimeout) {
        abort()
        throw error
      }
      return
    }
    let gathered = statistics
    statistics = nil
    guard let colors = gathered?.palette() else {
      abort()
      throw .cannotWrite(path: destination, reason: "a GIF needs at least one frame")
    }
    StartupTrace.mark("GIF palette computed")
    if let path = command.palettePath {
      do {
        try GIFPalette.writePAM(colors, to: path, for: destination)
      } catch {
        abort()
        throw error
      }
      return
    }
    // No file: the palette goes first on the encoding pass's input (``FFmpegCommand/readsPaletteFirst``).
    let encoder = try runningEncoder()
    let frame = GIFPalette.frame(colors, width: layout.width, height: layout.height)
    if let error = frame.withUnsafeBytes({ encoder.write($0, stallTimeout: stallTimeout) }) {
      abort()
      throw error
    }
  }

  private func removePalette() {
    if let path = command.palettePath { EncodedFile.discard(path) }
  }

  /// Flushes the finished file to disk before any output is committed.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  package func flushForCommit() throws {
    guard state == .finished else { return }
    try file.flush()
  }

  /// Puts the finished GIF in place (the destination's size goes into ``report``).
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  package func commit() throws {
    guard state == .finished else { return }
    do {
      try file.commit()
    } catch {
      state = .aborted
      throw error
    }
    state = .committed
    report.bytes = SinkReport.fileSize(destination)
  }

  /// Stops every ffmpeg and removes every temporary; the destination is left as it was.
  package func abort() {
    guard state == .running || state == .finished else { return }
    state = .aborted
    palettePass?.kill()
    palettePass = nil
    statistics = nil
    encoder?.kill()
    encoder = nil
    file.remove()
    removePalette()
    spool?.remove()
    spool = nil
  }
}
