import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// SIGINT (SIGHUP, SIGQUIT) to a running `flick run` or `flick merge`: the run leaves its report with the job it
/// was on marked running, read as interrupted once its lock is free, a merge leaves no temporaries, and a merge killed outright has its
/// leftovers removed by the next one. No timing: each test waits for a file that shows the
/// command is under way, then interrupts it.
@Suite struct InterruptionTests {
  typealias F = BatchFixtures

  /// A workspace with a long template (`long.json5`, 600 frames) and a manifest rendering it.
  ///
  /// Long in frames, not in pixels (160×90): what keeps a command under way long enough to be
  /// interrupted is the work per frame file (writing, linking, copying, encoding 600 of them),
  /// and smaller frames only make every render and encode of the suite cheaper.
  static func workspace(chunk: Int?, formats: [String], frames: Int = 600) throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-interrupt")
    try """
    { flick: 1, name: "long", parameters: { accent: { type: "color", default: "#F97316" } },
      canvas: { width: 160, height: 90, fps: 30, duration: \(Double(frames) / 30), background: "#0F172A" },
      layers: [ { id: "card", size: [30, 30], position: [20, 45], cornerRadius: 6, backgroundColor: "${accent}" },
                { id: "bar", type: "gradient", size: [160, 10], position: [80, 85], colors: ["#22D3EE", "#A855F7"] } ],
      timeline: [ { target: "card", property: "positionX", to: 140, at: 0, duration: \(Double(frames) / 30), curve: "linear" },
                  { target: "card", property: "rotation", to: "720deg", at: 0, duration: \(Double(frames) / 30) } ] }
    """.write(to: dir.appendingPathComponent("long.json5"), atomically: true, encoding: .utf8)
    let chunkKey = chunk.map { ", chunk: \($0)" } ?? ""
    try """
    { flick: 1, output: "out", renders: [ { template: "long.json5", variants: [{}, { accent: "#22C55E" }],
      formats: [\(formats.map { "\"\($0)\"" }.joined(separator: ", "))]\(chunkKey) } ] }
    """.write(to: dir.appendingPathComponent("m.json5"), atomically: true, encoding: .utf8)
    let planned = try F.flick(["plan", "m.json5", "-o", "plan.json"], in: dir)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    return dir
  }

  /// Starts `flick args` in `dir`, waits until `ready()` holds (or the process ends), sends
  /// `signal`, and returns the exit status and whether the signal was sent while it ran (what
  /// it prints goes to `flick.log` in `dir`).
  static func interrupt(_ args: [String], in dir: URL, signal: Int32 = SIGINT, when ready: () -> Bool) throws
    -> (status: Int32, sent: Bool)
  {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: F.flick)
    p.arguments = args
    p.environment = F.cleanEnvironment
    p.currentDirectoryURL = dir
    let log = dir.appendingPathComponent("flick.log").path
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    defer { try? output.close() }
    p.standardInput = Pipe()
    p.standardOutput = output
    p.standardError = output
    try p.runUnblocked()
    while p.isRunning && !ready() { usleep(500) }
    let sent = p.isRunning && kill(p.processIdentifier, signal) == 0
    p.waitUntilExit()
    return (p.terminationStatus, sent)
  }

  /// Every path under `folder` whose name is one of Flick's temporaries.
  static func temporaries(under folder: URL) -> [String] {
    let names = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    return names.filter { path in
      let name = (path as NSString).lastPathComponent
      return name.hasSuffix(".partial") || name.hasSuffix(".merge") || name.hasSuffix(".removing")
        || name.hasSuffix(".tmp")
        || name.hasPrefix("merge-")
    }
  }

  @Test func anInterruptedRunLeavesItsReportWithTheJobMarked() throws {
    let dir = try Self.workspace(chunk: nil, formats: ["mp4", "png"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let report = dir.appendingPathComponent("out/.flick/reports/shard-1-of-1.json")
    // Interrupted once the first job is writing (its temporary sequence folder exists); the
    // report then says that job is running (the run holds the report's lock).
    var live: BatchReport?
    let run = try Self.interrupt(["run", "plan.json", "--shard", "1/1", "--jobs", "1", "-q"], in: dir) {
      let names =
        (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out/long/1").path)) ?? []
      guard names.contains(where: { $0.hasSuffix(".partial") }) else { return false }
      live = try? BatchReport.load(path: report.path)
      return true
    }
    try #require(run.sent, "the run finished before it could be interrupted: make the fixture longer")
    expectEqual(run.status, 130)
    expectEqual(live?.jobs.map(\.status), [.running, .notRun], "\(String(describing: live?.jobs))")
    #expect(live?.owner?.pid != nil)
    expectEqual(live?.exitCode, 0)
    // The file still says running; read as a report, its run has ended: the job was interrupted.
    let raw = try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: report))
    expectEqual(raw.jobs.map(\.status), [.running, .notRun], "\(raw.jobs)")
    let written = try BatchReport.load(path: report.path)
    expectEqual(written.command, "run")
    expectEqual(written.shard, "1/1")
    expectEqual(written.exitCode, 130)
    expectEqual(written.jobs.map(\.status), [.interrupted, .notRun], "\(written.jobs)")
    expectEqual(written.jobs.first?.exitCode, 130)
    #expect(
      Self.temporaries(under: dir.appendingPathComponent("out")).isEmpty,
      "\(Self.temporaries(under: dir.appendingPathComponent("out")))")
    // Run again: the interrupted job is not up to date, so both render, and the report says so.
    let again = try F.flick(["run", "plan.json", "--shard", "1/1", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(again.status, 0, "\(again.stderr)")
    let final = try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: report))
    expectEqual(final.jobs.map(\.status), [.rendered, .rendered])
  }

  /// Interrupted while job 0 finishes in the background and job 1 draws: the report names both
  /// running (read as interrupted), no temporary is left, and the next run completes them.
  @Test func anInterruptionWhileAJobFinishesBesideTheNextLeavesBothMarked() throws {
    let dir = try Self.workspace(chunk: nil, formats: ["gif", "mp4"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let report = dir.appendingPathComponent("out/.flick/reports/run.json")
    let run = try Self.interrupt(["run", "plan.json", "-q"], in: dir) {
      guard let data = try? Data(contentsOf: report),
        let live = try? JSONDecoder().decode(BatchReport.self, from: data)
      else { return false }
      return live.jobs.map(\.status) == [.running, .running]
    }
    try #require(run.sent, "the run finished before it could be interrupted: make the fixture longer")
    expectEqual(run.status, 130)
    let written = try BatchReport.load(path: report.path)
    expectEqual(written.jobs.map(\.status), [.interrupted, .interrupted], "\(written.jobs)")
    let out = dir.appendingPathComponent("out")
    #expect(Self.temporaries(under: out).isEmpty, "\(Self.temporaries(under: out))")
    // Whatever was committed before the signal carries its stamp or is rendered again.
    let again = try F.flick(["run", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(again.status, 0, "\(again.stderr)")
    let final = try BatchReport.load(path: report.path)
    #expect(final.jobs.allSatisfy { [.rendered, .skipped].contains($0.status) }, "\(final.jobs)")
    for name in ["long/1/160x90.gif", "long/2/160x90.mp4"] {
      #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(name)")
    }
  }

  /// SIGHUP (a closed terminal or SSH session) and SIGQUIT (Ctrl-\) end a run and a merge as
  /// SIGINT does, with 128 + the signal: SIGHUP killed them outright, leaving `.NAME.PID.merge`
  /// files and `merge-PID-*` folders, and SIGQUIT printed the Swift runtime's crash report and let
  /// them go on.
  @Test(arguments: [(SIGHUP, 129), (SIGQUIT, 131)] as [(Int32, Int32)])
  func hangUpAndQuitEndARunAndAMergeLeavingNothing(_ signal: Int32, _ status: Int32) throws {
    let dir = try Self.workspace(chunk: 200, formats: ["gif", "png"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("out")
    let run = try Self.interrupt(["run", "plan.json", "-q"], in: dir, signal: signal) {
      !Self.temporaries(under: out).isEmpty
    }
    try #require(run.sent, "the run finished before it could be interrupted: make the fixture longer")
    let log = { (try? String(contentsOf: dir.appendingPathComponent("flick.log"), encoding: .utf8)) ?? "" }
    expectEqual(run.status, status, "\(log())")
    #expect(!log().contains("crashed"), "\(log())")
    #expect(Self.temporaries(under: out).isEmpty, "\(Self.temporaries(under: out))")
    let done = try F.flick(["run", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(done.status, 0, "\(done.stderr)")
    let merge = try Self.interrupt(["merge", "plan.json", "-q"], in: dir, signal: signal) {
      let names =
        (try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".flick").path)) ?? []
      return names.contains { $0.hasPrefix("merge-") }
    }
    try #require(merge.sent, "the merge finished before it could be interrupted: make the fixture longer")
    expectEqual(merge.status, status, "\(log())")
    #expect(!log().contains("crashed"), "\(log())")
    #expect(Self.temporaries(under: out).isEmpty, "\(Self.temporaries(under: out))")
  }

  @Test func anInterruptedMergeLeavesNoTemporariesAndStaleOnesGoNextTime() throws {
    let dir = try Self.workspace(chunk: 200, formats: ["gif", "png"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("out")
    let run = try F.flick(["run", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(run.status, 0, "\(run.stderr)")
    // Interrupted once its work folder exists (it joins the chunks' frames there).
    let merge = try Self.interrupt(["merge", "plan.json", "-q"], in: dir) {
      let names =
        (try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".flick").path)) ?? []
      return names.contains { $0.hasPrefix("merge-") }
    }
    try #require(merge.sent, "the merge finished before it could be interrupted: make the fixture longer")
    expectEqual(merge.status, 130)
    #expect(Self.temporaries(under: out).isEmpty, "\(Self.temporaries(under: out))")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("long/1/160x90.gif").path))

    // What a merge killed outright leaves (its PID no longer running), and the same names of a
    // running process (this one), which must stay.
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.runUnblocked()
    gone.waitUntilExit()
    let dead = gone.processIdentifier, alive = getpid()
    // Among them the files of the encoder that wrote the merge's temporary: its frame spool (as
    // large as the clip uncompressed), its output and its palettes.
    func encoderFiles(_ pid: Int32) -> [URL] {
      [
        "..160x90.gif.\(pid).merge.\(pid).frames", "..160x90.gif.\(pid).merge.\(pid).partial",
        "..160x90.gif.\(pid).merge.\(pid).palette.pam", "..160x90.gif.\(pid).merge.\(pid).lookahead.palette.png",
      ].map { out.appendingPathComponent("long/1/" + $0) }
    }
    let stale =
      [
        out.appendingPathComponent(".flick/merge-\(dead)-0123456789ab"),
        out.appendingPathComponent("long/1/.160x90.gif.\(dead).merge"),
        out.appendingPathComponent("long/1/.160x90.\(dead).merge.removing"),
      ] + encoderFiles(dead)
    let live =
      [
        out.appendingPathComponent(".flick/merge-\(alive)-0123456789ab"),
        out.appendingPathComponent("long/2/.160x90.gif.\(alive).merge"),
      ] + encoderFiles(alive)
    for url in stale + live {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      if url.lastPathComponent.hasSuffix(".gif.\(dead).merge") || url.lastPathComponent.hasSuffix(".gif.\(alive).merge")
        || url.lastPathComponent.hasPrefix("..")
      {
        try Data("x".utf8).write(to: url)
      } else {
        try FileManager.default.createDirectory(
          at: url.appendingPathComponent("frames"), withIntermediateDirectories: true)
      }
    }
    let again = try F.flick(["merge", "plan.json", "-q"], in: dir)
    expectEqual(again.status, 0, "\(again.stderr)")
    for url in stale { #expect(!FileManager.default.fileExists(atPath: url.path), "\(url.path) is left") }
    for url in live { #expect(FileManager.default.fileExists(atPath: url.path), "\(url.path) was removed") }
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("long/1/160x90.gif").path))
    try expectEqual(
      FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("long/1/160x90").path).filter {
        $0.hasSuffix(".png")
      }.count, 600)
  }
}
