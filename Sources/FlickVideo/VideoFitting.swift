import FlickMotion

/// The last step of an MP4 or WebM with `--max-size` before it is committed (``FFmpegSink``'s
/// `finish()`): keeps the output's own encoding when it fits, or finds the first rung and
/// bitrate on the ``VideoBudget`` ladder whose two-pass encoding fits.
///
/// Every encoding after the output's own reads the frames the render kept (``FrameSpool``, the
/// bytes ffmpeg read: `yuv420p` planes for an MP4 with even sides, BGRA otherwise), never
/// renders again: a lower rate keeps the spooled frames its ``FrameSchedule/Output`` keeps
/// (every k-th), read at that rate, and a narrower rung scales them with ffmpeg's Lanczos
/// `scale`. The first pass writes its log to `.NAME.PID.passlog-0.log` (x264 also
/// `…-0.log.mbtree`), the second the candidate `.NAME.budget.EXT.PID.partial`; the candidate
/// that fits replaces the output's temporary, and nothing else is left.
struct VideoFitting {
  /// The output's temporary file (replaced in place) and the temporaries named after it.
  let file: EncodedFile
  /// The frames the output was encoded from, at ``fps``.
  let spool: FrameSpool
  /// MP4 or WebM.
  let format: OutputFormat
  /// The output's frame rate, in frames per second.
  let fps: Int
  /// The frames' size in pixels as ffmpeg reads them.
  let width: Int
  let height: Int
  let options: EncodingOptions
  let ffmpeg: FFmpegTool
  let stallTimeout: Double?

  /// What the budget chose, for the summary.
  struct Outcome {
    /// `fits under 2 MB at 15 fps, 480×270, two-pass 412 kb/s (0.127 bits a pixel) (1.93 MB; 3 encodings)`.
    var note: String
    /// Frames in the chosen file.
    var frames: Int
  }

  private var destination: String { file.destination }

  /// The size of the encoded frames at the output's own settings (an MP4 padded to even sides
  /// is one pixel wider or taller than its frames).
  private var ownRung: VideoBudget.Rung {
    let padded = format == .mp4 && options.pad
    return VideoBudget.Rung(
      fps: fps, width: padded ? width + width % 2 : width, height: padded ? height + height % 2 : height)
  }

  /// Fits the output under `budget`.
  ///
  /// - Throws: ``VideoError/invalidOption(_:)`` when nothing fits (the caller aborts the
  ///   output), or what an encoding throws.
  func run(budget: OutputBudget, reporting step: (RenderProgress.Step) -> Void = { _ in }) throws(VideoError)
    -> Outcome
  {
    let ownSize = SinkReport.fileSize(file.path)
    let limit = OutputBudget.describe(budget.bytes)
    if ownSize <= budget.bytes {
      let crf = options.crf ?? (format == .webm ? 30 : 18)
      return Outcome(
        note: "fits under \(limit) at \(ownRung), CRF \(crf) (\(OutputBudget.describe(ownSize)); 1 encoding)",
        frames: spool.frameCount)
    }
    let candidate = file.partial("budget.\(format.rawValue)")
    let log = file.sibling(".passlog")
    let logFiles = FFmpegCommand.TwoPass.logFiles(log)
    for path in logFiles { Cleanup.shared.add(file: path) }
    defer { for path in [candidate] + logFiles { EncodedFile.discard(path) } }
    let fit = VideoBudget(budget: budget, format: format)
    let own = ownRung
    var encodings = 1  // the output's own
    let found = try fit.search(
      VideoBudget.ladder(fps: own.fps, width: own.width, height: own.height), frames: keptFrames(at:),
      duration: Double(spool.frameCount) / Double(fps)
    ) { (rung, bitrate) throws(VideoError) -> Int? in
      encodings += 1
      let setting = "\(rung), two-pass \(VideoBudget.describe(bitrate: bitrate, on: rung))"
      step(.fitting(destination: destination, encoding: encodings, setting: setting))
      return try encode(rung, bitrate: bitrate, log: log, into: candidate)
    }
    guard let rung = found.rung else {
      let lowest = VideoBudget.ladder(fps: own.fps, width: own.width, height: own.height).last ?? own
      let reached =
        found.encodings > 0
        ? "the smallest file made (down to \(lowest)) is \(OutputBudget.describe(min(ownSize, found.bytes)))"
        : "no two-pass encoding down to \(lowest) could aim that low (the container's own bytes, or x264's "
          + "least bitrate for these frames) and the --crf encoding is \(OutputBudget.describe(ownSize))"
      throw .invalidOption(
        "\(quoted: destination) does not fit under --max-size \(escaped: limit): \(escaped: reached); "
          + "raise --max-size, render fewer frames (--frames) or a smaller size (--size)")
    }
    try file.replace(file.path, with: candidate)
    // The output's own encoding counts as one.
    let count = "\(found.encodings + 1) encodings"
    return Outcome(
      note: "fits under \(limit) at \(rung), two-pass \(VideoBudget.describe(bitrate: found.bitrate, on: rung)) "
        + "(\(OutputBudget.describe(found.bytes)); \(count))",
      frames: keptFrames(at: rung))
  }

  /// What x264 (libx264 in ffmpeg 5.1 and later) says when a second pass's bitrate is under
  /// the minimum its first pass estimated.
  static let bitrateTooLow = "requested bitrate is too low"

  /// Which spooled frames an encoding at `fps` keeps (every frame at the output's own rate).
  private func keeps(at rate: Int) -> [Bool] {
    let plan = FrameSchedule.Output(format: format, renderFPS: fps, fps: rate, renderFrames: spool.frameCount)
    return (0..<spool.frameCount).map(plan.keeps(position:))
  }

  /// Frames an encoding at `rung` has.
  private func keptFrames(at rung: VideoBudget.Rung) -> Int {
    keeps(at: rung.fps).filter { $0 }.count
  }

  /// Encodes the spooled frames at `rung` in two passes at `bitrate` into `path`; returns its
  /// size, or nil when x264 refuses the bitrate as too low for the frames (its second pass
  /// estimates a minimum from the first pass's statistics and will not start under it).
  private func encode(_ rung: VideoBudget.Rung, bitrate: Int, log: String, into path: String) throws(VideoError)
    -> Int?
  {
    let keeps = keeps(at: rung.fps)
    for pass in 1...2 {
      let command = try FFmpegCommand(
        format: format, width: width, height: height, fps: rung.fps, options: options, output: path,
        fit: FFmpegCommand.TwoPass(width: rung.width, height: rung.height, bitrate: bitrate, pass: pass, log: log))
      let process = try file.launch(ffmpeg, command.arguments, files: pass == 2 ? [path] : [])
      // x264's refusal ends ffmpeg before it reads the frames: seen by the replay (the pipe closed)
      // or, when every frame fitted into the pipe first, at the end.
      let failure =
        spool.send(to: process, keeping: keeps, stallTimeout: stallTimeout, destination: destination)
        ?? process.finish(stallTimeout: stallTimeout)
      if let failure {
        process.kill()
        if pass == 2, case .ffmpegFailed(_, _, let stderr) = failure, stderr.contains(Self.bitrateTooLow) {
          EncodedFile.discard(path)
          return nil
        }
        throw failure
      }
    }
    try file.checkWritten(path)
    return SinkReport.fileSize(path)
  }
}
