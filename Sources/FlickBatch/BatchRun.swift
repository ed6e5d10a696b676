import FlickMotion
import FlickVideo
import Foundation

/// One pass of ``BatchRunner/run(indices:progress:)`` over its jobs: which have ended and how,
/// which are finishing beside the job being drawn, and whether the run has stopped.
///
/// A job ends in two parts: its frames are drawn on every core, then its outputs finish (the
/// encoders' last frames, a GIF's encoding pass and gifsicle, the commit and the stamps), mostly
/// on one core. When another job follows and all of them fit under the memory cap, the finish
/// runs on a thread of its own (``BackgroundTask``) while the next job draws, so the other cores
/// work instead of waiting; up to ``BatchRunner/finishingJobs`` finish at once, within
/// ``BatchRunner/overlapMemory`` (half the machine's or the container's memory). Every output is
/// the same as from jobs run one at a time.
///
/// What a run promises holds with jobs in the background:
/// - Outputs are committed in the order of the indices: a job's commit waits until every job
///   before it has committed or failed (one tried again commits after the later ones).
/// - Entries are in the order of the indices, whatever order the jobs end in.
/// - A job that fails in the background stops the run (without `--keep-going`): the jobs after
///   it that are drawn or finishing then are reported as not run, their old outputs and stamps
///   untouched.
/// - An environment failure in the background is tried again (`--retries`) once the job drawn
///   beside it has finished, from its first frame and without handing it over again; the jobs
///   after it go on meanwhile.
/// - The checkpoint report names every job drawn or finishing `running`.
struct BatchRun {
  /// A job whose frames are drawn and whose outputs finish on a thread of their own.
  private struct Finishing {
    /// The job's position in the run's indices.
    var position: Int
    var start: Date
    var attempt: Int
    /// The job's memory estimate, in bytes.
    var memory: Int
    /// The finish and the stamps; gives the job's seconds from its start.
    var task: BackgroundTask<Double>
  }

  /// A job that failed in the background, to be tried again from attempt `attempt`.
  private struct Retry {
    var position: Int
    var attempt: Int
    var start: Date
  }

  /// The failure of a job that did not commit because a job before it failed and stopped the run.
  private struct Stopped: Error {}

  private let runner: BatchRunner
  private let indices: [Int]
  private let progress: BatchProgress
  private let refused: [Int: BatchError]
  private let firstRefused: Int?
  private var entries: [BatchReport.Entry?]
  /// The jobs finishing in the background, oldest first.
  private var finishing: [Finishing] = []
  private var stop = false

  init(runner: BatchRunner, indices: [Int], progress: BatchProgress) {
    self.runner = runner
    self.indices = indices
    self.progress = progress
    let refused = runner.refusals(indices: indices)
    self.refused = refused
    firstRefused = indices.first { refused[$0] != nil }
    entries = Array(repeating: nil, count: indices.count)
  }

  private var plan: BatchPlan { runner.plan }

  mutating func run() -> [BatchReport.Entry] {
    for (position, i) in indices.enumerated() {
      // Finishes that ended in the background count before the next job starts.
      settle(waiting: false)
      let job = plan.jobs[i]
      if stop || (!runner.keepGoing && firstRefused != nil && firstRefused != i) {
        entries[position] = entry(job, .notRun, 0)
        continue
      }
      if let refusal = refused[i] {
        progress.finished(job.spec, .failed, seconds: 0, frames: job.frames.count, error: refusal.description)
        entries[position] = entry(job, .failed, 0, refusal)
        if !runner.keepGoing { stop = true }
        continue
      }
      BatchRunner.removeStale(job)
      if !runner.force && BatchRunner.isUpToDate(job) {
        progress.finished(job.spec, .skipped, seconds: 0, frames: job.frames.count)
        entries[position] = entry(job, .skipped, 0)
        continue
      }
      checkpoint(rendering: position)
      runner.willRender?(job)
      render(position, from: 1, start: Date(), handOver: true)
    }
    settle(waiting: true)
    return zip(indices, entries).map { i, entry in entry ?? self.entry(plan.jobs[i], .notRun, 0) }
  }

  /// Renders the job at `position` from attempt `attempt`, trying it again after environment
  /// failures as ``BatchRunner/retries`` allows. Once its frames are drawn, the job's finish is
  /// handed over when `handOver`, ``BatchRunner/finishingJobs`` and the memory cap allow (the
  /// oldest finish is waited for while there is no room); otherwise every finish in the
  /// background ends first and this one runs here. Background jobs to try again go after it.
  private mutating func render(_ position: Int, from attempt: Int, start: Date, handOver: Bool) {
    let job = plan.jobs[indices[position]]
    let spec = job.spec
    var attempt = attempt
    var retries: [Retry] = []
    while true {
      do {
        let drawn = try runner.draw(job) { progress.frame(spec, $0, framesInJob: job.frames.count) }
        retries += settle(waiting: false, deferringRetries: true)
        let next = handOver && runner.finishingJobs > 0 ? nextToRender(after: position) : nil
        // The memory estimates of this job and of the next one's render (read once: they walk
        // the scenes and read their pictures' headers).
        let needs = next.map { (own: memory(indices[position]), next: memory($0)) }
        while let needs, !finishing.isEmpty,
          finishing.count >= runner.finishingJobs || !fits(needs.own + needs.next)
        {
          retries += settle(waiting: true, deferringRetries: true, oldestOnly: true)
        }
        let background = needs.map { retries.isEmpty && fits($0.own + $0.next) } ?? false
        if !background { retries += settle(waiting: true, deferringRetries: true) }
        if stop {
          drawn.abort()
          notRun(position)
        } else if background {
          progress.finishing(spec, frames: job.frames.count)
          let after = gate()
          finishing.append(
            Finishing(
              position: position, start: start, attempt: attempt, memory: needs?.own ?? 0,
              task: BackgroundTask {
                try BatchRunner.finish(drawn, job, after: after)
                return Date().timeIntervalSince(start)
              }))
        } else {
          try BatchRunner.finish(drawn, job, progress: { progress.frame(spec, $0, framesInJob: job.frames.count) })
          ended(position, seconds: Date().timeIntervalSince(start), attempt: attempt)
        }
        break
      } catch {
        guard failed(position, error, attempt: attempt, start: start) else { break }
        attempt += 1
      }
    }
    for retry in retries { self.retry(retry) }
  }

  /// What a job handed over now waits for before its commit: the newest job finishing before it
  /// (which waits for the one before, and so on). It throws ``Stopped`` when that job failed for
  /// good and the failure stops the run, or was itself stopped.
  private func gate() -> @Sendable () throws -> Void {
    guard let before = finishing.last else { return {} }
    let (task, attempt) = (before.task, before.attempt)
    let (retries, keepGoing) = (runner.retries, runner.keepGoing)
    return {
      do {
        _ = try task.wait()
      } catch {
        if error is Stopped { throw Stopped() }
        let failure = BatchError.from(error)
        if !Self.isRetried(failure, attempt: attempt, retries: retries) && Self.stops(failure, keepGoing: keepGoing) {
          throw Stopped()
        }
      }
    }
  }

  /// Records how the jobs finishing in the background ended, in order: those that have ended,
  /// or (`waiting`) every one, or (`oldestOnly`) the oldest.
  ///
  /// - Parameter deferringRetries: Return the jobs to try again instead of trying them here (the
  ///   caller holds a drawn job that finishes first).
  /// - Returns: The jobs to try again when `deferringRetries`: those that failed with an
  ///   environment error that ``BatchRunner/retries`` allows.
  @discardableResult
  private mutating func settle(waiting: Bool, deferringRetries: Bool = false, oldestOnly: Bool = false) -> [Retry] {
    var retries: [Retry] = []
    var kept: [Finishing] = []
    for (n, done) in finishing.enumerated() {
      guard (waiting && (!oldestOnly || n == 0)) || done.task.isDone else {
        kept.append(done)
        continue
      }
      do {
        let seconds = try done.task.wait()
        ended(done.position, seconds: seconds, attempt: done.attempt)
      } catch {
        if failed(done.position, error, attempt: done.attempt, start: done.start) {
          retries.append(Retry(position: done.position, attempt: done.attempt + 1, start: done.start))
        }
      }
    }
    finishing = kept
    guard !deferringRetries else { return retries }
    for retry in retries { self.retry(retry) }
    return []
  }

  /// Tries a job that failed in the background again, here and from its first frame.
  private mutating func retry(_ retry: Retry) {
    checkpoint(rendering: retry.position)
    render(retry.position, from: retry.attempt, start: retry.start, handOver: false)
  }

  /// Records the job at `position` as rendered.
  private mutating func ended(_ position: Int, seconds: Double, attempt: Int) {
    let job = plan.jobs[indices[position]]
    progress.finished(job.spec, .rendered, seconds: seconds, frames: job.frames.count)
    entries[position] = entry(job, .rendered, seconds, attempts: attempt)
  }

  /// Records the job at `position`, drawn, as not run: the run stopped before its commit.
  private mutating func notRun(_ position: Int) {
    let job = plan.jobs[indices[position]]
    progress.finished(job.spec, .notRun, seconds: 0, frames: job.frames.count)
    entries[position] = entry(job, .notRun, 0)
  }

  /// Records the failure of the job at `position` at attempt `attempt`, unless ``BatchRunner/retries``
  /// allows another attempt (reported as a retry).
  ///
  /// - Returns: Whether the job is to be tried again.
  private mutating func failed(_ position: Int, _ error: any Error, attempt: Int, start: Date) -> Bool {
    // A job that failed because an interruption killed its ffmpeg is not a failure: the
    // interruption is ending the process (and the checkpoint report stands).
    Interruption.waitIfInterrupted()
    if error is Stopped {
      notRun(position)
      return false
    }
    let job = plan.jobs[indices[position]]
    let failure = BatchError.from(error)
    if Self.isRetried(failure, attempt: attempt, retries: runner.retries) {
      progress.retrying(job.spec, attempt: attempt + 1, of: runner.retries + 1, error: failure.description)
      return true
    }
    let seconds = Date().timeIntervalSince(start)
    progress.finished(job.spec, .failed, seconds: seconds, frames: job.frames.count, error: failure.description)
    entries[position] = entry(job, .failed, seconds, failure, attempts: attempt)
    if Self.stops(failure, keepGoing: runner.keepGoing) { stop = true }
    return false
  }

  /// Whether a job that failed with `failure` at attempt `attempt` is tried again: an
  /// environment failure (exit 3) with `retries` left.
  private static func isRetried(_ failure: BatchError, attempt: Int, retries: Int) -> Bool {
    failure.exitCode == 3 && attempt <= retries
  }

  /// Whether a failure (not tried again) stops the run: without `--keep-going`, or an interruption.
  private static func stops(_ failure: BatchError, keepGoing: Bool) -> Bool {
    !keepGoing || failure.exitCode == 130
  }

  /// The index of the first job after `position` that is to render (neither refused nor up to date).
  private func nextToRender(after position: Int) -> Int? {
    indices[(position + 1)...].first { i in
      refused[i] == nil && (runner.force || !BatchRunner.isUpToDate(plan.jobs[i]))
    }
  }

  /// Whether `bytes` (a job to finish and the next job's render, by their memory estimates) fit
  /// beside the jobs finishing now, under the cap less the memory watch's margin (for the run's
  /// largest frames, as `flick run` starts the watch: ``FlickVideo/RenderLimits/memoryBudget(frameBytes:)``)
  /// and under ``BatchRunner/overlapMemory``.
  private func fits(_ bytes: Int) -> Bool {
    let together = finishing.reduce(bytes) { $0 + $1.memory }
    let largest = indices.map { plan.jobs[$0].spec.width * plan.jobs[$0].spec.height * 4 }.max() ?? 0
    return together <= min(runner.limits.memoryBudget(frameBytes: largest), runner.overlapMemory)
  }

  /// The memory estimate of job `index`'s render, in bytes.
  private func memory(_ index: Int) -> Int {
    runner.session(plan.jobs[index]).estimatedMemory
  }

  /// Calls ``BatchRunner/checkpoint`` with the entries as they stand while the job at `position`
  /// renders: the jobs ended so far, that job and the jobs finishing beside it
  /// ``BatchReport/Status/running``, the rest ``BatchReport/Status/notRun``.
  private func checkpoint(rendering position: Int) {
    guard let checkpoint = runner.checkpoint else { return }
    checkpoint(
      zip(indices, entries).enumerated().map { p, pair in
        if let entry = pair.1 { return entry }
        let running = p == position || finishing.contains { $0.position == p }
        return entry(plan.jobs[pair.0], running ? .running : .notRun, 0)
      })
  }

  private func entry(
    _ job: BatchPlan.Job, _ status: BatchReport.Status, _ seconds: Double, _ error: BatchError? = nil,
    attempts: Int = 1
  ) -> BatchReport.Entry {
    let spec = job.spec
    return BatchReport.Entry(
      index: spec.index, id: spec.id, name: spec.name, status: status, exitCode: error?.exitCode,
      error: error?.description, seconds: seconds, outputs: spec.outputs.map(\.path),
      attempts: attempts > 1 ? attempts : nil)
  }
}
