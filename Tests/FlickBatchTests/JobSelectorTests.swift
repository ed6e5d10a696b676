import FlickExpectations
import Foundation
import Testing

@testable import FlickBatch

/// `flick run --job` / `--index`: an index (`#15`, `--index 15`), a job name or an id prefix,
/// never two things at once.
@Suite struct JobSelectorTests {
  static let jobs = ShardBalanceTests.plan().jobs

  @Test func anIndexPicksThatJob() throws {
    try expectEqual(JobSelector.select("#15", in: Self.jobs), 15)
    try expectEqual(JobSelector.index("15", in: Self.jobs, option: "--index"), 15)
    try expectEqual(JobSelector.select("#0", in: Self.jobs), 0)
    for bad in ["#48", "#-1", "#x", "#", "#+3"] {
      #expect(throws: BatchError.self) { try JobSelector.select(bad, in: Self.jobs) }
    }
  }

  @Test func aNameOrAnIdPrefixPicksTheOneJobItMatches() throws {
    let job = Self.jobs[21]
    try expectEqual(JobSelector.select(job.name, in: Self.jobs), 21)
    try expectEqual(JobSelector.select(String(job.id.prefix(16)), in: Self.jobs), 21)
    try expectEqual(JobSelector.select(job.id.uppercased(), in: Self.jobs), 21)
  }

  @Test func anAmbiguousPrefixIsRefusedListingTheCandidates() throws {
    // A one-digit prefix matches several of 48 ids: refused, naming each with its index.
    let digit = (0..<16).map { String($0, radix: 16) }.first { d in
      Self.jobs.filter { $0.id.hasPrefix(d) }.count >= 2
    }!
    let matches = Self.jobs.filter { $0.id.hasPrefix(digit) }
    do {
      _ = try JobSelector.select(digit, in: Self.jobs)
      Issue.record("an ambiguous prefix was accepted")
    } catch {
      expectEqual(error.exitCode, 2)
      #expect(error.description.contains("ambiguous: it matches \(matches.count) jobs"), "\(error)")
      for job in matches.prefix(JobSelector.listed) {
        #expect(error.description.contains("#\(job.index) \(job.id.prefix(12))"), "\(error)")
      }
    }
    // A number is an id prefix, never an index: "15" is not job 15.
    let fifteen = Self.jobs.filter { $0.id.hasPrefix("15") }
    if fifteen.count == 1 {
      try expectEqual(JobSelector.select("15", in: Self.jobs), fifteen[0].index)
    } else {
      #expect(throws: BatchError.self) { try JobSelector.select("15", in: Self.jobs) }
    }
  }

  @Test func unknownTextIsRefused() {
    #expect(
      throws: BatchError.invalidInput(
        "--job 'nothing/here': no job has this name or id prefix (an index is '#N' or --index N; "
          + "'flick plan --list' lists the jobs)")
    ) {
      try JobSelector.select("nothing/here", in: Self.jobs)
    }
  }
}
