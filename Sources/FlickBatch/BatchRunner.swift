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
  package var threads = MachineCPUs.usable
  /// Jobs that may finish in the background while the next one draws (``BatchRun``; default:
  /// the CPUs this process may run on, ``FlickMotion/MachineCPUs``, as a job's finish is mostly
  /// one core's work; `flick run --jobs N` lowers it to N); 0 runs every job to its end before
  /// the next one starts. The outputs are the same either way.
  package var finishingJobs = MachineCPUs.usable
  /// The memory jobs finishing side by side may need together, with the job drawn beside them
  /// (by their estimates), in bytes: half of what the machine or the process's control group
  /// allows (``FlickMotion/MachineMemory``), and never more than ``limits``' cap. One job alone is
  /// bounded by the cap only, as in `flick render`.
  package var overlapMemory = MachineMemory.limit / 2
  /// The caps every job's render is checked against before it starts (a job over one fails as
  /// invalid input, exit 2, without rendering) and that bound it while it runs: `flick run`'s
  /// `--max-…` options and `FLICK_MAX_…` variables.
  package var limits = RenderLimits()
  /// Environment failures (exit 3: ffmpeg failing, a full disk) are tried again up to this many
  /// times (`--retries`); invalid input (exit 2) and interruptions never are.
  package var retries = 0
  /// Called before each job that is rendered (not before skipped ones) with the report entries
  /// as they stand while it renders: the jobs done so far, that job and the jobs finishing
  /// beside it ``BatchReport/Status/running``, the rest ``BatchReport/Status/notRun``. `flick run` writes
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
  /// A job whose frames are drawn finishes on a thread of its own while the next job draws
  /// (``BatchRun``), up to ``finishingJobs`` at once and when they fit under the memory cap
  /// together: its encoders' last work (a GIF's encoding pass and gifsicle run on one core) no
  /// longer leaves the other cores idle. Commits keep the order of `indices`.
  ///
  /// - Returns: One entry per job, in the order of `indices`; jobs after a failure are
  ///   ``BatchReport/Status/notRun`` unless ``keepGoing``, and always after an interruption.
  package func run(indices: [Int], progress: BatchProgress) -> [BatchReport.Entry] {
    var run = BatchRun(runner: self, indices: indices, progress: progress)
    return run.run()
  }

  /// The render of `job` under ``limits`` with ``threads`` workers.
  func session(_ job: BatchPlan.Job) -> RenderSession {
    var session = RenderSession(
      scene: job.scene, outputs: job.targets, frames: job.frames, scale: job.scale, options: job.options,
      pipeline: RenderPipeline(jobs: threads))
    session.limits = limits
    session.ffmpegProbe = ffmpegProbe
    session.inputs = job.inputs
    return session
  }

  /// Draws every frame of `job` into its outputs (``FlickVideo/RenderSession/draw(early:beforeFirstFrame:progress:)``),
  /// checked against ``limits`` (and everything else ``FlickVideo/RenderSession/validate()``
  /// checks) before any folder is made. No destination and no stamp is touched yet:
  /// ``finish(_:_:progress:)`` does that.
  func draw(_ job: BatchPlan.Job, progress: (RenderProgress) -> Void) throws -> RenderFinish {
    let session = session(job)
    try session.validate()
    for target in job.targets {
      let folder = URL(fileURLWithPath: Stamp.folder(of: target)).deletingLastPathComponent().path
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw BatchError.environment(
          "cannot create the folder \(quoted: folder): "
            + "\(escaped: MessageText.reason(error))")
      }
      // A stamp that could not be written after the outputs are committed is refused now.
      try Stamp.checkDestination(target)
    }
    return try session.draw(beforeFirstFrame: {}, progress: progress)
  }

  /// Removes what an earlier run of `job` left in its outputs' folders when it was killed
  /// outright (SIGKILL, a lost node; ``FlickVideo/Cleanup/removeStale(in:outputs:)``): its
  /// outputs' own temporaries only, since other shards, on other machines, may be writing other
  /// outputs into the same folder (a chunk folder holds every chunk of its clip). Run for every
  /// job a run takes, up to date or not: a job finished since by another run still has them.
  ///
  /// - Returns: The paths removed.
  @discardableResult
  static func removeStale(_ job: BatchPlan.Job) -> [String] {
    var removed: [String] = []
    for target in job.targets {
      let url = URL(fileURLWithPath: Stamp.folder(of: target))
      removed += Cleanup.removeStale(
        in: url.deletingLastPathComponent().path, outputs: [url.lastPathComponent])
    }
    return removed
  }

  /// Finishes a drawn job (`rendered`): its encoders end, `after` passes, its outputs' old stamps
  /// go, its outputs are committed and stamped. An output never carries a stamp its content may
  /// not match, and a job stopped before its commit (an interruption, a failed job before it)
  /// leaves its old outputs and stamps as they were.
  ///
  /// - Parameter after: Waits for the jobs before this one, when they finish in the background;
  ///   what it throws stops this job before its commit.
  static func finish(
    _ rendered: RenderFinish, _ job: BatchPlan.Job, after: () throws -> Void = {},
    progress: (RenderProgress) -> Void = { _ in }
  ) throws {
    try rendered.finish(
      beforeCommit: {
        try after()
        for target in job.targets { Stamp.remove(target) }
      }, progress: progress)
    for target in job.targets { try Stamp.write(target, id: job.spec.id) }
  }
}
