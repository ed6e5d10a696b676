import FlickMotion
import FlickRaster
import Foundation

/// Streams frames into one ffmpeg that encodes one output file: MP4, WebM, MOV, APNG or WebP
/// (a GIF, which takes two passes, is ``GIFSink``).
///
/// ffmpeg writes to a temporary file beside the destination (`.NAME.PID.partial`); ``finish()``
/// waits for ffmpeg, checks it succeeded and, for an APNG, merges runs of identical frames
/// (``IdenticalFrameMerger``) and makes a one-frame file, which ffmpeg writes as a plain PNG,
/// an animated one (``APNGStill``), for a WebP gives the last frame its whole length (and puts a
/// still image written for identical frames into the animated container)
/// (``WebPFrameEnd``); ``commit()`` puts the file in place
/// (``FlickMotion/AtomicDestination``); ``abort()`` (or any failure) stops ffmpeg and removes the
/// temporary file, so the destination is either the complete new file or untouched. Frames go
/// whole through a 1 MiB pipe by reference on Linux (`vmsplice`: the pipe holds the frame's own
/// memory, kept until ffmpeg has read it, ``SplicedFrames``), written elsewhere; ffmpeg's stderr is
/// drained concurrently and kept for error messages.
///
/// With `--max-size` (an MP4 or WebM), the frames ffmpeg reads also go to a spool beside the
/// output (`.NAME.PID.frames`, ``FrameSpool``), and ``finish()`` fits the file to the budget
/// from them (``VideoFitting``), whose choice reaches the summary through ``report``.
package final class FFmpegSink: FrameSink {
  package var destination: String { file.destination }
  package var wantsStraightAlpha: Bool { layout.straightAlpha }
  /// An MP4 with even sides reads Flick's `yuv420p` planes (``FFmpegCommand/readsYUV420``).
  package var wantsYUV420: Bool { layout.yuv420 }
  /// An MP4 reading the planes reads nothing else.
  package var readsPixels: Bool { !layout.yuv420 }
  package var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { nil }
  /// What was written (images after merging, and the size once committed).
  package private(set) var report = SinkReport()

  private let file: EncodedFile
  /// The frames' size and layout on ffmpeg's input.
  private let layout: RawFrameFormat
  /// Seconds ffmpeg may go without reading frames or using CPU before it is declared stuck.
  private let stallTimeout: Double?
  private let process: FFmpegProcess
  /// For an APNG that merges identical frames: whether each frame written repeats the one
  /// before (``PreparedFrame/repeatsPrevious``); nil otherwise.
  private var repeats: [Bool]?
  /// For an animated WebP: the frames written and their rate, to end the last frame on time
  /// (``WebPFrameEnd``); nil for other formats.
  private var webPFrames: (count: Int, fps: Int, loops: Int)?
  /// For an APNG: the frames written and their rate, to make a one-frame file, which ffmpeg
  /// writes as a plain PNG, an animated PNG (``APNGStill``); nil for other formats.
  private var apngFrames: (count: Int, fps: Int, plays: Int)?
  private var state = SinkState.running
  /// With `--max-size`: the frames ffmpeg read, kept in a spool, and what fitting the output to
  /// the budget needs; nil without a budget (and once the spool is removed).
  private var fitting: Fitting?

  private struct Fitting {
    let spool: FrameSpool
    let budget: OutputBudget
    let format: OutputFormat
    let fps: Int
    let options: EncodingOptions
    let ffmpeg: FFmpegTool
  }

  /// Starts ffmpeg for `format` frames of `width × height` pixels at `fps`.
  ///
  /// - Throws: ``VideoError`` when the options do not fit the format, the destination folder
  ///   does not exist, or ffmpeg cannot start.
  package init(
    destination: String, format: OutputFormat, width: Int, height: Int, fps: Int,
    options: EncodingOptions = EncodingOptions(), ffmpeg: FFmpegTool, stallTimeout: Double? = 120
  ) throws(VideoError) {
    guard format != .gif else { throw .invalidOption("a GIF is encoded by GIFSink") }
    let file = try EncodedFile(destination: destination, format: format)
    let command = try FFmpegCommand(
      format: format, width: width, height: height, fps: fps, options: options, output: file.path)
    self.file = file
    self.layout = RawFrameFormat(
      width: width, height: height, straightAlpha: format.hasAlpha, yuv420: command.readsYUV420)
    self.stallTimeout = stallTimeout
    if options.mergesIdenticalFrames && format == .apng { repeats = [] }
    if format == .webp { webPFrames = (0, fps, options.plays) }
    if format == .apng { apngFrames = (0, fps, options.plays) }
    if let budget = options.maxSize, OutputBudget.refusal(for: format) == nil {
      // Rows of the bytes ffmpeg reads: BGRA, or the yuv420p planes (whole rows of `width`).
      let rowBytes = layout.yuv420 ? width : width * 4
      let spool = try FrameSpool(
        path: file.sibling(".frames"), rowBytes: rowBytes, rows: layout.byteCount / rowBytes, output: destination)
      fitting = Fitting(spool: spool, budget: budget, format: format, fps: fps, options: options, ffmpeg: ffmpeg)
    }
    process = try file.launch(ffmpeg, command.arguments, files: [file.path])
  }

  deinit {
    abort()
  }

  /// Sends one frame (its size must match the sink's).
  ///
  /// - Throws: ``VideoError/ffmpegFailed(output:status:stderr:)`` or
  ///   ``VideoError/ffmpegKilled(output:signal:stderr:)`` when ffmpeg has died,
  ///   ``VideoError/pipeFailed(output:reason:)`` otherwise.
  package func write(_ frame: PreparedFrame) throws {
    let bytes = try abortingOnFailure { try layout.bytes(of: frame, for: destination) }
    guard state == .running else {
      throw VideoError.pipeFailed(output: destination, reason: "the encoder is no longer running")
    }
    repeats?.append(frame.repeatsPrevious)
    webPFrames?.count += 1
    apngFrames?.count += 1
    if let error = process.write(frame: bytes, stallTimeout: stallTimeout) {
      abort()
      throw error
    }
    if let spool = fitting?.spool, let failure = spool.append(bytes) {
      abort()
      throw VideoError.cannotWrite(
        path: destination, reason: "cannot keep the frames in \(quoted: spool.path): \(escaped: failure)")
    }
  }

  /// Closes ffmpeg's input, waits for it to complete the temporary file, merges an APNG's
  /// identical frames and fits an MP4 or WebM to `--max-size` (``VideoFitting``).
  ///
  /// - Throws: ``VideoError`` if ffmpeg failed or nothing fits the budget; the temporary file
  ///   is then removed.
  package func finish() throws { try finish(reporting: { _ in }) }

  /// ``finish()``, telling `step` of each `--max-size` encoding.
  package func finish(reporting step: (RenderProgress.Step) -> Void) throws {
    guard state == .running else { return }
    try abortingOnFailure { () throws(VideoError) in
      if let error = process.finish(stallTimeout: stallTimeout) { throw error }
      try file.checkWritten()
      if let apngFrames, apngFrames.count == 1 {
        try file.animateAPNGStill(fps: apngFrames.fps, plays: apngFrames.plays)
      }
      if let repeats { report = try file.mergeIdenticalFrames(repeats) }
      if let webPFrames, webPFrames.fps > 0 {
        let end = (Double(webPFrames.count) * 1000 / Double(webPFrames.fps)).rounded()
        _ = try WebPFrameEnd.end(file.path, at: Int(end), loops: webPFrames.loops, destination: destination)
      }
      if let fitting {
        let spool = fitting.spool
        spool.endAppending()
        let outcome = try VideoFitting(
          file: file, spool: spool, format: fitting.format, fps: fitting.fps, width: layout.width,
          height: layout.height, options: fitting.options, ffmpeg: fitting.ffmpeg, stallTimeout: stallTimeout
        ).run(budget: fitting.budget, reporting: step)
        report.budgetNote = outcome.note
        if outcome.frames != spool.frameCount { report.frames = outcome.frames }
        spool.remove()
        self.fitting = nil
      }
    }
    state = .finished
  }

  /// Flushes the finished file to disk before any output is committed.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  package func flushForCommit() throws {
    guard state == .finished else { return }
    try file.flush()
  }

  /// Puts the finished file in place (the destination's size goes into ``report``).
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

  /// Stops ffmpeg and removes the temporary file; the destination is left as it was.
  package func abort() {
    guard state == .running || state == .finished else { return }
    state = .aborted
    process.kill()
    file.remove()
    fitting?.spool.remove()
    fitting = nil
  }
}
