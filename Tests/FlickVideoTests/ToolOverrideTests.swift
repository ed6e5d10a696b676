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

  /// A bare name (no `/`) in `FLICK_FFMPEG` or `FLICK_GIFSICLE` is looked up on `PATH`, as a
  /// shell would, by one rule for both (`FLICK_GIFSICLE=gifsicle` was "which does not exist",
  /// looked up in the working folder); a bare name on no `PATH` folder says so.
  @Test func aBareNameIsLookedUpOnPATH() throws {
    let f = try FailureTests.Fixture()
    defer { f.cleanup() }
    let bin = f.dir.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let tool = bin.appendingPathComponent("mytool")
    try Data("#!/bin/sh\n".utf8).write(to: tool)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
    let path = "/nonexistent-flick-folder:" + bin.path
    let gifsicle = ["FLICK_GIFSICLE": "mytool", "PATH": path]
    expectEqual(GIFOptimizer.locate(environment: gifsicle)?.path, tool.path)
    #expect(GIFOptimizer.overrideWarning(environment: gifsicle) == nil)
    try expectEqual(FFmpegTool.find(environment: ["FLICK_FFMPEG": "mytool", "PATH": path]), tool.path)
    // Not on PATH: named as such, for both.
    let missing = ["FLICK_GIFSICLE": "othertool", "FLICK_FFMPEG": "othertool", "PATH": path]
    #expect(GIFOptimizer.locate(environment: missing) == nil)
    let warning = try #require(GIFOptimizer.overrideWarning(environment: missing))
    #expect(warning.contains("'othertool', which is not a program on PATH"), "\(warning)")
    let error = try #require(throws: VideoError.self) { try FFmpegTool.find(environment: missing) }
    #expect(error.description.contains("'othertool', which is not a program on PATH"), "\(error)")
  }

  /// Through the binary: `FLICK_GIFSICLE=gifsicle` runs the gifsicle on `PATH` (when installed).
  @Test func aBareGifsicleRunsThePassThroughTheCommand() throws {
    let env = TestSupport.environment(path: "/usr/local/bin:/usr/bin:/bin")
    guard FFmpegTool.findExecutable("gifsicle", path: "/usr/local/bin:/usr/bin:/bin") != nil else { return }
    let f = try FailureTests.Fixture()
    defer { f.cleanup() }
    let template = try FailureTests.writeTemplate(in: f)
    var bare = env
    bare["FLICK_GIFSICLE"] = "gifsicle"
    let r = try TestSupport.run(TestSupport.flick, ["render", template, "-o", f.path("a.gif")], environment: bare)
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(!r.stderr.contains("FLICK_GIFSICLE is"), "\(r.stderr)")
    #expect(r.stderr.contains("by gifsicle -O3") || r.stderr.contains("gifsicle -O3 made it no smaller"), "\(r.stderr)")
  }
}
