import FlickMotion
import Foundation

extension BatchReport {
  /// The largest report read, in bytes (100,000 jobs take about 40 MB).
  static let maximumBytes = 128 << 20

  /// Whether the run that writes this report is under way: some job is
  /// ``Status/running`` (as ``load(path:)`` resolves it).
  package var isLive: Bool { jobs.contains { $0.status == .running } }

  /// Reads the report at `path`. A job the file calls ``Status/running`` stays so only while a
  /// process holds the report's lock (``RunLock``); otherwise the run that wrote it has ended
  /// without finishing it (SIGINT, SIGTERM, SIGKILL, a lost node), and the job reads as
  /// ``Status/interrupted`` with exit code 130, the report's counts and exit code with it.
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` when the file is not a report (its text is never
  ///   quoted), ``BatchError/environment(_:)`` when it cannot be read.
  package static func load(path: String) throws(BatchError) -> BatchReport {
    let text: String
    do {
      text = try ManifestScope.read(path, what: "report", limit: maximumBytes, at: nil, followingLinks: false)
    } catch {
      throw .environment(error.description)
    }
    var report: BatchReport
    do {
      report = try JSONDecoder().decode(BatchReport.self, from: Data(text.utf8))
    } catch {
      throw .invalidInput("\(quoted: path) is not a Flick run report: " + DecodingProblem.reason(error))
    }
    guard report.isLive, !RunLock.isHeld(report: path) else { return report }
    for i in report.jobs.indices where report.jobs[i].status == .running {
      report.jobs[i].status = .interrupted
      report.jobs[i].exitCode = 130
      report.jobs[i].error = "interrupted: the run that wrote this report ended during this job"
    }
    let resolved = BatchReport(
      command: report.command, plan: report.plan, shard: report.shard, jobs: report.jobs, seconds: report.seconds)
    return resolved
  }
}
