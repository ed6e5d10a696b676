import FlickMotion
import FlickVideo
import Foundation

/// Runs a share of a plan's jobs with the ordinary render pipeline (``FlickVideo/RenderSession``),
/// skipping jobs that are up to date, and reports each job.
package struct BatchRunner {
  package var plan: BatchPlan
  /// Re-render jobs that are up to date.
  package var force = false
  /// After a failed job, go on with the rest (an interruption always stops).
  package var keepGoing = false
  /// Raster worker threads per job.
  package var threads = ProcessInfo.processInfo.activeProcessorCount
  /// The caps every job's render is checked against before it starts (a job over one fails as
  /// invalid input, exit 2, without rendering) and that bound it while it runs: `flick run`'s
  /// `--max-…` options and `FLICK_MAX_…` variables.
  package var limits = RenderLimits()
  /// Environment failures (exit 3: ffmpeg failing, a full disk) are tried again up to this many
  /// times (`--retries`); invalid input (exit 2) and interruptions never are.
  package var retries = 0
  /// Called before each job that is rendered (not before skipped ones) with the report entries
  /// as they stand while it renders: the jobs done so far, that job
  /// ``BatchReport/Status/running``, the rest ``BatchReport/Status/notRun``. `flick run` writes
  /// them as its report (holding its lock), so a run that stops leaves a report naming the job.
  package var checkpoint: (([BatchReport.Entry]) -> Void)?
  /// Called before each job that is rendered, after ``checkpoint``: `flick run` starts the
  /// memory watch there, once every job has been checked against ``limits`` and only when one
  /// renders.
  package var willRender: ((BatchPlan.Job) -> Void)?

  /// The check of ffmpeg shared by every job of the run: as for `flick render`, each encoder
  /// starts with the executable found once, and the check (`ffmpeg -encoders`) runs only to
  /// explain an encoder that failed, at most once per process (its answer is kept).
  package var ffmpegProbe: FFmpegTool.Probe

  package init(plan: BatchPlan) {
    self.plan = plan
    let formats = Set(plan.jobs.flatMap { $0.targets.map(\.format) }.filter(\.usesFFmpeg))
    ffmpegProbe = FFmpegTool.Probe(for: formats.sorted { $0.rawValue < $1.rawValue })
  }

  /// Whether every output of `job` exists with the job's stamp.
  package static func isUpToDate(_ job: BatchPlan.Job) -> Bool {
    job.targets.allSatisfy { Stamp.isCurrent($0, id: job.spec.id, frames: job.frames, digits: digits(of: $0)) }
  }

  /// The fixed digits of a `%0Nd` PNG pattern, nil for a plain folder.
  static func digits(of target: OutputTarget) -> Int? {
    guard target.format == .png, let r = target.path.range(of: "%0") else { return nil }
    return Int(target.path[r.upperBound...].prefix { $0.isNumber })
  }

  /// Checks the render of every job of `indices` against ``limits`` and everything else
  /// ``FlickVideo/RenderSession/validate()`` checks, without touching any file (jobs that are up
  /// to date are skipped, unless ``force``).
  ///
  /// - Returns: The refusal of each job that fails (invalid input, exit 2), by job index.
  package func refusals(indices: [Int]) -> [Int: BatchError] {
    var refused: [Int: BatchError] = [:]
    for i in indices where force || !Self.isUpToDate(plan.jobs[i]) {
      do { try session(plan.jobs[i]).validate() } catch { refused[i] = BatchError.from(error) }
    }
    return refused
  }

  /// Runs the jobs numbered `indices`, in order. Every job is checked first (``refusals(indices:)``):
  /// a job over a cap fails without rendering and, unless ``keepGoing``, no job renders at all.
  ///
  /// - Returns: One entry per job; jobs after a failure are ``BatchReport/Status/notRun`` unless
  ///   ``keepGoing``, and always after an interruption.
  package func run(indices: [Int], progress: BatchProgress) -> [BatchReport.Entry] {
    var entries: [BatchReport.Entry] = []
    let refused = refusals(indices: indices)
    let firstRefused = indices.first { refused[$0] != nil }
    var stop = false
    for i in indices {
      let job = plan.jobs[i]
      let spec = job.spec
      let outputs = spec.outputs.map(\.path)
      func entry(
        _ status: BatchReport.Status, _ seconds: Double, _ error: BatchError? = nil, attempts: Int = 1
      ) -> BatchReport.Entry {
        BatchReport.Entry(
          index: spec.index, id: spec.id, name: spec.name, status: status, exitCode: error?.exitCode,
          error: error?.description, seconds: seconds, outputs: outputs, attempts: attempts > 1 ? attempts : nil)
      }
      if stop || (!keepGoing && firstRefused != nil && firstRefused != i) {
        entries.append(entry(.notRun, 0))
        continue
      }
      if let refusal = refused[i] {
        progress.finished(spec, .failed, seconds: 0, frames: job.frames.count, error: refusal.description)
        entries.append(entry(.failed, 0, refusal))
        if !keepGoing { stop = true }
        continue
      }
      if !force && Self.isUpToDate(job) {
        progress.finished(spec, .skipped, seconds: 0, frames: job.frames.count)
        entries.append(entry(.skipped, 0))
        continue
      }
      if let checkpoint {
        var pending = entries
        pending.append(
          BatchReport.Entry(
            index: spec.index, id: spec.id, name: spec.name, status: .running, exitCode: nil,
            error: nil, seconds: 0, outputs: outputs))
        for later in indices.drop(while: { $0 != i }).dropFirst() {
          let s = plan.jobs[later].spec
          pending.append(
            BatchReport.Entry(
              index: s.index, id: s.id, name: s.name, status: .notRun, exitCode: nil, error: nil, seconds: 0,
              outputs: s.outputs.map(\.path)))
        }
        checkpoint(pending)
      }
      willRender?(job)
      let start = Date()
      var attempt = 1
      while true {
        do {
          try render(job) { progress.frame(spec, $0, framesInJob: job.frames.count) }
          let seconds = Date().timeIntervalSince(start)
          progress.finished(spec, .rendered, seconds: seconds, frames: job.frames.count)
          entries.append(entry(.rendered, seconds, attempts: attempt))
        } catch {
          // A job that failed because an interruption killed its ffmpeg is not a failure: the
          // interruption is ending the process (and the checkpoint report stands).
          Interruption.waitIfInterrupted()
          let failure = BatchError.from(error)
          if failure.exitCode == 3 && attempt <= retries {
            progress.retrying(spec, attempt: attempt + 1, of: retries + 1, error: failure.description)
            attempt += 1
            continue
          }
          let seconds = Date().timeIntervalSince(start)
          progress.finished(spec, .failed, seconds: seconds, frames: job.frames.count, error: failure.description)
          entries.append(entry(.failed, seconds, failure, attempts: attempt))
          if !keepGoing || failure.exitCode == 130 { stop = true }
        }
        break
      }
    }
    return entries
  }

  /// The render of `job` under ``limits`` with ``threads`` workers.
  func session(_ job: BatchPlan.Job) -> RenderSession {
    var session = RenderSession(
      scene: job.scene, outputs: job.targets, frames: job.frames, scale: job.scale, options: job.options,
      pipeline: RenderPipeline(jobs: threads))
    session.limits = limits
    session.ffmpegProbe = ffmpegProbe
    return session
  }

  /// Renders one job to its outputs, then stamps them. The render is checked against
  /// ``limits`` (and everything else ``FlickVideo/RenderSession/validate()`` checks) before any
  /// stamp is removed or folder made.
  func render(_ job: BatchPlan.Job, progress: (RenderProgress) -> Void) throws {
    let session = session(job)
    try session.validate()
    for target in job.targets {
      Stamp.remove(target)
      let folder = URL(fileURLWithPath: Stamp.folder(of: target)).deletingLastPathComponent().path
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw BatchError.environment(
          "cannot create the folder \(quoted: folder): "
            + "\(escaped: error.localizedDescription)")
      }
    }
    try session.run(progress: progress)
    for target in job.targets { try Stamp.write(target, id: job.spec.id) }
  }
}
