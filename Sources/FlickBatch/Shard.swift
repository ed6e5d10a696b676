import FlickMotion
import Foundation

/// Which share of a plan a worker runs: shard ``index`` (1-based) of ``count``.
///
/// `--shard I/N` gives it directly (1-based, like Jest and Playwright). `--shard auto` reads it
/// from the scheduler's environment (``detect(environment:count:)``).
package struct Shard: Sendable, Equatable, CustomStringConvertible {
  /// 1…``count``.
  package var index: Int
  package var count: Int
  /// Where it came from, for messages and reports (`--shard`, `SLURM_ARRAY_TASK_ID`, …).
  package var source: String

  package init(index: Int, count: Int, source: String = "--shard") {
    self.index = index
    self.count = count
    self.source = source
  }

  package var description: String { "\(index)/\(count)" }

  /// Parses `I/N` (1 ≤ I ≤ N; whole numbers, read as every number Flick reads:
  /// ``FlickMotion/DecimalText/optionValue(_:)``).
  package static func parse(_ text: String) throws(BatchError) -> Shard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    func whole(_ part: Substring) -> Int? {
      guard let v = DecimalText.optionValue(part), v == v.rounded(), v.magnitude <= 1e9 else { return nil }
      return Int(v)
    }
    guard parts.count == 2, let i = whole(parts[0]), let n = whole(parts[1]), n >= 1, (1...n).contains(i) else {
      throw .invalidInput("--shard expects I/N with 1 ≤ I ≤ N (such as 2/3) or 'auto', found '\(quoted: text)'")
    }
    return Shard(index: i, count: n)
  }

  /// The scheduler variables `--shard auto` reads, each a way to get a 0-based index and count.
  enum Scheduler: CaseIterable {
    case slurm, kubernetes, gitlab, buildkite, circleci

    var name: String {
      switch self {
      case .slurm: "Slurm"
      case .kubernetes: "Kubernetes"
      case .gitlab: "GitLab"
      case .buildkite: "Buildkite"
      case .circleci: "CircleCI"
      }
    }

    /// The variable naming the index (present means this scheduler is in play).
    var indexVariable: String {
      switch self {
      case .slurm: "SLURM_ARRAY_TASK_ID"
      case .kubernetes: "JOB_COMPLETION_INDEX"
      case .gitlab: "CI_NODE_INDEX"
      case .buildkite: "BUILDKITE_PARALLEL_JOB"
      case .circleci: "CIRCLE_NODE_INDEX"
      }
    }

    /// The variable naming the count, if the scheduler sets one.
    var countVariable: String? {
      switch self {
      case .slurm: "SLURM_ARRAY_TASK_COUNT"
      case .kubernetes: nil
      case .gitlab: "CI_NODE_TOTAL"
      case .buildkite: "BUILDKITE_PARALLEL_JOB_COUNT"
      case .circleci: "CIRCLE_NODE_TOTAL"
      }
    }

    /// The value of the first index (GitLab counts from 1).
    var firstIndex: Int { self == .gitlab ? 1 : 0 }
  }

  /// The shard the scheduler's environment names.
  ///
  /// - `SLURM_ARRAY_TASK_ID` (0-based: submit `--array=0-(N-1)`) with `SLURM_ARRAY_TASK_COUNT`,
  ///   checked against `SLURM_ARRAY_TASK_MIN`/`MAX`; with `count` (`--shard-count`) the array
  ///   may be a subset of the shards, as when one failed index is resubmitted alone.
  /// - `JOB_COMPLETION_INDEX` (Kubernetes Indexed Job, 0-based) with `count` (its `completions`).
  /// - `CI_NODE_INDEX` (1-based) / `CI_NODE_TOTAL` (GitLab `parallel:`).
  /// - `BUILDKITE_PARALLEL_JOB` / `BUILDKITE_PARALLEL_JOB_COUNT` (0-based).
  /// - `CIRCLE_NODE_INDEX` / `CIRCLE_NODE_TOTAL` (0-based).
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` when none is set, a value is not a number or out
  ///   of range, or two schedulers' variables disagree.
  package static func detect(environment env: [String: String], count: Int? = nil) throws(BatchError) -> Shard {
    var found: [Shard] = []
    for scheduler in Scheduler.allCases {
      guard let indexText = env[scheduler.indexVariable] else { continue }
      found.append(try shard(scheduler, indexText: indexText, env: env, count: count))
    }
    guard let first = found.first else {
      let names = Scheduler.allCases.map(\.indexVariable).joined(separator: ", ")
      throw .invalidInput(
        "--shard auto found no scheduler index in the environment (looked for \(names)); give --shard I/N")
    }
    for other in found.dropFirst() where other.index != first.index || other.count != first.count {
      throw .invalidInput(
        "--shard auto: the environment disagrees: \(quoted: first.source) gives shard \(quoted: first) but \(quoted: other.source) gives \(quoted: other); "
          + "unset one or give --shard I/N")
    }
    return first
  }

  private static func number(_ env: [String: String], _ name: String) throws(BatchError) -> Int? {
    guard let text = env[name] else { return nil }
    guard let v = Int(text.trimmingCharacters(in: .whitespaces)) else {
      throw .invalidInput("--shard auto: \(quoted: name)=\(quoted: text) is not a whole number")
    }
    return v
  }

  private static func shard(_ s: Scheduler, indexText: String, env: [String: String], count: Int?) throws(BatchError)
    -> Shard
  {
    let source = s.indexVariable
    guard let raw = try number(env, s.indexVariable) else {
      throw .invalidInput("--shard auto: \(quoted: source) is empty")
    }
    let index = raw - s.firstIndex
    let given = try s.countVariable.flatMap { name throws(BatchError) in try number(env, name) }
    let total: Int
    if s == .slurm {
      let min = try number(env, "SLURM_ARRAY_TASK_MIN")
      let max = try number(env, "SLURM_ARRAY_TASK_MAX")
      if let min, let max, !(min...max).contains(raw) {
        throw .invalidInput(
          "--shard auto: SLURM_ARRAY_TASK_ID=\(quoted: raw) is outside "
            + "SLURM_ARRAY_TASK_MIN…MAX (\(min)…\(max))")
      }
      if let count {
        total = count
        if let max, max >= count {
          throw .invalidInput(
            "--shard auto: the Slurm array reaches index \(max) but --shard-count is \(count); submit --array=0-\(count - 1)"
          )
        }
      } else {
        guard let given else {
          throw .invalidInput(
            "--shard auto: SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT; give --shard-count N")
        }
        // Without --shard-count the array must be exactly 0…N−1, or a resubmitted index would
        // silently become shard 1 of 1.
        if let min, let max, min != 0 || max != given - 1 {
          throw .invalidInput(
            "--shard auto: the Slurm array is \(min)…\(max) with \(quoted: given) tasks, not 0…\(quoted: given - 1); "
              + "give --shard-count N (the full number of shards)")
        }
        total = given
      }
    } else {
      switch (given, count) {
      case (let g?, let c?) where g != c:
        throw .invalidInput(
          "--shard auto: \(quoted: s.countVariable ?? "")=\(quoted: g) disagrees with --shard-count "
            + "\(quoted: c)")
      case (let g?, _): total = g
      case (nil, let c?): total = c
      case (nil, nil):
        throw .invalidInput(
          "--shard auto: \(quoted: source) is set but \(quoted: s.name) gives no count"
            + (s == .kubernetes ? "; give --shard-count N (the Indexed Job's completions)" : "; give --shard-count N"))
      }
    }
    guard total >= 1 else { throw .invalidInput("--shard auto: the \(quoted: s.name) shard count \(total) is below 1") }
    guard (0..<total).contains(index) else {
      throw .invalidInput(
        "--shard auto: \(quoted: source)=\(quoted: raw) is outside the \(total) shards (\(quoted: s.name) counts from \(quoted: s.firstIndex))"
      )
    }
    return Shard(index: index + 1, count: total, source: source)
  }
}
