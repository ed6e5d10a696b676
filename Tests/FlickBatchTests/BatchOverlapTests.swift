import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// `flick run` finishes a job (its encoders' last work, the commit, the stamps) in the background
/// while it draws the next: the outputs are those of jobs run one at a time, commits keep their
/// order, and a failure in the background stops, is retried or is passed over exactly as one in
/// the foreground (`BatchRun`).
@Suite struct BatchOverlapTests {
  typealias F = BatchFixtures
  typealias Ops = BatchOperationsTests

  /// The JSON events of a `--progress json` run, as (event, job index, status).
  static func events(_ stderr: String) -> [(event: String, index: Int, status: String?)] {
    stderr.split(separator: "\n").compactMap { line in
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let event = object["event"] as? String, let index = object["index"] as? Int
      else { return nil }
      return (event, index, object["status"] as? String)
    }
  }

  /// Every output file under `out/` (stamps included, reports and locks not), with its bytes.
  static func outputs(_ dir: URL) throws -> [String: Data] {
    let out = dir.appendingPathComponent("out")
    var files: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: out.path)
    while let path = walker?.nextObject() as? String {
      guard !path.hasPrefix(".flick") else { continue }
      var isFolder: ObjCBool = false
      let url = out.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
        files[path] = try Data(contentsOf: url)
      }
    }
    return files
  }

  @Test func jobsFinishBesideTheNextAndWriteWhatOneAtATimeWrites() throws {
    let together = try Ops.workspace()
    let alone = try Ops.workspace()
    defer {
      try? FileManager.default.removeItem(at: together)
      try? FileManager.default.removeItem(at: alone)
    }
    let run = try F.flick(["run", "plan.json", "--progress", "json"], in: together, environment: F.cleanEnvironment)
    expectEqual(run.status, 0, "\(run.stderr)")
    let events = Self.events(run.stderr)
    // Every job but the last was handed over to finish in the background, before the next drew.
    expectEqual(events.filter { $0.event == "finishing" }.map(\.index), [0, 1, 2], "\(run.stderr)")
    for i in 0..<3 {
      let handedOver = try #require(events.firstIndex { $0.event == "finishing" && $0.index == i })
      let nextDraws = try #require(events.firstIndex { $0.event == "frame" && $0.index == i + 1 })
      #expect(handedOver < nextDraws, "\(run.stderr)")
    }
    expectEqual(events.filter { $0.event == "job" }.map(\.status), Array(repeating: "rendered", count: 4))
    let report = try BatchReport.load(path: together.appendingPathComponent("out/.flick/reports/run.json").path)
    expectEqual(report.jobs.map(\.status), Array(repeating: .rendered, count: 4))
    expectEqual(report.jobs.map(\.index), [0, 1, 2, 3])

    // One job per process: nothing beside it. The same files, stamps included.
    for i in 0..<4 {
      let one = try F.flick(["run", "plan.json", "--index", "\(i)", "-q"], in: alone, environment: F.cleanEnvironment)
      expectEqual(one.status, 0, "\(one.stderr)")
    }
    let expected = try Self.outputs(alone)
    expectEqual(expected.count, 16, "\(expected.keys.sorted())")
    let written = try Self.outputs(together)
    expectEqual(written.keys.sorted(), expected.keys.sorted())
    for (path, bytes) in expected { #expect(written[path] == bytes, "\(path) differs") }
    // Up to date now: nothing is drawn or handed over.
    let again = try F.flick(["run", "plan.json", "--progress", "json"], in: together, environment: F.cleanEnvironment)
    expectEqual(Self.events(again.stderr).map(\.status), Array(repeating: "skipped", count: 4), "\(again.stderr)")
  }

  @Test func aFailureInTheBackgroundStopsRetriesOrPassesAsInTheForeground() throws {
    let dir = try Ops.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    // The GIF encoding pass fails: after job 0's last frame, once it finishes in the background.
    let ffmpeg = try Ops.ffmpegWrapper(in: dir, failing: "paletteuse")
    var env = F.cleanEnvironment
    env["FLICK_FFMPEG"] = ffmpeg.path
    let reportPath = dir.appendingPathComponent("out/.flick/reports/run.json").path

    // Job 0's GIF fails after it was handed over: the jobs after it are not run, and none of
    // their files is written, whether it was drawn, finishing or not started.
    try "1".write(to: ffmpeg.fail, atomically: true, encoding: .utf8)
    let stopped = try F.flick(["run", "plan.json", "--progress", "json"], in: dir, environment: env)
    expectEqual(stopped.status, 3, "\(stopped.stderr)")
    let events = Self.events(stopped.stderr)
    #expect(events.contains { $0.event == "finishing" && $0.index == 0 }, "\(stopped.stderr)")
    var report = try BatchReport.load(path: reportPath)
    expectEqual(report.jobs.map(\.status), [.failed, .notRun, .notRun, .notRun], "\(stopped.stderr)")
    expectEqual(report.jobs[0].exitCode, 3)
    #expect(report.jobs[0].error?.contains("simulated failure") == true, "\(report.jobs[0])")
    expectEqual(try Self.outputs(dir).keys.sorted(), [], "no output, no stamp, no temporary")

    // --keep-going: the others render.
    try "1".write(to: ffmpeg.fail, atomically: true, encoding: .utf8)
    let going = try F.flick(["run", "plan.json", "--keep-going", "-q"], in: dir, environment: env)
    expectEqual(going.status, 3, "\(going.stderr)")
    report = try BatchReport.load(path: reportPath)
    expectEqual(report.jobs.map(\.status), [.failed, .rendered, .rendered, .rendered])
    expectEqual(try Self.outputs(dir).count, 12, "three jobs' MP4, GIF and their stamps")

    // --retries: job 0 is drawn again (once the job beside it has finished) and renders.
    try "1".write(to: ffmpeg.fail, atomically: true, encoding: .utf8)
    let retried = try F.flick(
      ["run", "plan.json", "--force", "--retries", "1", "--progress", "lines"], in: dir, environment: env)
    expectEqual(retried.status, 0, "\(retried.stderr)")
    #expect(retried.stderr.contains("retrying slide/1/128x72 (attempt 2 of 2)"), "\(retried.stderr)")
    report = try BatchReport.load(path: reportPath)
    expectEqual(report.jobs.map(\.status), Array(repeating: .rendered, count: 4))
    expectEqual(report.jobs.map(\.attempts), [2, nil, nil, nil])
    expectEqual(try Self.outputs(dir).count, 16, "every job's MP4, GIF and their stamps")
  }

  @Test func jobsThatDoNotFitTogetherUnderTheMemoryCapRunOneAtATime() throws {
    let dir = try Ops.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    // What the largest job needs alone (its refusal under a 1 MiB cap says so).
    let refused = try F.flick(
      ["run", "plan.json", "--index", "0", "--jobs", "1", "--max-memory", "1MB", "-q"], in: dir,
      environment: F.cleanEnvironment)
    let needs = try #require(
      refused.stderr.firstMatch(of: /needs about ([0-9]+) MiB/).flatMap { Int($0.output.1) }, "\(refused.stderr)")
    // Room for one job and its encoder lead, not for two.
    let cap = "\(needs * 3 / 2)MiB"
    let two = ["--index", "0", "--index", "1", "--jobs", "1", "--progress", "json"]
    let run = try F.flick(["run", "plan.json", "--max-memory", cap] + two, in: dir, environment: F.cleanEnvironment)
    expectEqual(run.status, 0, "\(run.stderr)")
    expectEqual(Self.events(run.stderr).filter { $0.event == "finishing" }.count, 0, "\(run.stderr)")
    // With room for more: the first finishes beside the second again.
    let roomy = try F.flick(
      ["run", "plan.json", "--force", "--max-memory", "\(needs * 5)MiB"] + two, in: dir,
      environment: F.cleanEnvironment)
    expectEqual(roomy.status, 0, "\(roomy.stderr)")
    #expect(Self.events(roomy.stderr).contains { $0.event == "finishing" }, "\(roomy.stderr)")
  }
}
