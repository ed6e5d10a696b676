import FlickMotion
import FlickVideo
import Foundation

/// Progress across a batch: which job, how many done, skipped and failed, and an ETA from the
/// frames rendered so far. `json` prints one object per line, each with the job's id.
package final class BatchProgress {
  /// How progress is shown.
  package enum Style: String, Sendable, CaseIterable {
    /// A bar redrawn in place (a terminal), and one line per finished job.
    case bar
    /// One line per finished job (logs).
    case lines
    /// One JSON object per line: every frame, every job handed over to finish in the background
    /// and every finished job, each with the job id.
    case json
    /// Nothing.
    case none
  }

  package let style: Style
  private let write: (String) -> Void
  private let start = Date()
  private let totalJobs: Int
  private var totalFrames: Int
  /// Frames of the jobs finished so far, and of the current job.
  private(set) var framesDone = 0
  private(set) var current = 0.0
  private var rendered = 0, skipped = 0, failed = 0
  /// The jobs whose frames are drawn and counted, finishing in the background: their frames
  /// by job index.
  private var inBackground: [Int: Int] = [:]
  private var lastBar = Date.distantPast
  /// The ``FlickVideo/RenderProgress/Step/phase`` of the last finish step on the bar (a new one
  /// is always shown).
  private var lastStep: String?

  /// - Parameters:
  ///   - jobs: The jobs this run will visit, with their frame counts (for the ETA).
  package init(
    style: Style, jobs: Int, frames: Int,
    write: @escaping (String) -> Void = StandardStream.writeError
  ) {
    self.style = style
    self.totalJobs = jobs
    self.totalFrames = frames
    self.write = write
  }

  var done: Int { rendered + skipped + failed }

  /// The number shown for the job being drawn: the jobs ended and finishing before it, plus one.
  private var number: Int { done + inBackground.count + 1 }

  /// What the bar adds while jobs finish in the background (" · 2 finishing"), else nothing.
  private var behind: String { inBackground.isEmpty ? "" : " · \(inBackground.count) finishing" }

  /// Seconds left, from the frame rate so far (nil before the first frame).
  var eta: Double? {
    let elapsed = Date().timeIntervalSince(start)
    let done = Double(framesDone) + current
    guard done > 0, elapsed > 0 else { return nil }
    return max(0, Double(totalFrames) - done) / (done / elapsed)
  }

  /// A frame of job `job` was delivered (`frame` of `total`, over all passes).
  func frame(_ job: Plan.Job, _ p: RenderProgress, framesInJob: Int) {
    // A finish step (a GIF's encoding pass, gifsicle) moves no frame count: no event of its own,
    // but the bar says what the job is doing.
    if let step = p.step {
      let now = Date()
      guard style == .bar, now.timeIntervalSince(lastBar) > 0.2 || step.phase != lastStep else { return }
      lastBar = now
      lastStep = step.phase
      write(
        "\r[\(number)/\(totalJobs)] \(job.name) finishing: \(ProgressPrinter.describe(step))  ETA \(clock)\u{1B}[K")
      return
    }
    // The ETA counts each job's frames once, whatever its passes.
    current = p.totalFrames > 0 ? Double(framesInJob) * Double(p.framesDone) / Double(p.totalFrames) : 0
    switch style {
    case .json:
      write(
        "{\"event\":\"frame\",\"job\":\"\(job.id)\",\"index\":\(job.index),\"stage\":\"\(p.stage.rawValue)\","
          + "\"frame\":\(p.framesDone),\"total\":\(p.totalFrames),\(counts)}\n")
    case .bar:
      let now = Date()
      guard now.timeIntervalSince(lastBar) > 0.2 || p.stage == .done else { return }
      lastBar = now
      write(
        "\r[\(number)/\(totalJobs)] \(job.name) \(p.framesDone)/\(p.totalFrames)\(behind)  ETA \(clock)\u{1B}[K")
    case .lines, .none:
      break
    }
  }

  /// Job `job`'s frames are drawn and its outputs finish in the background while the next job
  /// draws: its frames count as done from now, and JSON shows a `finishing` event.
  func finishing(_ job: Plan.Job, frames: Int) {
    inBackground[job.index] = frames
    framesDone += frames
    current = 0
    guard style == .json else { return }
    write("{\"event\":\"finishing\",\"job\":\"\(job.id)\",\"index\":\(job.index),\(counts)}\n")
  }

  /// Job `job` ended with `status`.
  func finished(_ job: Plan.Job, _ status: BatchReport.Status, seconds: Double, frames: Int, error: String? = nil) {
    // A job that finished in the background had its frames counted when it was handed over.
    let counted = inBackground.removeValue(forKey: job.index) != nil
    switch status {
    case .rendered: rendered += 1
    case .skipped:
      skipped += 1
      totalFrames -= frames
    case .failed: failed += 1
    case .notRun, .interrupted, .running: break
    }
    // The job being drawn goes on when the one that ended was finishing in the background.
    if !counted {
      if status == .rendered || status == .failed { framesDone += frames }
      current = 0
    }
    switch style {
    case .json:
      var line =
        "{\"event\":\"job\",\"job\":\"\(job.id)\",\"index\":\(job.index),\"name\":\(JSONText.quoted(job.name)),"
        + "\"status\":\"\(status.rawValue)\"," + "\"seconds\":\(JSONText.number(seconds, decimals: 3))," + counts
      if let error { line += ",\"error\":\(JSONText.quoted(error))" }
      write(line + "}\n")
    case .none:
      break
    case .bar, .lines:
      let verb = status == .skipped ? "up to date" : status.rawValue
      if style == .bar { write("\r\u{1B}[K") }
      let tally =
        "\(rendered) rendered, \(skipped) up to date, \(failed) failed"
        + (done < totalJobs ? ", ETA \(clock)" : "")
      write(
        "[\(done)/\(totalJobs)] \(verb) \(job.name)" + (status == .rendered ? String(format: " (%.2f s)", seconds) : "")
          + "  · \(tally)\n")
    }
  }

  /// Job `job` failed with an environment error and is tried again (attempt `attempt` of `of`).
  func retrying(_ job: Plan.Job, attempt: Int, of attempts: Int, error: String) {
    // A job that failed in the background draws its frames again.
    if let frames = inBackground.removeValue(forKey: job.index) { framesDone -= frames }
    current = 0
    switch style {
    case .json:
      write(
        "{\"event\":\"retry\",\"job\":\"\(job.id)\",\"index\":\(job.index),\"attempt\":\(attempt),"
          + "\"attempts\":\(attempts),\"error\":\(JSONText.quoted(error)),\(counts)}\n")
    case .none:
      break
    case .bar, .lines:
      if style == .bar { write("\r\u{1B}[K") }
      write(
        "[\(number)/\(totalJobs)] retrying \(job.name) (attempt \(attempt) of \(attempts)): environment failure\n")
    }
  }

  private var counts: String {
    "\"done\":\(done),\"rendered\":\(rendered),\"skipped\":\(skipped),\"failed\":\(failed),\"jobs\":\(totalJobs),"
      + "\"eta\":" + (eta.map { JSONText.number($0, decimals: 2) } ?? "null")
  }

  private var clock: String {
    guard let eta else { return "--:--" }
    let s = Int(eta.rounded(.up))
    return String(format: "%d:%02d", s / 60, s % 60)
  }
}
