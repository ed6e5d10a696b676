import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Real signals to a real `flick render` (docs/video.md, "Failure handling"): SIGHUP, SIGINT,
/// SIGQUIT and SIGTERM each kill and reap the encoders, remove every temporary, leave existing
/// destinations as they were and exit 130 (SIGINT, SIGTERM) or 128 + the signal (SIGHUP 129,
/// SIGQUIT 131), with no crash report: SIGHUP used to kill Flick outright, leaving its frame
/// spool and partial files, and SIGQUIT went to the Swift runtime's backtracer, which printed
/// "Program crashed" and let the render go on. A signal the parent left ignored stays ignored.
@Suite struct InterruptionSignalTests {
  typealias Fixture = FailureTests.Fixture

  /// Starts `flick render` of a long template into an MP4, a GIF and a PNG sequence (beside an
  /// existing `keep.mp4`), through `/bin/sh -c 'SETUP; exec flick …'`, and returns once frames
  /// flow, with the encoders it started by then.
  static func startRender(in f: Fixture, setup: String = ":") throws -> (Process, FileHandle, [Int32]) {
    // Minutes of frames that each differ from the one before: the signal always lands mid-render.
    let template = try FailureTests.writeTemplate(
      FailureTests.template.replacingOccurrences(of: "width: 64, height: 48", with: "width: 640, height: 480")
        .replacingOccurrences(of: "duration: 1,", with: "duration: 3600,"), in: f)
    try f.keep("keep.mp4")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = [
      "-c", setup + "; exec \"$@\"", "sh", TestSupport.flick, "render", template, "-o", f.path("keep.mp4"), "-o",
      f.path("a.gif"), "-o", f.path("seq/"), "--progress", "json",
    ]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = try FileHandle(forWritingTo: Self.touch(f.dir.appendingPathComponent("stdout")))
    try p.runUnblocked()
    TestSupport.awaitFrames(err.fileHandleForReading)
    return (p, err.fileHandleForReading, children(of: p.processIdentifier))
  }

  /// `url`, made an empty file.
  static func touch(_ url: URL) -> URL {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    return url
  }

  /// The children of process `pid` (every thread's), from /proc.
  static func children(of pid: Int32) -> [Int32] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task in
      ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
        .split(separator: " ").compactMap { Int32($0) }
    }
  }

  /// Waits up to `seconds` for `p` to end; kills it (and records an issue) if it does not.
  static func waitForExit(_ p: Process, seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    let deadline = Date().addingTimeInterval(seconds)
    while p.isRunning && Date() < deadline { usleep(20_000) }
    if p.isRunning {
      Issue.record("flick still runs \(seconds) s after the signal", sourceLocation: sourceLocation)
      kill(p.processIdentifier, SIGKILL)
    }
    p.waitUntilExit()
  }

  @Test(arguments: [(SIGHUP, 129), (SIGINT, 130), (SIGQUIT, 131), (SIGTERM, 130)] as [(Int32, Int32)])
  func aSignalStopsTheRenderAndLeavesNothing(_ signal: Int32, _ status: Int32) throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let (p, err, encoders) = try Self.startRender(in: f)
    #expect(!encoders.isEmpty, "no encoder had started")
    kill(p.processIdentifier, signal)
    Self.waitForExit(p, seconds: 30)
    let rest = String(decoding: err.readDataToEndOfFile(), as: UTF8.self)
    expectEqual(p.terminationReason, .exit, "\(rest)")
    expectEqual(p.terminationStatus, status, "\(rest)")
    #expect(rest.contains("interrupted"), "\(rest)")
    #expect(!rest.contains("crashed"), "\(rest)")
    // Killed and reaped by Flick before it exited: none is left, not even as a zombie.
    for pid in encoders { #expect(kill(pid, 0) == -1 && errno == ESRCH, "encoder \(pid) outlived flick") }
    try f.expectKept("keep.mp4")
    try expectEqual(TestSupport.contents(f.out), ["keep.mp4"])
  }

  /// `nohup flick render …` (or a script's `flick render … &`, which ignores SIGINT and SIGQUIT):
  /// the signal its parent ignores does not stop it; SIGTERM still does.
  @Test(arguments: [SIGHUP, SIGINT, SIGQUIT]) func anIgnoredSignalStaysIgnored(_ signal: Int32) throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let (p, err, _) = try Self.startRender(in: f, setup: "trap '' \(signal)")
    kill(p.processIdentifier, signal)
    usleep(500_000)
    #expect(p.isRunning, "flick stopped on a signal it was started with ignored")
    kill(p.processIdentifier, SIGTERM)
    Self.waitForExit(p, seconds: 30)
    _ = err.readDataToEndOfFile()
    expectEqual(p.terminationStatus, 130)
    try expectEqual(TestSupport.contents(f.out), ["keep.mp4"])
  }
}
