import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// Running a plan as a platform team does: ffmpeg checked once per process (probes counted),
/// `--retries` for environment failures only, debug runs that keep the plan's report, and
/// `flick status` with its exit codes and gallery.
@Suite struct BatchOperationsTests {
  typealias F = BatchFixtures

  /// A workspace with the fixtures and a manifest of 4 short clips (2 variants × 2 sizes) to MP4 + GIF.
  static func workspace() throws -> URL {
    let dir = try F.workspace()
    try """
    { flick: 1, output: "out", renders: [ { template: "slide.json5", variants: [{}, { accent: "#22C55E" }],
      sizes: ["128x72", "64x36"], formats: ["mp4", "gif"], frames: [0, 9] } ] }
    """.write(to: dir.appendingPathComponent("ops.json5"), atomically: true, encoding: .utf8)
    let planned = try F.flick(["plan", "ops.json5", "-o", "plan.json"], in: dir)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    return dir
  }

  /// An ffmpeg that logs each invocation's arguments to `log` (one line each) and, while the
  /// file `fail` holds a number above 0, makes that many encodes fail (counting down): every
  /// encode, or only those whose arguments contain `failing` (`paletteuse`: a GIF's encoding
  /// pass, which runs after the job's last frame).
  static func ffmpegWrapper(in dir: URL, failing: String = "") throws -> (path: String, log: URL, fail: URL) {
    let real = try #require(
      ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) })
    let log = dir.appendingPathComponent("ffmpeg.log"), fail = dir.appendingPathComponent("ffmpeg.fail")
    let script = dir.appendingPathComponent("ffmpeg")
    try """
    #!/bin/sh
    echo "$*" >> '\(log.path)'
    case " $* " in *" -encoders "*|*" -version "*) exec '\(real)' "$@";; esac
    case " $* " in *'\(failing)'*)
      n=$(cat '\(fail.path)' 2>/dev/null || echo 0)
      if [ "$n" -gt 0 ]; then echo $((n - 1)) > '\(fail.path)'; echo "simulated failure" >&2; exit 1; fi;;
    esac
    exec '\(real)' "$@"
    """.write(to: script, atomically: true, encoding: .utf8)
    try ExecutableScript.settle(script.path)
    return (script.path, log, fail)
  }

  static func lines(_ url: URL) -> [String] {
    ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  static func probes(_ url: URL) -> Int {
    lines(url).filter { $0.contains("-encoders") || $0.contains("-version") }.count
  }

  @Test func ffmpegIsProbedAtMostOncePerProcessNotPerJob() throws {
    let dir = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let ffmpeg = try Self.ffmpegWrapper(in: dir)
    var env = F.cleanEnvironment
    env["FLICK_FFMPEG"] = ffmpeg.path
    let run = try F.flick(["run", "plan.json", "-q"], in: dir, environment: env)
    expectEqual(run.status, 0, "\(run.stderr)")
    let encodes = Self.lines(ffmpeg.log).filter { !$0.contains("-encoders") && !$0.contains("-version") }
    // 4 jobs, each an MP4 and a GIF: ffmpeg ran for each output, and was probed at most once.
    expectGreaterOrEqual(encodes.count, 8, "\(encodes)")
    expectLessOrEqual(Self.probes(ffmpeg.log), 1, "\(Self.lines(ffmpeg.log))")
  }

  @Test func environmentFailuresAreRetriedAndInvalidInputIsNot() throws {
    let dir = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let ffmpeg = try Self.ffmpegWrapper(in: dir)
    var env = F.cleanEnvironment
    env["FLICK_FFMPEG"] = ffmpeg.path
    // The first encode fails (exit 3 for the job): tried again, it renders.
    try "1".write(to: ffmpeg.fail, atomically: true, encoding: .utf8)
    let retried = try F.flick(
      ["run", "plan.json", "--index", "0", "--retries", "2", "--progress", "lines"], in: dir, environment: env)
    expectEqual(retried.status, 0, "\(retried.stderr)")
    #expect(retried.stderr.contains("retrying slide/1/128x72 (attempt 2 of 3)"), "\(retried.stderr)")
    let report = try BatchReport.load(path: dir.appendingPathComponent("out/.flick/reports/job-0.json").path)
    #expect(report.jobs.map(\.status) == [.rendered] && report.jobs[0].attempts == 2, "\(report.jobs)")
    // Without --retries the same failure fails the job with exit 3.
    try "1".write(to: ffmpeg.fail, atomically: true, encoding: .utf8)
    let once = try F.flick(["run", "plan.json", "--index", "1", "-q"], in: dir, environment: env)
    expectEqual(once.status, 3, "\(once.stderr)")
    // Invalid input (a job over --max-frames: exit 2) is never retried: ffmpeg never starts.
    try? FileManager.default.removeItem(at: ffmpeg.log)
    let invalid = try F.flick(
      ["run", "plan.json", "--index", "2", "--retries", "3", "--max-frames", "2", "-q"], in: dir, environment: env)
    expectEqual(invalid.status, 2, "\(invalid.stderr)")
    #expect(Self.lines(ffmpeg.log).isEmpty, "\(Self.lines(ffmpeg.log))")
    let refused = try BatchReport.load(path: dir.appendingPathComponent("out/.flick/reports/job-2.json").path)
    #expect(refused.jobs[0].status == .failed && refused.jobs[0].exitCode == 2 && refused.jobs[0].attempts == nil)
  }

  @Test func aDebugRunKeepsThePlansReportAndStatusCountsEveryReport() throws {
    let dir = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = F.cleanEnvironment
    let reports = dir.appendingPathComponent("out/.flick/reports")
    // Nothing run yet: every job missing, exit 1.
    let before = try F.flick(["status", "plan.json"], in: dir, environment: env)
    expectEqual(before.status, 1, "\(before.stderr)")
    #expect(before.text.contains("4 jobs: 4 missing"), "\(before.text)")
    // The whole plan, then a debug run of one job by name, forced: run.json stays the plan's.
    try expectEqual(F.flick(["run", "plan.json", "-q"], in: dir, environment: env).status, 0)
    let plan = try Data(contentsOf: reports.appendingPathComponent("run.json"))
    let debug = try F.flick(["run", "plan.json", "--job", "slide/2/64x36", "--force", "-q"], in: dir, environment: env)
    expectEqual(debug.status, 0, "\(debug.stderr)")
    try expectEqual(Data(contentsOf: reports.appendingPathComponent("run.json")), plan)
    #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("job-3.json").path))
    // All done: exit 0; the gallery links every output relatively and shows each GIF.
    let html = dir.appendingPathComponent("site/index.html")
    let after = try F.flick(["status", "plan.json", "--jobs", "--html", html.path], in: dir, environment: env)
    expectEqual(after.status, 0, "\(after.stderr)")
    #expect(after.text.contains("4 jobs: 4 done"), "\(after.text)")
    let page = try String(contentsOf: html, encoding: .utf8)
    for name in ["slide/1/128x72", "slide/1/64x36", "slide/2/128x72", "slide/2/64x36"] {
      #expect(page.contains("<img src=\"../out/\(name).gif\""), "\(name)")
      #expect(page.contains("href=\"../out/\(name).mp4\""), "\(name)")
    }
    #expect(page.contains("accent"))
    #expect(page.contains("#22C55E"))
    #expect(page.contains("128×72"))
    // A missing output: that job is missing again, exit 1.
    try FileManager.default.removeItem(at: dir.appendingPathComponent("out/slide/1/64x36.gif"))
    let broken = try F.flick(["status", "plan.json"], in: dir, environment: env)
    expectEqual(broken.status, 1, "\(broken.text)")
    #expect(broken.text.contains("missing\tslide/1/64x36"), "\(broken.text)")
  }

  @Test func aReportIsRunningExactlyWhileItsLockIsHeld() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-lock")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("shard-1-of-2.json").path
    func entry(_ index: Int, _ status: BatchReport.Status) -> BatchReport.Entry {
      BatchReport.Entry(
        index: index, id: "\(index)", name: "\(index)", status: status, exitCode: nil, error: nil, seconds: 1,
        outputs: [])
    }
    let entries = [entry(0, .rendered), entry(2, .running), entry(4, .notRun)]
    var lock: RunLock? = try RunLock(report: path)
    try BatchReport(command: "run", plan: "p", shard: "1/2", jobs: entries, seconds: 1, owner: RunLock.owner).encoded()
      .write(to: URL(fileURLWithPath: path))
    #expect(RunLock.isHeld(report: path))
    try expectEqual(BatchReport.load(path: path).jobs.map(\.status), [.rendered, .running, .notRun])
    // A second run on the same report is refused while the first holds it.
    #expect(throws: BatchError.self) { try RunLock(report: path) }
    withExtendedLifetime(lock) {}
    lock = nil
    #expect(!RunLock.isHeld(report: path))
    let ended = try BatchReport.load(path: path)
    expectEqual(ended.jobs.map(\.status), [.rendered, .interrupted, .notRun])
    expectEqual(ended.exitCode, 130)
  }
}
