import FlickMotion
import Foundation

/// A render whose frames are all drawn and written into its outputs
/// (``RenderSession/draw(early:beforeFirstFrame:progress:)``), with the rest still to do: each
/// encoder's end (an MP4's last frames through x264, a GIF's encoding pass and gifsicle), then
/// the two-phase commit that puts every output at its destination or none.
///
/// It holds the outputs' encoders and temporary files until ``finish(beforeCommit:progress:)`` or
/// ``abort()``,
/// and may be handed to another thread to finish there: `flick run` finishes one job while it
/// draws the next, and commits it once the jobs before it have ended. One thread at a time uses
/// it; dropped before its commit, it aborts.
package final class RenderFinish: @unchecked Sendable {
  /// Makes the render's summary from its outputs' reports, in the session's output order.
  package typealias Summary = @Sendable ([SinkReport]) -> RenderSummary

  private let outputs: [any FrameSink]
  private let discarding: DiscardingSink?
  private let frames: Int
  private let probe: FFmpegTool.Probe?
  private let summary: Summary
  /// Committed or aborted.
  private var ended = false

  /// - Parameters:
  ///   - outputs: The session's sinks, one per output, every frame written.
  ///   - discarding: The sink of `--null`, if any.
  ///   - frames: The frames rendered (the progress reports' count).
  ///   - probe: The ffmpeg check that explains an encoder's failure, run only then.
  init(
    outputs: [any FrameSink], discarding: DiscardingSink?, frames: Int, probe: FFmpegTool.Probe?,
    summary: @escaping Summary
  ) {
    self.outputs = outputs
    self.discarding = discarding
    self.frames = frames
    self.probe = probe
    self.summary = summary
  }

  deinit { abort() }

  /// Lets every encoder finish its work (an MP4's last frames, a GIF's encoding pass and
  /// gifsicle) into its temporary file, runs `beforeCommit`, then commits every output, all or
  /// none (each sink's two-phase commit).
  ///
  /// - Parameters:
  ///   - beforeCommit: Work that must pass before any output is committed: `flick run` waits
  ///     there for the jobs before this one and removes the outputs' old stamps. What it throws
  ///     aborts every output.
  ///   - progress: Called on the calling thread as the finish stage advances
  ///     (``RenderProgress/step``) and once at the end (``RenderProgress/Stage/done``).
  /// - Returns: What was written.
  /// - Throws: ``VideoError`` (a failed encoder, explained by the ffmpeg check when that fails
  ///   too) or what `beforeCommit` threw; every output is then aborted: no destination is
  ///   touched.
  @discardableResult
  package func finish(
    beforeCommit: () throws -> Void = {}, progress: (RenderProgress) -> Void = { _ in }
  ) throws -> RenderSummary {
    precondition(!ended, "a render is finished or aborted once")
    let total = frames
    do {
      for sink in all {
        try sink.finish { step in
          var finishing = RenderProgress(stage: .finish, framesDone: total, totalFrames: total)
          finishing.step = step
          progress(finishing)
        }
      }
    } catch {
      abort()
      throw Self.explained(error, by: probe)
    }
    StartupTrace.mark("encoders finished")
    do {
      try beforeCommit()
      // Every temporary is on disk before the first output is put in place, and the renames run
      // under the cleanup registry's lock, where no interruption lands between two of them: the
      // outputs change together. (What can still fail between renames is a destination that
      // became a folder, or lost its permissions, during the render.)
      for sink in all { try sink.flushForCommit() }
      try Cleanup.shared.locked { for sink in all { try sink.commit() } }
    } catch {
      abort()
      throw error
    }
    ended = true
    StartupTrace.mark("outputs committed")
    progress(RenderProgress(stage: .done, framesDone: total, totalFrames: total))
    return summary(outputs.map(\.report))
  }

  /// Stops every encoder and removes every temporary file, leaving every destination as it was
  /// (nothing once the outputs are committed).
  package func abort() {
    guard !ended else { return }
    ended = true
    for sink in outputs { sink.abort() }
  }

  /// Every sink: the outputs' and the discarding one.
  private var all: [any FrameSink] { outputs + (discarding.map { [$0 as any FrameSink] } ?? []) }

  /// `error`, or the failure of `probe`'s ffmpeg check when that explains it: an encoder that
  /// failed is explained by a failed check (run now, not before).
  static func explained(_ error: any Error, by probe: FFmpegTool.Probe?) -> any Error {
    guard let probe, mayBeExplainedByCheck(error) else { return error }
    return probe.explaining(error)
  }

  /// Whether `error` is an encoder's failure that a failed ffmpeg check would explain (an
  /// ffmpeg without the encoder, too old for an option, or broken fails this way).
  private static func mayBeExplainedByCheck(_ error: any Error) -> Bool {
    guard let error = error as? VideoError else { return false }
    switch error {
    case .launchFailed, .ffmpegFailed, .ffmpegKilled, .pipeFailed, .encoderStalled: return true
    case .ffmpegMissing, .ffmpegOverride, .notFFmpeg, .ffmpegTooOld, .encoderMissing, .cannotWrite, .linkedOutput,
      .unsupportedFormat, .invalidSize,
      .invalidOption, .overLimit, .limitReached:
      return false
    }
  }
}
