import Foundation

/// What one `flick run` (or `flick merge`) did, written as JSON for the pipeline: one entry per
/// job with its status, time and outputs, and the counts.
package struct BatchReport: Codable, Sendable, Equatable {
  package enum Status: String, Codable, Sendable {
    /// Rendered now.
    case rendered
    /// Up to date (every output carried the job's stamp): nothing done.
    case skipped
    /// Failed; ``Entry/exitCode`` and ``Entry/error`` say why.
    case failed
    /// Not attempted: an earlier job failed without `--keep-going`, or the run was interrupted.
    case notRun = "not-run"
    /// Under way when the run stopped: interrupted (SIGINT, SIGTERM; ``Entry/exitCode`` 130), or
    /// the process was killed outright. A report read with ``load(path:)`` says so of a job the
    /// file still calls ``running`` when the run that wrote it no longer holds its lock.
    case interrupted
    /// Under way now: `flick run` writes its report with the job it starts marked so before
    /// rendering it (and holds the report's lock, ``RunLock``, while it runs), so whatever stops
    /// the shard leaves a report naming the job.
    case running
  }

  /// The process that wrote a report while it runs, for people and for ``load(path:)``.
  package struct Owner: Codable, Sendable, Hashable {
    package var pid: Int32
    /// The host name.
    package var host: String
    /// The process's start time in clock ticks after boot (`/proc/PID/stat`, field 22): with
    /// ``pid``, names the process even after its PID is reused.
    package var started: UInt64
  }

  package struct Entry: Codable, Sendable, Hashable {
    package var index: Int
    package var id: String
    package var name: String
    package var status: Status
    /// The job's own exit code when it failed: 2 invalid input (do not retry), 3 environment, 130 interrupted.
    package var exitCode: Int32?
    package var error: String?
    /// Wall time spent on the job, in seconds.
    package var seconds: Double
    /// Output paths relative to the output root.
    package var outputs: [String]
    /// How many times the job was tried (`--retries`); absent when once.
    package var attempts: Int?
  }

  /// `run` or `merge`.
  package var command: String
  package var plan: String
  /// `I/N`, or nil for a run of chosen jobs or a merge.
  package var shard: String?
  package var jobs: [Entry]
  package var rendered: Int
  package var skipped: Int
  package var failed: Int
  package var notRun: Int
  package var seconds: Double
  /// The process exit code (``exitCode(of:)``).
  package var exitCode: Int32
  /// The run that writes this report, while its jobs are under way (absent once it is done).
  package var owner: Owner?

  package init(
    command: String, plan: String, shard: String?, jobs: [Entry], seconds: Double, owner: Owner? = nil
  ) {
    self.command = command
    self.plan = plan
    self.shard = shard
    self.jobs = jobs
    self.rendered = jobs.filter { $0.status == .rendered }.count
    self.skipped = jobs.filter { $0.status == .skipped }.count
    self.failed = jobs.filter { $0.status == .failed }.count
    self.notRun = jobs.filter { $0.status == .notRun }.count
    self.seconds = seconds
    self.exitCode = Self.exitCode(of: jobs)
    self.owner = owner
  }

  /// The exit code of a run: 0 when nothing failed; 130 when interrupted; otherwise 2 when any
  /// job's input is invalid (a retry cannot fix it), else 3 (a retry may, and re-runs only
  /// what is not up to date).
  package static func exitCode(of jobs: [Entry]) -> Int32 {
    let codes = Set(jobs.compactMap(\.exitCode))
    if codes.isEmpty { return 0 }
    if codes.contains(130) { return 130 }
    if codes.contains(2) { return 2 }
    return 3
  }
}

// Read by hand only for `seconds`: the report writes a time that is not finite as `null` (JSON
// has no NaN or infinity, ``JSONText/number(_:significantDigits:)``), which reads back as NaN,
// a time no one knows, and is written as `null` again.
extension BatchReport.Entry {
  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    index = try c.decode(Int.self, forKey: .index)
    id = try c.decode(String.self, forKey: .id)
    name = try c.decode(String.self, forKey: .name)
    status = try c.decode(BatchReport.Status.self, forKey: .status)
    exitCode = try c.decodeIfPresent(Int32.self, forKey: .exitCode)
    error = try c.decodeIfPresent(String.self, forKey: .error)
    seconds = try c.decodeSeconds(forKey: .seconds)
    outputs = try c.decode([String].self, forKey: .outputs)
    attempts = try c.decodeIfPresent(Int.self, forKey: .attempts)
  }
}

extension BatchReport {
  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    command = try c.decode(String.self, forKey: .command)
    plan = try c.decode(String.self, forKey: .plan)
    shard = try c.decodeIfPresent(String.self, forKey: .shard)
    jobs = try c.decode([Entry].self, forKey: .jobs)
    rendered = try c.decode(Int.self, forKey: .rendered)
    skipped = try c.decode(Int.self, forKey: .skipped)
    failed = try c.decode(Int.self, forKey: .failed)
    notRun = try c.decode(Int.self, forKey: .notRun)
    seconds = try c.decodeSeconds(forKey: .seconds)
    exitCode = try c.decode(Int32.self, forKey: .exitCode)
    owner = try c.decodeIfPresent(Owner.self, forKey: .owner)
  }
}

extension KeyedDecodingContainer {
  /// A number of seconds, NaN for `null` (a time that was not finite); a missing key is an error.
  fileprivate func decodeSeconds(forKey key: Key) throws -> Double {
    try decodeNil(forKey: key) ? .nan : decode(Double.self, forKey: key)
  }
}
