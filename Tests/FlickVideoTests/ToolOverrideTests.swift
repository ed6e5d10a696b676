@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// `FLICK_FFMPEG` and `FLICK_GIFSICLE` naming no program that runs (missing, a folder, a file
/// that is not executable): the message names the variable, its value and what is wrong, not a
/// missing ffmpeg on `PATH` nor an uninstalled gifsicle.
@Suite struct ToolOverrideTests {
  /// The three ways a path names no program, made in `dir`: (value, what the message says).
  static func badPaths(in dir: URL) throws -> [(String, String)] {
    let folder = dir.appendingPathComponent("folder")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let plain = dir.appendingPathComponent("plain")
    try Data("#!/bin/sh\n".utf8).write(to: plain)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: plain.path)
    return [
      (dir.appendingPathComponent("nonexistent").path, "does not exist"), (folder.path, "is a folder, not a program"),
      (plain.path, "is not executable"),
    ]
  }

  @Test func aBadFLICKFFMPEGIsNamedWithWhatIsWrong() throws {
    let f = try FailureTests.Fixture()
    defer { f.cleanup() }
    let template = try FailureTests.writeTemplate(in: f)
    for (value, problem) in try Self.badPaths(in: f.dir) {
      // ffmpeg is on PATH: the variable, not a missing ffmpeg, is the problem.
      var env = TestSupport.environment(path: "/usr/local/bin:/usr/bin:/bin")
      env["FLICK_FFMPEG"] = value
      let r = try TestSupport.run(
        TestSupport.flick, ["render", template, "-o", f.path("a.mp4"), "-q"], environment: env)
      expectEqual(r.status, 3, "\(r.stderr)")
      #expect(r.stderr.contains("FLICK_FFMPEG is '\(value)', which \(problem); point FLICK_FFMPEG at"), "\(r.stderr)")
      #expect(!r.stderr.contains("not found on PATH"), "\(r.stderr)")
      #expect(try TestSupport.contents(f.out).isEmpty)
    }
  }

  @Test func aBadFLICKGIFSICLEIsNamedWithWhatIsWrong() throws {
    let f = try FailureTests.Fixture()
    defer { f.cleanup() }
    let template = try FailureTests.writeTemplate(in: f)
    for (value, problem) in try Self.badPaths(in: f.dir) {
      var env = TestSupport.environment(path: "/usr/local/bin:/usr/bin:/bin")
      env["FLICK_GIFSICLE"] = value
      let r = try TestSupport.run(TestSupport.flick, ["render", template, "-o", f.path("a.gif")], environment: env)
      expectEqual(r.status, 0, "\(r.stderr)")
      #expect(r.stderr.contains("warning: FLICK_GIFSICLE is '\(value)', which \(problem), so GIFs"), "\(r.stderr)")
      #expect(!r.stderr.contains("gifsicle is not installed"), "\(r.stderr)")
      #expect(GIFOptimizer.locate(environment: ["FLICK_GIFSICLE": value]) == nil)
    }
    #expect(GIFOptimizer.overrideWarning(environment: ["FLICK_GIFSICLE": "none"]) == nil)
    #expect(GIFOptimizer.overrideWarning(environment: ["FLICK_GIFSICLE": "/bin/sh"]) == nil)
  }
}
