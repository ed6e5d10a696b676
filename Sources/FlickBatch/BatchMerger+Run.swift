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
    var entries: [BatchReport.Entry] = []
    // The merges started and not yet reported, in the plan's order, with the memory each holds
    // (no task and none: up to date).
    var started: [(index: Int, task: BackgroundTask<Outcome>?, bytes: Int)] = []
    var next = 0
    // Whether the next merge is up to date, and what it needs: found once, while it waits.
    var waiting: (upToDate: Bool, bytes: Int)?
    while next < plan.merges.count || !started.isEmpty {
      if next < plan.merges.count, started.count < jobs {
        let merge = plan.merges[next]
        let (upToDate, bytes) =
          waiting
          ?? {
            let upToDate = !force && Self.isUpToDate(merge)
            return (upToDate, upToDate ? 0 : Self.memoryNeeded(merge))
          }()
        if Self.startsBeside(
          running: started.reduce(0) { $0 + $1.bytes }, needs: bytes, memoryCap: limits.maximumMemory)
        {
          started.append((next, upToDate ? nil : BackgroundTask { [self] in self.outcome(of: merge) }, bytes))
          next += 1
          waiting = nil
          continue
        }
        waiting = (upToDate, bytes)
      }
      let (i, task, _) = started.removeFirst()
      let merge = plan.merges[i]
      let job = Plan.Job(
        index: i, id: merge.spec.id, kind: "merge", name: merge.spec.name, template: "", variant: "",
        width: merge.width, height: merge.height, frames: merge.spec.frames, outputs: merge.spec.outputs, merge: nil)
      let outcome = try? task?.wait()
      if outcome?.failure != nil {
        // ffmpeg killed by an interruption: the interruption is ending the process.
        Interruption.waitIfInterrupted()
      }
      let done = entry(i, outcome)
      progress.finished(
        job, done.status, seconds: done.seconds, frames: merge.spec.frames[1] - merge.spec.frames[0] + 1,
        error: done.error)
      entries.append(done)
      if outcome?.failure != nil {
        // Those beside it end as they end (progress shows none of them); the rest never start.
        for (j, task, _) in started { entries.append(entry(j, try? task?.wait())) }
        return entries + (next..<plan.merges.count).map { entry($0, nil, notRun: true) }
      }
    }
    return entries
  }

  /// Whether a merge that needs `needs` bytes starts beside merges that need `running` bytes
  /// together: at once when they need none (the cap then bounds it as it bounds one merge),
  /// else when it fits beside them and the program under `memoryCap` (`--max-memory`). Each
  /// merge counts its own estimate (``memoryNeeded(_:)``), so small clips run beside a large one.
  static func startsBeside(running: Int, needs: Int, memoryCap: Int) -> Bool {
    running == 0 || needs <= memoryCap - MemoryEstimate.programBytes - running
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

  /// The report entry of the merge numbered `index` that ended with `outcome`: merged, or
  /// failed with its exit code and message; up to date (or, `notRun`, never started) without one.
  private func entry(_ index: Int, _ outcome: Outcome?, notRun: Bool = false) -> BatchReport.Entry {
    let merge = plan.merges[index]
    let status: BatchReport.Status =
      outcome.map { $0.failure == nil ? .rendered : .failed } ?? (notRun ? .notRun : .skipped)
    return BatchReport.Entry(
      index: index, id: merge.spec.id, name: merge.spec.name, status: status, exitCode: outcome?.failure?.exitCode,
      error: outcome?.failure?.description, seconds: outcome?.seconds ?? 0, outputs: merge.spec.outputs.map(\.path))
  }
}
