import FlickMotion

/// Picks jobs of a plan for `flick run --job` / `--index` (debugging one job, re-running one).
///
/// - `#N` (or `--index N`) is the job at index `N` (0-based, as `flick plan --list` and the
///   reports number them);
/// - anything else is a job name (`cards/2/640x360`, a chunk's `… frames 0..29`) or a prefix of
///   a job id. Text that matches more than one job is refused, listing the candidates; a bare
///   number is an id prefix, never an index, so it cannot silently mean two things.
package enum JobSelector {
  /// The most candidates an ambiguity message lists.
  static let listed = 8

  /// The index of the one job `text` names.
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` when no job or more than one matches.
  package static func select(_ text: String, in jobs: [Plan.Job]) throws(BatchError) -> Int {
    if text.hasPrefix("#") { return try index(String(text.dropFirst()), in: jobs, option: "--job") }
    let lower = text.lowercased()
    let byName = jobs.filter { $0.name == text }
    let byID = lower.isEmpty || !lower.allSatisfy(\.isASCIIHexDigit) ? [] : jobs.filter { $0.id.hasPrefix(lower) }
    var matches = byName
    for job in byID where !matches.contains(where: { $0.index == job.index }) { matches.append(job) }
    switch matches.count {
    case 1: return matches[0].index
    case 0:
      throw .invalidInput(
        "--job '\(quoted: text)': no job has this name or id prefix (an index is '#N' or --index N; "
          + "'flick plan --list' lists the jobs)")
    default:
      let shown = matches.sorted { $0.index < $1.index }.prefix(listed).map {
        "#\($0.index) \($0.id.prefix(12)) '\(quoted: $0.name)'"
      }
      let more = matches.count > listed ? ", … (\(matches.count - listed) more)" : ""
      throw .invalidInput(
        "--job '\(quoted: text)' is ambiguous: it matches \(matches.count) jobs "
          + "(\(escaped: shown.joined(separator: ", ") + more)); "
          + "give more of the id, the whole name, or '#N'")
    }
  }

  /// The job at the index `text` (a whole number, 0 ≤ N < the number of jobs).
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` naming `option` when it is not one.
  package static func index(_ text: String, in jobs: [Plan.Job], option: String) throws(BatchError) -> Int {
    guard let v = DecimalText.optionValue(text), v == v.rounded(), v >= 0, v < Double(jobs.count) else {
      let count = max(1, jobs.count)
      throw .invalidInput(
        "\(escaped: option) '\(quoted: text)': not a job index; the plan's jobs are numbered 0…\(count - 1)")
    }
    return Int(v)
  }

  /// A short name for a set of jobs (a debug run's report): 12 hex digits of a hash of their ids.
  package static func label(_ ids: [String]) -> String { String(JobIdentity.hash(ids).prefix(12)) }
}
