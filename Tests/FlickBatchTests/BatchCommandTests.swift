import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// `flick plan`, `flick run` and `flick merge` end to end on the acceptance manifest: 6 variants
/// of 2 templates × 2 sizes, planned, run as 3 shards and merged, compared with rendering each
/// job alone; then up-to-date skipping, a one-parameter change, refused merges, exit codes,
/// reports and progress lines.
@Suite struct BatchCommandTests {
  typealias F = BatchFixtures

  static func report(_ dir: URL, _ name: String) throws -> BatchReport {
    try JSONDecoder().decode(
      BatchReport.self, from: Data(contentsOf: dir.appendingPathComponent("out/.flick/reports/\(name)")))
  }

  @Test func shardsAndMergeMatchSingleRenders() throws {
    let dir = try F.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = F.cleanEnvironment
    let planned = try F.flick(["plan", "batch.json5", "-o", "plan.json"], in: dir)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    #expect(planned.stderr.contains("planned 24 jobs (18 chunks of 6 clips to merge)"))
    for i in 1...3 {
      let r = try F.flick(["run", "plan.json", "--shard", "\(i)/3", "--jobs", "1"], in: dir, environment: env)
      expectEqual(r.status, 0, "shard \(i): \(r.stderr)")
      let report = try Self.report(dir, "shard-\(i)-of-3.json")
      // The cost-balanced split of the plan (ShardBalanceTests), in plan order.
      let expected = try Plan.load(path: dir.appendingPathComponent("plan.json").path).jobs(shard: i, of: 3).map(
        \.index)
      expectEqual(report.rendered, expected.count)
      expectEqual(report.skipped, 0)
      expectEqual(report.failed, 0)
      expectEqual(report.exitCode, 0)
      expectEqual(report.jobs.map(\.index), expected)
    }
    let merged = try F.flick(["merge", "plan.json"], in: dir)
    expectEqual(merged.status, 0, "\(merged.stderr)")
    #expect(merged.stderr.contains("6 merged, 0 up to date"))

    // Each job alone, with flick render.
    let out = dir.appendingPathComponent("out")
    let single = dir.appendingPathComponent("single")
    try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
    let slide: [(variant: String, sets: [String])] = [
      ("1", ["accent=#F97316"]), ("2", ["accent=#8B5CF6", "distance=80"]),
      ("wide.params", ["accent=#0EA5E9", "distance=100"]),
    ]
    for (variant, sets) in slide {
      for (size, scale) in [("128x72", "1"), ("256x144", "2")] {
        let base = single.appendingPathComponent("slide-\(variant)-\(size)")
        // Every PNG sequence; the encoded files of one variant at both sizes (ffmpeg is slow to start).
        // A batch GIF is encoded from the chunks' PNG frames as a plain render encodes its own
        // (identical frames merged, docs/video.md): the same bytes.
        let encoded = variant == "2" ? ["-o", base.path + ".gif", "-o", base.path + ".mp4"] : []
        let r = try F.flick(
          ["render", "slide.json5", "--scale", scale, "-q", "-o", base.path + "/"] + encoded
            + sets.flatMap { ["--set", $0] },
          in: dir)
        expectEqual(r.status, 0, "\(r.stderr)")
        let merged = out.appendingPathComponent("slide/\(variant)/\(size)")
        try expectEqual(F.files(in: merged), F.files(in: base), "PNG sequence slide/\(variant)/\(size)")
        try expectEqual(F.files(in: merged).count, 40)
        guard !encoded.isEmpty else { continue }
        try expectEqual(
          Data(contentsOf: URL(fileURLWithPath: merged.path + ".gif")),
          Data(contentsOf: URL(fileURLWithPath: base.path + ".gif")), "GIF slide/\(variant)/\(size)")
        let a = try F.probe(merged.path + ".mp4"), b = try F.probe(base.path + ".mp4")
        expectEqual(a.frames, 40, "\(a) vs \(b)")
        expectEqual(a.frames, b.frames, "\(a) vs \(b)")
        expectEqual(a.duration, b.duration, "\(a) vs \(b)")
        // Contiguous timestamps: one frame every 1/20 s from 0, across the chunk joins.
        expectEqual(a.times.count, 40)
        for (i, t) in a.times.enumerated() { expectLess(abs(t - Double(i) / 20), 1e-6, "pts \(i) = \(t)") }
        // Every chunk starts with a keyframe (frames 0, 15 and 30 of the clip), joined without re-encoding.
        let keys = try F.keyframeTimes(merged.path + ".mp4")
        for start in [0.0, 0.75, 1.5] {
          #expect(keys.contains { abs($0 - start) < 1e-6 }, "no keyframe at \(start) s: \(keys)")
        }
      }
    }
    for (variant, tint) in [("1", "#22C55E"), ("2", "#3B82F6"), ("3", "#EF4444")] {
      for (size, scale) in [("96x96", "1"), ("48x48", "0.5")] {
        let base = single.appendingPathComponent("pulse-\(variant)-\(size)")
        let encoded = variant == "3" ? ["-o", base.path + ".mp4"] : []
        let r = try F.flick(
          [
            "render", "pulse.json5", "--set", "tint=\(tint)", "--scale", scale, "--frames", "0..29", "-q",
            "-o", base.path + "/",
          ] + encoded, in: dir)
        expectEqual(r.status, 0, "\(r.stderr)")
        let batch = out.appendingPathComponent("pulse/\(variant)/\(size)")
        try expectEqual(F.files(in: batch), F.files(in: base), "PNG sequence pulse/\(variant)/\(size)")
        guard !encoded.isEmpty else { continue }
        // Not chunked: the very same encode, byte for byte.
        try expectEqual(
          Data(contentsOf: URL(fileURLWithPath: batch.path + ".mp4")),
          Data(contentsOf: URL(fileURLWithPath: base.path + ".mp4")))
      }
    }

    // Again: nothing to render, nothing to merge, and it says so.
    for i in 1...3 {
      let r = try F.flick(["run", "plan.json", "--shard", "\(i)/3"], in: dir, environment: env)
      expectEqual(r.status, 0, "\(r.stderr)")
      #expect(r.stderr.contains("0 rendered, 8 up to date, 0 failed"), "\(r.stderr)")
      #expect(r.stderr.contains("nothing to do"), "\(r.stderr)")
    }
    let again = try F.flick(["merge", "plan.json"], in: dir)
    expectEqual(again.status, 0, "\(again.stderr)")
    #expect(again.stderr.contains("0 merged, 6 up to date"), "\(again.stderr)")

    // One parameter changed: exactly its jobs render again, and only their clips merge.
    try PlanTests.edit(dir.appendingPathComponent("batch.json5"), "distance: 80", "distance: 81")
    let stale = try F.flick(["run", "plan.json"], in: dir, environment: env)
    expectEqual(stale.status, 2, "\(stale.stderr)")
    #expect(stale.stderr.contains("plan.json is stale"), "\(stale.stderr)")
    try expectEqual(F.flick(["plan", "batch.json5", "-o", "plan.json"], in: dir).status, 0)
    let rerun = try F.flick(["run", "plan.json", "--progress", "none"], in: dir, environment: env)
    expectEqual(rerun.status, 0, "\(rerun.stderr)")
    let report = try Self.report(dir, "run.json")
    expectEqual(report.rendered, 6)
    expectEqual(report.skipped, 18)
    #expect(report.jobs.filter { $0.status == .rendered }.allSatisfy { $0.name.hasPrefix("slide/2/") })
    let remerge = try F.flick(["merge", "plan.json"], in: dir)
    #expect(remerge.stderr.contains("2 merged, 4 up to date"), "\(remerge.stderr)")

    // A missing chunk: exit 3, the chunk named, nothing written.
    let plan = try Plan.load(path: dir.appendingPathComponent("plan.json").path)
    let chunk = try #require(plan.jobs.first { $0.kind == "chunk" && $0.name.hasPrefix("slide/1/128x72 frames 15") })
    try FileManager.default.removeItem(at: out.appendingPathComponent(chunk.outputs[0].path))
    let gif = out.appendingPathComponent("slide/1/128x72.gif")
    try Data("old".utf8).write(to: gif)
    let refused = try F.flick(["merge", "plan.json", "--force"], in: dir)
    expectEqual(refused.status, 3)
    #expect(
      refused.stderr.contains(
        "chunk job \(chunk.index) (slide/1/128x72 frames 15..29, id \(chunk.id.prefix(12))) is missing"),
      "\(refused.stderr)")
    try expectEqual(Data(contentsOf: gif), Data("old".utf8))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("slide/1").path)
    #expect(!leftovers.contains { $0.contains(".merge") }, "\(leftovers)")
  }

  /// Per-job exit codes, --keep-going, the report, and progress lines with job ids.
  @Test func exitCodesReportsAndProgress() throws {
    let dir = try F.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    // A 96 × 96 job over the run's --max-pixels 5000 is invalid input (2) at run time (an odd MP4
    // size was, until `flick plan` refused it); the 24 × 24 and 48 × 48 jobs are fine.
    try """
    {
      flick: 1,
      renders: [
        { template: "pulse.json5", name: "big", sizes: [1], formats: ["mp4"], frames: [0, 4] },
        { template: "pulse.json5", name: "ok", sizes: [0.25, 0.5], formats: ["png"], frames: [0, 4] },
        { template: "pulse.json5", name: "video", sizes: [0.5], formats: ["mp4"], frames: [0, 4] },
      ],
    }
    """.write(to: dir.appendingPathComponent("codes.json5"), atomically: true, encoding: .utf8)
    try expectEqual(F.flick(["plan", "codes.json5", "-o", "codes.plan.json"], in: dir).status, 0)
    let env = F.cleanEnvironment
    let cap = ["--max-pixels", "5000"]

    let stop = try F.flick(["run", "codes.plan.json"] + cap, in: dir, environment: env)
    expectEqual(stop.status, 2, "\(stop.stderr)")
    var report = try Self.report(dir, "run.json")
    expectEqual(report.jobs.map(\.status), [.failed, .notRun, .notRun, .notRun])
    #expect(report.jobs[0].exitCode == 2 && report.jobs[0].error?.contains("more than the cap of 5000") == true)

    let going = try F.flick(
      ["run", "codes.plan.json", "--keep-going", "--progress", "json"] + cap, in: dir, environment: env)
    expectEqual(going.status, 2)
    report = try Self.report(dir, "run.json")
    expectEqual(report.jobs.map(\.status), [.failed, .rendered, .rendered, .rendered])
    // Every progress line is JSON carrying a job id of the plan.
    let plan = try Plan.load(path: dir.appendingPathComponent("codes.plan.json").path)
    let ids = Set(plan.jobs.map(\.id))
    let lines = going.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
    expectGreater(lines.count, 3)
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(ids.contains(object["job"] as? String ?? ""), "\(line)")
    }
    #expect(
      lines.contains {
        $0.contains("\"event\":\"job\"") && $0.contains("\"status\":\"rendered\"") && $0.contains("\"done\":4")
      })

    // An environment failure (no ffmpeg) is 3, which a scheduler may retry; up-to-date jobs are
    // skipped without needing ffmpeg. With invalid input too, the shard's code is 2: a retry
    // cannot make it succeed.
    var noFFmpeg = env
    noFFmpeg["FLICK_FFMPEG"] = "/nonexistent/ffmpeg"
    let video = ["run", "codes.plan.json", "--force", "--job", "#3", "--report", "r.json"] + cap
    let missing = try F.flick(video, in: dir, environment: noFFmpeg)
    expectEqual(missing.status, 3, "\(missing.stderr)")
    report = try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: dir.appendingPathComponent("r.json")))
    #expect(report.jobs.map(\.status) == [.failed] && report.jobs[0].exitCode == 3)
    let mixed = try F.flick(
      ["run", "codes.plan.json", "--keep-going", "--force", "--report", "r.json"] + cap, in: dir,
      environment: noFFmpeg)
    expectEqual(mixed.status, 2)
    report = try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: dir.appendingPathComponent("r.json")))
    expectEqual(report.jobs.map(\.exitCode), [2, nil, nil, 3])

    // --force renders up-to-date jobs again; --job picks one by id prefix or index ('#2').
    let forced = try F.flick(
      ["run", "codes.plan.json", "--force", "--job", String(plan.jobs[1].id.prefix(10)), "--job", "#2"], in: dir,
      environment: env)
    expectEqual(forced.status, 0, "\(forced.stderr)")
    #expect(forced.stderr.contains("2 rendered, 0 up to date"), "\(forced.stderr)")
  }

  @Test func shardAutoReadsTheScheduler() throws {
    let dir = try F.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    try """
    { flick: 1, renders: [{ template: "pulse.json5", sizes: [0.25, 0.5, 0.75], formats: "png", frames: [0, 1] }] }
    """.write(to: dir.appendingPathComponent("auto.json5"), atomically: true, encoding: .utf8)
    try expectEqual(F.flick(["plan", "auto.json5", "-o", "auto.plan.json"], in: dir).status, 0)
    var env = F.cleanEnvironment
    let none = try F.flick(["run", "auto.plan.json", "--shard", "auto"], in: dir, environment: env)
    expectEqual(none.status, 2, "\(none.stderr)")
    #expect(none.stderr.contains("found no scheduler index"), "\(none.stderr)")
    env["CI_NODE_INDEX"] = "2"
    env["CI_NODE_TOTAL"] = "3"
    let gitlab = try F.flick(["run", "auto.plan.json", "--shard", "auto"], in: dir, environment: env)
    expectEqual(gitlab.status, 0, "\(gitlab.stderr)")
    #expect(gitlab.stderr.contains("shard 2/3 (CI_NODE_INDEX): 1 rendered"), "\(gitlab.stderr)")
    try expectEqual(Self.report(dir, "shard-2-of-3.json").jobs.map(\.index), [1])
    env["CIRCLE_NODE_INDEX"] = "0"
    env["CIRCLE_NODE_TOTAL"] = "3"
    let disagree = try F.flick(["run", "auto.plan.json", "--shard", "auto"], in: dir, environment: env)
    expectEqual(disagree.status, 2, "\(disagree.stderr)")
    #expect(disagree.stderr.contains("disagrees"), "\(disagree.stderr)")
  }
}
