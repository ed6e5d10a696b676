import FlickExpectations
import Foundation
import Testing

@testable import FlickBatch

/// `BatchReport.encoded()`, written by hand for `flick run`'s checkpoint before every job: the
/// bytes `JSONEncoder` wrote before (pretty-printed, sorted keys) for ordinary reports, every
/// report read back whole by `Codable`, hostile text included, and a report of thousands of jobs
/// cheap to write again after one entry changed.
@Suite struct BatchReportJSONTests {
  static func entry(_ i: Int, _ status: BatchReport.Status = .rendered) -> BatchReport.Entry {
    BatchReport.Entry(
      index: i, id: String(repeating: "ab", count: 32), name: "cards/\(i)/640x360", status: status,
      exitCode: status == .failed ? 3 : nil, error: status == .failed ? "ffmpeg failed (exit 1)" : nil,
      seconds: 0.25 + Double(i) / 7, outputs: ["cards/\(i)/640x360.mp4", "cards/\(i)/640x360.gif"],
      attempts: i == 2 ? 2 : nil)
  }

  static func foundationJSON(_ report: BatchReport) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(report) + Data("\n".utf8)
  }

  @Test func ordinaryReportsAreTheBytesJSONEncoderWrote() throws {
    let owner = BatchReport.Owner(pid: 4242, host: "node-7", started: 123_456_789)
    let reports = [
      BatchReport(
        command: "run", plan: "out/plan.json", shard: "2/4",
        jobs: [Self.entry(0), Self.entry(1, .failed), Self.entry(2)],
        seconds: 12.5, owner: owner),
      BatchReport(
        command: "merge", plan: "plan.json", shard: nil, jobs: [Self.entry(0, .skipped), Self.entry(1, .notRun)],
        seconds: 0.001),
    ]
    for report in reports {
      let ours = String(decoding: report.encoded(), as: UTF8.self)
      let theirs = String(decoding: try Self.foundationJSON(report), as: UTF8.self)
      expectEqual(ours, theirs)
    }
  }

  @Test func everyReportReadsBackWhole() throws {
    let hostile = "quote \" backslash \\ slash / newline \n tab \t nul \u{0} bell \u{7} é 😀 \u{2028}"
    var odd = Self.entry(9, .failed)
    odd.error = hostile
    odd.name = hostile
    odd.outputs = []
    odd.seconds = 1e-7
    let reports = [
      BatchReport(
        command: "run", plan: hostile, shard: hostile, jobs: [odd, Self.entry(1, .interrupted)], seconds: 3e9),
      BatchReport(command: "run", plan: "p", shard: nil, jobs: [], seconds: 0),
      BatchReport(command: "run", plan: "p", shard: nil, jobs: [Self.entry(3)], seconds: 2.0),
    ]
    for report in reports {
      let data = report.encoded()
      #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(String(decoding: data, as: UTF8.self))")
      expectEqual(try JSONDecoder().decode(BatchReport.self, from: data), report)
    }
  }

  /// A time that is not finite (NaN, ±infinity) was written as 0, a time no one measured read as
  /// an instant job. As every JSON Flick writes by hand (`JSONText.number`), it is `null`, which
  /// reads back as NaN and is written as `null` again.
  @Test func aTimeThatIsNotFiniteIsNullNotZero() throws {
    for value in [Double.nan, .infinity, -.infinity] {
      var job = Self.entry(4)
      job.seconds = value
      let report = BatchReport(command: "merge", plan: "p", shard: nil, jobs: [job, Self.entry(5)], seconds: value)
      let data = report.encoded()
      let text = String(decoding: data, as: UTF8.self)
      #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(text)")
      expectEqual(text.components(separatedBy: "\"seconds\" : null").count - 1, 2, "\(text)")
      #expect(!text.contains("\"seconds\" : 0,"), "\(text)")
      let read = try JSONDecoder().decode(BatchReport.self, from: data)
      #expect(read.seconds.isNaN && read.jobs[0].seconds.isNaN, "\(value)")
      expectEqual(read.jobs[1], Self.entry(5))
      expectEqual(read.encoded(), data)
    }
    // A report without its seconds is still no report.
    let missing = Data(
      #"{"command":"run","plan":"p","jobs":[],"rendered":0,"skipped":0,"failed":0,"notRun":0,"exitCode":0}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(BatchReport.self, from: missing) }
  }

  @Test func aCheckpointAfterOneChangeReusesEveryOtherJobsText() throws {
    var jobs = (0..<5000).map { Self.entry($0, .notRun) }
    let first = BatchReport(command: "run", plan: "p", shard: nil, jobs: jobs, seconds: 0).encoded()
    jobs[17].status = .running
    let report = BatchReport(command: "run", plan: "p", shard: nil, jobs: jobs, seconds: 1.5)
    let second = report.encoded()
    #expect(second != first)
    // The kept texts of the unchanged jobs and the new one of job 17 make the encoder's bytes.
    expectEqual(second, try Self.foundationJSON(report))
  }
}
