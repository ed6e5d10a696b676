import FlickMotion
import Foundation

/// Where a plan stands (`flick status`): each job and merge done, up to date, running, failed
/// or missing, from its outputs' stamps and every run report in `OUTPUT/.flick/reports`, with an
/// ETA while shards run and an exit code for CI.
package struct BatchStatus {
  package enum State: String, Sendable, CaseIterable {
    /// Its outputs carry its id, and a report says a run rendered it.
    case done
    /// Its outputs carry its id (rendered before, or by a run whose report is gone).
    case upToDate = "up to date"
    /// A live run (one holding its report's lock) is rendering it now.
    case running
    /// Its last run failed; ``Row/exitCode`` and ``Row/error`` say why.
    case failed
    /// Not rendered: never run, not run after a failure, or interrupted.
    case missing
  }

  /// One job or merge.
  package struct Row: Sendable {
    /// The job's index, or nil for a merge.
    package var index: Int?
    /// `render`, `chunk` or `merge`.
    package var kind: String
    package var id: String
    package var name: String
    package var state: State
    /// The last report's word when it adds to ``state`` (`interrupted`, `not-run`).
    package var detail: String?
    /// The report that last ran it (its shard, `I/N`), if any.
    package var shard: String?
    /// Seconds the last run spent on it (0 when it did not render).
    package var seconds: Double
    package var exitCode: Int32?
    package var error: String?
    package var attempts: Int?
  }

  package var rows: [Row]
  /// Seconds until the live shards finish, at the rate the reports show (nil when nothing runs
  /// or no job has finished yet to measure it).
  package var eta: Double?
  /// Report files that could not be read, with why.
  package var unreadable: [String]

  /// The status of `plan` from its outputs and the reports in `OUTPUT/.flick/reports` (any
  /// `*.json` there that is a run or merge report; newer files win for the same job).
  package init(plan: BatchPlan) {
    let folder = plan.manifest.outputRoot + "/.flick/reports"
    var reports: [(path: String, report: BatchReport, time: Date)] = []
    var unreadable: [String] = []
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names.sorted() where name.hasSuffix(".json") {
      let path = folder + "/" + name
      do throws(BatchError) {
        let report = try BatchReport.load(path: path)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        reports.append((path, report, attributes?[.modificationDate] as? Date ?? .distantPast))
      } catch {
        unreadable.append(error.description)
      }
    }
    reports.sort { $0.time != $1.time ? $0.time < $1.time : $0.path < $1.path }
    self.unreadable = unreadable
    let runs = reports.filter { $0.report.command == "run" }
    // The latest entry of each job (a not-run entry does not hide an earlier outcome), by id.
    var latest: [String: (entry: BatchReport.Entry, shard: String?)] = [:]
    var running: Set<String> = []
    for (_, report, _) in runs {
      for entry in report.jobs {
        if entry.status == .running { running.insert(entry.id) }
        if entry.status != .notRun || latest[entry.id] == nil { latest[entry.id] = (entry, report.shard) }
      }
    }
    var rows: [Row] = []
    for job in plan.jobs {
      let spec = job.spec
      let last = latest[spec.id]
      let state: State
      if running.contains(spec.id) {
        state = .running
      } else if BatchRunner.isUpToDate(job) {
        state = last?.entry.status == .rendered ? .done : .upToDate
      } else if last?.entry.status == .failed {
        state = .failed
      } else {
        state = .missing
      }
      rows.append(Self.row(index: spec.index, kind: spec.kind, id: spec.id, name: spec.name, state: state, last: last))
    }
    var merged: [String: (entry: BatchReport.Entry, shard: String?)] = [:]
    for (_, report, _) in reports where report.command == "merge" {
      for entry in report.jobs where entry.status != .notRun { merged[entry.id] = (entry, nil) }
    }
    for merge in plan.merges {
      let last = merged[merge.spec.id]
      let state: State =
        BatchMerger.isUpToDate(merge)
        ? (last?.entry.status == .rendered ? .done : .upToDate)
        : (last?.entry.status == .failed ? .failed : .missing)
      rows.append(
        Self.row(index: nil, kind: "merge", id: merge.spec.id, name: merge.spec.name, state: state, last: last))
    }
    self.rows = rows
    eta = Self.eta(plan: plan, runs: runs.map { $0.report })
  }

  private static func row(
    index: Int?, kind: String, id: String, name: String, state: State,
    last: (entry: BatchReport.Entry, shard: String?)?
  ) -> Row {
    let entry = last?.entry
    let word = entry?.status.rawValue
    let detail = state == .missing && (word == "interrupted" || word == "not-run") ? word : nil
    return Row(
      index: index, kind: kind, id: id, name: name, state: state, detail: detail, shard: last?.shard,
      seconds: entry?.seconds ?? 0, exitCode: state == .failed ? entry?.exitCode : nil,
      error: state == .failed ? entry?.error : nil, attempts: entry?.attempts)
  }

  /// The live shards' remaining estimated cost (``ShardBalance/cost(_:)``) at the cost per
  /// second of the jobs the reports show rendered; the slowest live shard decides.
  static func eta(plan: BatchPlan, runs: [BatchReport]) -> Double? {
    let byID = Dictionary(plan.jobs.map { ($0.spec.id, $0) }, uniquingKeysWith: { a, _ in a })
    var cost = 0.0, seconds = 0.0
    for report in runs {
      for entry in report.jobs where entry.status == .rendered && entry.seconds > 0 {
        guard let job = byID[entry.id] else { continue }
        cost += Double(ShardBalance.cost(job.spec))
        seconds += entry.seconds
      }
    }
    let live = runs.filter(\.isLive)
    guard !live.isEmpty, cost > 0, seconds > 0 else { return nil }
    let rate = cost / seconds
    return live.map { report in
      report.jobs.filter { $0.status == .running || $0.status == .notRun }.reduce(0.0) { sum, entry in
        guard let job = byID[entry.id], !BatchRunner.isUpToDate(job) else { return sum }
        return sum + Double(ShardBalance.cost(job.spec)) / rate
      }
    }.max()
  }

  /// How many rows are in `state`.
  package func count(_ state: State) -> Int { rows.filter { $0.state == state }.count }

  /// `flick status`'s exit code: 0 every job and merge is done or up to date; 1 some failed
  /// (or, with nothing running, some are missing); 4 some are running and none failed.
  package var exitCode: Int32 {
    if count(.failed) > 0 { return 1 }
    if count(.running) > 0 { return 4 }
    return count(.missing) > 0 ? 1 : 0
  }

  /// The one-line summary: counts of jobs and merges by state, and the ETA.
  package var summary: String {
    func tally(_ rows: [Row]) -> String {
      State.allCases.compactMap { state in
        let n = rows.filter { $0.state == state }.count
        return n == 0 ? nil : "\(n) \(state.rawValue)"
      }.joined(separator: ", ")
    }
    let jobs = rows.filter { $0.kind != "merge" }, merges = rows.filter { $0.kind == "merge" }
    var line = "\(jobs.count) job\(jobs.count == 1 ? "" : "s"): \(tally(jobs))"
    if !merges.isEmpty { line += "; \(merges.count) merge\(merges.count == 1 ? "" : "s"): \(tally(merges))" }
    if count(.running) > 0 {
      line += "; ETA " + (eta.map { Self.clock($0) } ?? "--:--")
    }
    return line
  }

  /// `m:ss` (or `h:mm:ss`) for `seconds`.
  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded(.up))
    return s >= 3600
      ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
  }
}
