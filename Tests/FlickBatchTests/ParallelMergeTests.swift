import FlickExpectations
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

@testable import FlickBatch

/// `flick merge` merges clips side by side (`--jobs N`, default the usable CPUs): the same bytes
/// as one at a time, reported in the plan's order, and after a failed clip no other starts.
@Suite struct ParallelMergeTests {
  typealias F = BatchFixtures

  /// Three clips of `slide`, each in three two-frame chunks, as MP4 and GIF.
  static let manifest = """
    { flick: 1, output: "out", renders: [
      { template: "slide.json5", name: "a", frames: [24, 29], chunk: 2, formats: ["mp4", "gif"] },
      { template: "slide.json5", name: "b", frames: [26, 31], chunk: 2, formats: ["mp4", "gif"] },
      { template: "slide.json5", name: "c", frames: [28, 33], chunk: 2, formats: ["mp4", "gif"] },
    ] }
    """

  /// The status and name of each clip in `--progress lines` output (`[2/3] rendered b/… (0.8 s)
  /// · …`), in the order printed.
  static func reported(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
      let text = line[line.index(after: close)...].components(separatedBy: "  ·")[0]
      return text.components(separatedBy: " (")[0].trimmingCharacters(in: .whitespaces)
    }
  }

  /// The status of each merge in the report `flick merge` wrote, and its exit code.
  static func report(_ dir: URL) throws -> (statuses: [String], exitCode: Int) {
    let data = try Data(contentsOf: dir.appendingPathComponent("out/.flick/reports/merge.json"))
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let jobs = try #require(report["jobs"] as? [[String: Any]])
    return (jobs.compactMap { $0["status"] as? String }, try #require(report["exitCode"] as? Int))
  }

  /// The merged outputs of every clip, by path under `out`.
  static func outputs(_ dir: URL) throws -> [String: Data] {
    var all: [String: Data] = [:]
    for clip in ["a", "b", "c"] {
      let folder = dir.appendingPathComponent("out/\(clip)/default")
      guard FileManager.default.fileExists(atPath: folder.path) else { continue }
      for (name, data) in try F.files(in: folder) { all["\(clip)/\(name)"] = data }
    }
    return all
  }

  @Test func sideBySideGivesTheBytesAndOrderOfOneAtATime() throws {
    let dir = try ChunkEqualityTests.workspace(Self.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let wide = try F.flick(["merge", "plan.json", "--jobs", "3", "--progress", "lines"], in: dir)
    expectEqual(wide.status, 0, "\(wide.stderr)")
    expectEqual(
      Self.reported(wide.stderr),
      ["rendered a/default/128x72", "rendered b/default/128x72", "rendered c/default/128x72"])
    let merged = try Self.outputs(dir)
    expectEqual(merged.count, 6)

    let one = try F.flick(["merge", "plan.json", "--force", "--jobs", "1", "--progress", "lines"], in: dir)
    expectEqual(one.status, 0, "\(one.stderr)")
    expectEqual(Self.reported(one.stderr), Self.reported(wide.stderr))
    #expect(try Self.outputs(dir) == merged, "a clip merged one at a time is not the bytes merged side by side")
    let report = try String(contentsOf: dir.appendingPathComponent("out/.flick/reports/merge.json"), encoding: .utf8)
    #expect(report.contains(#""index" : 0"#) || report.contains(#""index": 0"#), "\(report)")

    let bad = try F.flick(["merge", "plan.json", "--jobs", "0"], in: dir)
    expectEqual(bad.status, 2, "\(bad.stderr)")
    #expect(bad.stderr.contains("--jobs"), "\(bad.stderr)")
  }

  /// Writes `ffmpeg-barrier` in `dir`, an ffmpeg whose first two `framecrc` runs (the chunk
  /// checks) each wait up to `TICKS` tenths of a second (`ticks` unless the environment says) for
  /// the other to start, and note in the returned log whether it did (`met`) or not (`alone`).
  static func barrier(in dir: URL, ticks: Int) throws -> String {
    let real = try #require(
      ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) })
    let barrier = dir.appendingPathComponent("barrier").path
    let log = dir.appendingPathComponent("barrier.log").path
    let script = dir.appendingPathComponent("ffmpeg-barrier")
    try """
    #!/bin/sh
    case "$*" in *framecrc*)
      mkdir -p '\(barrier)'
      if [ "$(ls '\(barrier)' | wc -l)" -lt 2 ]; then
        touch '\(barrier)'/$$
        i=0
        while [ "$(ls '\(barrier)' | wc -l)" -lt 2 ] && [ $i -lt "${TICKS:-\(ticks)}" ]; do sleep 0.1; i=$((i+1)); done
        if [ $i -lt "${TICKS:-\(ticks)}" ]; then echo met >> '\(log)'; else echo alone >> '\(log)'; fi
      fi;;
    esac
    exec \(real) "$@"
    """.write(to: script, atomically: true, encoding: .utf8)
    try ExecutableScript.settle(script.path)
    return log
  }

  /// Two merges' chunk checks are under way at once: each of the first two `framecrc` runs of
  /// ffmpeg waits (up to `TICKS` tenths of a second) until the other has started, and notes
  /// whether it did. Under a memory cap that holds one merge at a time, they run one after the
  /// other.
  @Test func clipsAreMergedSideBySide() throws {
    let dir = try ChunkEqualityTests.workspace(
      """
      { flick: 1, output: "out", renders: [
        { template: "slide.json5", name: "a", frames: [24, 27], chunk: 2, formats: ["mp4"] },
        { template: "slide.json5", name: "b", frames: [26, 29], chunk: 2, formats: ["mp4"] },
      ] }
      """)
    defer { try? FileManager.default.removeItem(at: dir) }
    let log = try Self.barrier(in: dir, ticks: 300)
    var environment = F.cleanEnvironment
    environment["FLICK_FFMPEG"] = dir.appendingPathComponent("ffmpeg-barrier").path

    let merged = try F.flick(["merge", "plan.json", "--jobs", "2", "-q"], in: dir, environment: environment)
    expectEqual(merged.status, 0, "\(merged.stderr)")
    expectEqual(try String(contentsOfFile: log, encoding: .utf8), "met\nmet\n")

    // 190 MB holds the program (64 MiB) and one of these merges (about 65 MiB), not two: the
    // first check waits its 2 s alone, the second finds it done.
    try FileManager.default.removeItem(at: dir.appendingPathComponent("barrier"))
    try FileManager.default.removeItem(atPath: log)
    environment["TICKS"] = "20"
    let capped = try F.flick(
      ["merge", "plan.json", "--force", "--jobs", "2", "--max-memory", "190M", "-q"], in: dir, environment: environment)
    expectEqual(capped.status, 0, "\(capped.stderr)")
    expectEqual(try String(contentsOfFile: log, encoding: .utf8), "alone\nmet\n")
  }

  /// How many merges of `each` bytes start together under `memoryCap`, as ``BatchMerger/run(progress:)``
  /// admits them (at most `jobs`).
  static func together(_ each: Int, memoryCap: Int, jobs: Int = 64) -> Int {
    var running = 0
    var count = 0
    while count < jobs, BatchMerger.startsBeside(running: running, needs: each, memoryCap: memoryCap) {
      running += each
      count += 1
    }
    return count
  }

  /// The side-by-side count under the memory cap: never more than `--jobs`, never none, and each
  /// merge counted by its own estimate.
  @Test func theMemoryCapBoundsTheClipsSideBySide() {
    let program = MemoryEstimate.programBytes
    expectEqual(Self.together(0, memoryCap: 8 << 30), 64)
    expectEqual(Self.together(200 << 20, memoryCap: program + 10 * (200 << 20)), 10)
    expectEqual(Self.together(200 << 20, memoryCap: 8 << 30, jobs: 4), 4)
    expectEqual(Self.together(200 << 20, memoryCap: 100 << 20), 1)
    expectEqual(Self.together(1 << 60, memoryCap: 0), 1)
    #expect(BatchMerger.startsBeside(running: 0, needs: 1 << 60, memoryCap: 0))
    #expect(BatchMerger.startsBeside(running: 1 << 60, needs: 1 << 60, memoryCap: Int.max))
    #expect(!BatchMerger.startsBeside(running: 1 << 60, needs: 1 << 60, memoryCap: 1 << 61))
    // A 1080p MP4 + GIF clip: its GIF encoder, its MP4 check counted as one more, three frames
    // (what docs/design.md's 37 at once under 8 GiB comes from).
    let frame = 1920 * 1080 * 4
    let clip = 2 * MemoryEstimate.encoderBytes(.gif, width: 1920, height: 1080) + 3 * frame
    expectEqual(clip, 227_553_280)
    expectEqual(Self.together(clip, memoryCap: 8 << 30), 37)
    // Where one more 1080p clip does not fit, a small one does.
    let small = 2 * MemoryEstimate.encoderBytes(.gif, width: 128, height: 72) + 3 * 128 * 72 * 4
    let cap = program + 2 * clip + small
    #expect(BatchMerger.startsBeside(running: 2 * clip, needs: small, memoryCap: cap))
    #expect(!BatchMerger.startsBeside(running: 2 * clip, needs: clip, memoryCap: cap))
  }

  /// A small clip merges beside a large one under a cap that holds the two together but not two
  /// of the large one, the count the largest clip's estimate alone would allow.
  @Test func aSmallClipMergesBesideALargeOneUnderTheCap() throws {
    let dir = try ChunkEqualityTests.workspace(
      """
      { flick: 1, output: "out", renders: [
        { template: "slide.json5", name: "a", frames: [24, 27], chunk: 2, sizes: ["1920x1080"], formats: ["mp4"] },
        { template: "slide.json5", name: "b", frames: [26, 29], chunk: 2, formats: ["mp4"] },
      ] }
      """)
    defer { try? FileManager.default.removeItem(at: dir) }
    let plan = try BatchPlan(
      manifest: try Manifest.load(path: dir.appendingPathComponent("chunks.json5").path), flickVersion: "test")
    let needs = plan.merges.map(BatchMerger.memoryNeeded)
    expectEqual(plan.merges.map(\.width), [1920, 128])
    let cap = MemoryEstimate.programBytes + needs[0] + needs[1]
    #expect(!BatchMerger.startsBeside(running: needs[0], needs: needs[0], memoryCap: cap))
    let log = try Self.barrier(in: dir, ticks: 300)
    var environment = F.cleanEnvironment
    environment["FLICK_FFMPEG"] = dir.appendingPathComponent("ffmpeg-barrier").path
    let merged = try F.flick(
      ["merge", "plan.json", "--jobs", "2", "--max-memory", "\(cap)", "-q"], in: dir, environment: environment)
    expectEqual(merged.status, 0, "\(merged.stderr)")
    expectEqual(try String(contentsOfFile: log, encoding: .utf8), "met\nmet\n")
  }

  /// The second clip's chunk is cut short: the first clip is reported merged, the second failed
  /// (exit 2, naming its chunk), and nothing after it starts; a clip already merging beside it
  /// ends whole. One at a time, the third clip is not merged. The report records each.
  @Test func afterAFailedClipNoOtherStarts() throws {
    let dir = try ChunkEqualityTests.workspace(Self.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let chunk = dir.appendingPathComponent("out/.flick/chunks/b/default/128x72/1.mp4")
    let original = try Data(contentsOf: chunk)
    try original.prefix(original.count / 2).write(to: chunk)

    let one = try F.flick(["merge", "plan.json", "--jobs", "1", "--progress", "lines"], in: dir)
    expectEqual(one.status, 2, "\(one.stderr)")
    expectEqual(Self.reported(one.stderr), ["rendered a/default/128x72", "failed b/default/128x72"])
    #expect(one.stderr.contains("b/default/128x72/1.mp4 does not decode"), "\(one.stderr)")
    expectEqual(try Self.outputs(dir).keys.sorted(), ["a/128x72.gif", "a/128x72.mp4"])
    // The report says so (it used to be left as the last merge that succeeded wrote it).
    try expectEqual(Self.report(dir).statuses, ["rendered", "failed", "not-run"])
    try expectEqual(Self.report(dir).exitCode, 2)

    let wide = try F.flick(["merge", "plan.json", "--force", "--jobs", "3", "--progress", "lines"], in: dir)
    expectEqual(wide.status, 2, "\(wide.stderr)")
    expectEqual(Self.reported(wide.stderr), ["rendered a/default/128x72", "failed b/default/128x72"])
    // The third clip merged beside the second, whole and stamped: a later merge skips it.
    try expectEqual(Self.report(dir).statuses, ["rendered", "failed", "rendered"])
    expectEqual(
      try Self.outputs(dir).keys.sorted(), ["a/128x72.gif", "a/128x72.mp4", "c/128x72.gif", "c/128x72.mp4"])
    try original.write(to: chunk)
    let again = try F.flick(["merge", "plan.json", "--progress", "lines"], in: dir)
    expectEqual(again.status, 0, "\(again.stderr)")
    expectEqual(
      Self.reported(again.stderr),
      ["up to date a/default/128x72", "rendered b/default/128x72", "up to date c/default/128x72"])
  }
}
