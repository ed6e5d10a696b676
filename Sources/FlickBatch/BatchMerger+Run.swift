import FlickMotion
import FlickVideo
import Foundation

extension BatchMerger {
  /// Runs every merge, after checking all their chunks: up to ``jobs`` side by side, each
  /// reported (progress and entries) in the plan's order. No merge starts after one that fails.
  ///
  /// - Returns: One entry per merge, in the plan's order. After the first that failed (its
  ///   entry has its exit code and error), those that were running beside it are as they ended
  ///   (a merged one is whole and stamped; progress shows none of them), and the rest not run.
  /// - Throws: ``BatchError/environment(_:)`` naming every missing or stale chunk; nothing is
  ///   written then.
  package func run(progress: BatchProgress) throws(BatchError) -> [BatchReport.Entry] {
    // What merges killed outright left behind goes first, whatever this merge then finds.
    removeStale()
    let problems = problems(plan.merges)
    guard problems.isEmpty else {
      throw .environment(
        "cannot merge: \(problems.count) chunk\(problems.count == 1 ? " is" : "s are") missing or stale "
          + "(run their shards again; nothing was written):\n  " + problems.joined(separator: "\n  "))
    }
    let width = Self.sideBySide(
      jobs: jobs, memoryCap: limits.maximumMemory, perMerge: plan.merges.map(Self.memoryNeeded).max() ?? 0)
    var entries: [BatchReport.Entry] = []
    // The merges started and not yet reported, in the plan's order (no task: up to date).
    var started: [(index: Int, task: BackgroundTask<Outcome>?)] = []
    var next = 0
    while next < plan.merges.count || !started.isEmpty {
      if next < plan.merges.count, started.count < width {
        let merge = plan.merges[next]
        let upToDate = !force && Self.isUpToDate(merge)
        started.append((next, upToDate ? nil : BackgroundTask { [self] in self.outcome(of: merge) }))
        next += 1
        continue
      }
      let (i, task) = started.removeFirst()
      let merge = plan.merges[i]
      let job = Plan.Job(
        index: i, id: merge.spec.id, kind: "merge", name: merge.spec.name, template: "", variant: "",
        width: merge.width, height: merge.height, frames: merge.spec.frames, outputs: merge.spec.outputs, merge: nil)
      let frameCount = merge.spec.frames[1] - merge.spec.frames[0] + 1
      guard let outcome = try? task?.wait() else {
        progress.finished(job, .skipped, seconds: 0, frames: frameCount)
        entries.append(entry(i, .skipped, 0))
        continue
      }
      if let failure = outcome.failure {
        // ffmpeg killed by an interruption: the interruption is ending the process.
        Interruption.waitIfInterrupted()
        progress.finished(job, .failed, seconds: outcome.seconds, frames: frameCount, error: failure.description)
        entries.append(entry(i, .failed, outcome.seconds, failure: failure))
        for (j, task) in started {
          guard let other = try? task?.wait() else {
            entries.append(entry(j, .skipped, 0))
            continue
          }
          entries.append(entry(j, other.failure == nil ? .rendered : .failed, other.seconds, failure: other.failure))
        }
        entries += (next..<plan.merges.count).map { entry($0, .notRun, 0) }
        return entries
      }
      progress.finished(job, .rendered, seconds: outcome.seconds, frames: frameCount)
      entries.append(entry(i, .rendered, outcome.seconds))
    }
    return entries
  }

  /// How many merges run side by side: `jobs`, fewer when that many merges of `perMerge` bytes
  /// each would not fit together beside the program under `memoryCap` (`--max-memory`); at
  /// least 1, which the cap then bounds as it bounds one merge.
  static func sideBySide(jobs: Int, memoryCap: Int, perMerge: Int) -> Int {
    guard perMerge > 0 else { return max(1, jobs) }
    return max(1, min(jobs, (memoryCap - MemoryEstimate.programBytes) / perMerge))
  }

  /// About the memory one merge needs beside others, in bytes: the encoders of the outputs it
  /// encodes from the chunks' frames (``FlickVideo/MemoryEstimate/encoderBytes(_:width:height:preset:)``),
  /// the ffmpeg that checks and joins its MP4 chunks (counted as an encoder of a few frames: a
  /// group of chunks decodes about what one 1080p decoder holds), and the frames Flick reads
  /// back and holds (three). Errs on the generous side, as ``FlickVideo/MemoryEstimate`` does.
  static func memoryNeeded(_ merge: BatchPlan.Merge) -> Int {
    // In floating point: a plan from elsewhere may name any size (the chunks' checks refuse it).
    let frame = Double(max(0, merge.width)) * Double(max(0, merge.height)) * 4
    let bytes = merge.targets.reduce(3 * frame) { total, target in
      let format = target.format == .mp4 ? OutputFormat.gif : target.format  // its decoder and join
      return total + Double(MemoryEstimate.encoderBytes(format, width: merge.width, height: merge.height))
    }
    return bytes < Double(1 << 60) ? Int(bytes) : 1 << 60
  }

  /// How one merge ended: the seconds it took, and its failure if it failed.
  struct Outcome: Sendable {
    var seconds: Double
    var failure: BatchError?
  }

  /// Runs ``merge(_:)``, timed; what it throws is the outcome's failure.
  private func outcome(of merge: BatchPlan.Merge) -> Outcome {
    let start = Date()
    do {
      try self.merge(merge)
      return Outcome(seconds: Date().timeIntervalSince(start), failure: nil)
    } catch {
      return Outcome(seconds: Date().timeIntervalSince(start), failure: BatchError.from(error))
    }
  }

  /// The report entry of the merge numbered `index`, with `failure`'s exit code and message.
  private func entry(
    _ index: Int, _ status: BatchReport.Status, _ seconds: Double, failure: BatchError? = nil
  ) -> BatchReport.Entry {
    let merge = plan.merges[index]
    return BatchReport.Entry(
      index: index, id: merge.spec.id, name: merge.spec.name, status: status, exitCode: failure?.exitCode,
      error: failure?.description, seconds: seconds, outputs: merge.spec.outputs.map(\.path))
  }
}
