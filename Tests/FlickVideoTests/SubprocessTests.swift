import FlickTestSupport
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// Every process Flick starts is a ``Subprocess``: a process group of its own whose pipes are
/// never waited on past the child's exit, every wait bounded, and the whole group killed and
/// reaped on stop. An `ffmpeg` on PATH that is a wrapper script (no `exec`), even one that
/// leaves a sleeper holding stderr, does not hang a render.
@Suite struct SubprocessTests {
  /// The live processes whose command line contains `marker` (zombies excluded).
  static func running(_ marker: String) -> [Int32] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name -> Int32? in
      guard let pid = Int32(name),
        let line = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
        String(decoding: line, as: UTF8.self).replacingOccurrences(of: "\0", with: " ").contains(marker),
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")"), !stat[close...].hasPrefix(") Z")
      else { return nil }
      return pid
    }
  }

  /// Whether `condition` holds within `bound` seconds. A SIGKILL is delivered asynchronously: a
  /// process killed a moment ago can still be listed, not yet a zombie, on a loaded machine.
  static func eventually(within bound: Double = 10, _ condition: () -> Bool) -> Bool {
    let start = Date()
    while !condition() {
      guard Date().timeIntervalSince(start) < bound else { return false }
      usleep(10_000)
    }
    return true
  }

  /// ``eventually(within:_:)`` waited for off the test runner's threads (OffPool), for the tests
  /// whose condition waits on processes that are still ending.
  static func eventually(within bound: Double = 10, _ condition: @escaping @Sendable () -> Bool) async throws -> Bool {
    try await OffPool.run { eventually(within: bound, condition) }
  }

  /// A `sleep` argument no other process uses, to find the sleepers a test started.
  static func marker() -> String { "\(300 + Int(getpid() % 600)).\(Int.random(in: 100_000...999_999))" }

  @Test func aChildThatLeavesASleeperHoldingItsOutputEndsAndItsGroupIsKilled() throws {
    let mark = Self.marker()
    let process = try Subprocess(
      executable: "/bin/sh", arguments: ["-c", "sleep \(mark) & echo started; echo oops >&2; exit 3"], output: .pipe,
      error: .pipe)
    process.grace = 0.2
    let ending = process.wait()
    expectEqual(ending, .exited(3))
    expectEqual(process.outputText, "started\n")
    expectEqual(process.errorText, "oops\n")
    #expect(Self.eventually { Subprocess.liveMembers(ofGroup: process.pid).isEmpty })
    #expect(Self.eventually { Self.running(mark).isEmpty })
  }

  @Test func aWaitPastItsTimeoutReturnsAndStopKillsTheGroup() throws {
    let mark = Self.marker()
    let process = try Subprocess(
      executable: "/bin/sh", arguments: ["-c", "sleep \(mark) & sleep \(mark); echo never"], output: .pipe)
    #expect(process.wait(timeout: 0.2) == nil)
    process.stop()
    expectEqual(process.wait(), .signalled(SIGKILL))
    #expect(process.outputText.isEmpty)
    #expect(Self.eventually { Self.running(mark).isEmpty })
  }

  @Test func aProgramThatCannotStartIsALaunchFailure() {
    #expect(throws: VideoError.self) { try Subprocess(executable: "/nonexistent/ffmpeg", arguments: []) }
  }

  /// A wrapper `ffmpeg` first on PATH that runs the real one without `exec`; with `sleeper`, it
  /// first backgrounds a `sleep` holding its stdout and stderr.
  static func wrapper(in dir: URL, sleeper: String?) throws -> String {
    let real = "$(PATH=/usr/local/bin:/usr/bin:/bin command -v ffmpeg)"
    let background = sleeper.map { "sleep \($0) &\n" } ?? ""
    return try TestSupport.script(background + "\(real) \"$@\"\n", named: "ffmpeg", in: dir)
  }

  /// Runs `flick` with `arguments` and `environment`; a run still going after `bound` seconds is
  /// killed (the test then fails: it would have hung).
  static func flick(_ arguments: [String], environment: [String: String], bound: Double = 120) throws
    -> (status: Int32, finished: Bool)
  {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: TestSupport.flick)
    p.arguments = arguments
    p.environment = environment
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.runUnblocked()
    let start = Date()
    while p.isRunning && Date().timeIntervalSince(start) < bound { usleep(20_000) }
    let finished = !p.isRunning
    if !finished { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    return (p.terminationStatus, finished)
  }

  static let template = """
    { flick: 1, canvas: { width: 64, height: 48, fps: 10, duration: 1, background: "#102030" },
      layers: [ { id: "box", size: [20, 20], position: [10, 24], backgroundColor: "#F97316" } ],
      timeline: [ { target: "box", property: "positionX", to: 54, at: 0, duration: 1 } ] }
    """

  /// A render that takes minutes unless it is stopped, on any machine: 36,000 frames of 640 × 480
  /// with the box moving through all of them, so that none repeats the one before. (A repeated
  /// frame costs next to nothing: 600 s of ``template``'s still box rendered in about 2 s, less
  /// than a loaded machine took to start the wrapper's first line.)
  static let endlessTemplate = template.replacingOccurrences(
    of: "width: 64, height: 48", with: "width: 640, height: 480"
  )
  .replacingOccurrences(of: "duration: 1", with: "duration: 3600")

  @Test(arguments: [false, true]) func aRenderThroughAWrapperFFmpegFinishes(_ withSleeper: Bool) async throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (bin, env) = try TestSupport.ffmpegFolder(in: dir)
    let mark = Self.marker()
    _ = try Self.wrapper(in: bin, sleeper: withSleeper ? mark : nil)
    let template = dir.appendingPathComponent("t.json5")
    try Data(Self.template.utf8).write(to: template)
    let out = dir.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    // With the sleeper, each encoder's pipes get their grace period (2 s): off the test
    // runner's threads (OffPool).
    let run = try await OffPool.run {
      try Self.flick(
        ["render", template.path, "-o", out.path + "/a.mp4", "-o", out.path + "/a.gif", "-q"], environment: env)
    }
    #expect(run.finished, "flick render hung on a wrapper ffmpeg")
    expectEqual(run.status, 0)
    try expectEqual(TestSupport.contents(out), ["a.gif", "a.mp4"])
    #expect(
      try await Self.eventually { Self.running(mark).isEmpty },
      "a process of the wrapper's group outlived the render")
  }

  @Test func anInterruptedRenderLeavesNoProcessOfItsGroups() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (bin, env) = try TestSupport.ffmpegFolder(in: dir)
    let mark = Self.marker()
    _ = try Self.wrapper(in: bin, sleeper: mark)
    let template = dir.appendingPathComponent("t.json5")
    try Data(Self.endlessTemplate.utf8).write(to: template)
    let (p, err) = try TestSupport.startRendering(
      ["render", template.path, "-o", dir.path + "/a.mp4", "--progress", "json"], environment: env)
    // Frames are reported as soon as the pipe takes them, which may be before the wrapper's
    // shell has started its sleeper on a loaded machine. Waited for on this thread: a suspension
    // here could resume only when the test runner's threads are free, seconds later.
    #expect(
      Self.eventually(within: 60) { !Self.running(mark).isEmpty },
      "the wrapper's sleeper should run while the render does")
    kill(p.processIdentifier, SIGTERM)
    _ = err.readDataToEndOfFile()
    p.waitUntilExit()
    expectEqual(p.terminationStatus, 130)
    #expect(Self.eventually { Self.running(mark).isEmpty })
    #expect(
      Self.eventually { Self.running(dir.path + "/.a.mp4.").isEmpty }, "the wrapper's ffmpeg outlived the interruption")
  }

  @Test func ffmpegDiesWithAFlickKilledOutright() async throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (bin, env) = try TestSupport.ffmpegFolder(in: dir)
    // The wrapper notes its own PID, then runs the real ffmpeg as its child (no exec).
    let pidFile = dir.appendingPathComponent("wrapper.pid")
    let real = "$(PATH=/usr/local/bin:/usr/bin:/bin command -v ffmpeg)"
    _ = try TestSupport.script(
      "case \"$*\" in *-y*) echo $$ > \(pidFile.path);; esac\n\(real) \"$@\"\n", named: "ffmpeg", in: bin)
    let template = dir.appendingPathComponent("t.json5")
    try Data(Self.endlessTemplate.utf8).write(to: template)
    let (p, _) = try TestSupport.startRendering(
      ["render", template.path, "-o", dir.path + "/a.mp4", "--progress", "json"], environment: env)
    // Frames are reported as soon as the pipe takes them, which may be before the wrapper's shell
    // has run its first line on a loaded machine: wait for its note (one line, PID and newline).
    // Waited for on this thread, with no suspension until Flick is killed: a suspension could
    // resume only when the test runner's threads are free, seconds later.
    func noted() -> Bool {
      Self.eventually(within: 60) {
        (try? String(contentsOf: pidFile, encoding: .utf8))?.hasSuffix("\n") == true
      }
    }
    #expect(noted(), "the wrapper never noted its PID")
    let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let wrapper = try #require(Int32(text))
    #expect(!Subprocess.liveMembers(ofGroup: wrapper).isEmpty)
    kill(p.processIdentifier, SIGKILL)
    p.waitUntilExit()
    // The wrapper is killed with Flick (PR_SET_PDEATHSIG); its ffmpeg then sees the end of its
    // input and ends too. Bounded only so that a failure cannot hang the suite.
    #expect(
      try await Self.eventually(within: 60) { Subprocess.liveMembers(ofGroup: wrapper).isEmpty },
      "a process of ffmpeg's group outlived Flick")
    Cleanup.removeStale(in: dir.path)
  }

  @Test func theProbeTimeoutIsReadFromTheEnvironmentWithinItsRange() {
    expectEqual(FFmpegTool.requestedProbeTimeout(environment: [:]), 60)
    expectEqual(FFmpegTool.requestedProbeTimeout(environment: ["FLICK_PROBE_TIMEOUT": "2"]), 2)
    expectEqual(FFmpegTool.requestedProbeTimeout(environment: ["FLICK_PROBE_TIMEOUT": "600"]), 600)
    for ignored in ["0", "601", "-5", "2.5", "abc", ""] {
      expectEqual(FFmpegTool.requestedProbeTimeout(environment: ["FLICK_PROBE_TIMEOUT": ignored]), 60, "\(ignored)")
    }
  }

  @Test func aProbeWhoseGrandchildHoldsItsOutputIsStoppedAfterItsTimeout() async throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (bin, env) = try TestSupport.ffmpegFolder(in: dir)
    let mark = Self.marker()
    // An ffmpeg whose `-encoders` never answers: a background sleeper holds the output pipe.
    _ = try TestSupport.script("sleep \(mark) &\nsleep \(mark)\n", named: "ffmpeg", in: bin)
    let template = dir.appendingPathComponent("t.json5")
    try Data(Self.template.utf8).write(to: template)
    var environment = env
    environment["FLICK_PROBE_TIMEOUT"] = "1"  // the default 60 s, waited out, held a test slot for a minute
    let limited = environment
    let run = try await OffPool.run {
      try Self.flick(["render", template.path, "-o", dir.path + "/a.gif", "--dry-run"], environment: limited)
    }
    #expect(run.finished, "the probe hung")
    expectEqual(run.status, 3)
    #expect(try await Self.eventually { Self.running(mark).isEmpty })
  }
}
