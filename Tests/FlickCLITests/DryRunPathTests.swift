import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick render --dry-run` prints commands a shell can run as they are: an output whose name
/// begins with `-` is written `./-…` (ffmpeg would read `-y.mp4` as an option), the real render
/// writes such an output, and without ffmpeg installed the commands are still printed (naming
/// `ffmpeg`, with a note) and the dry run exits 0.
@Suite struct DryRunPathTests {
  @Test func anOutputBeginningWithADashIsNeverAnOption() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let args = ["render", CLITests.hello, "-o", "-y.mp4", "-o", "-z.gif", "--frames", "0..2", "--scale", "0.25"]
    let dry = try ProcessRunner.run(CLITests.flick, args + ["--dry-run"], directory: dir.path)
    expectEqual(dry.status, 0, "\(dry.stderr)")
    let words = dry.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    #expect(words.contains("./-y.mp4") && words.contains("./-z.gif"), "\(dry.text)")
    #expect(!words.contains { $0.hasPrefix("-y.") || $0.hasPrefix("-z.") }, "\(dry.text)")
    // The render itself writes both files under those names, and nothing else.
    let real = try ProcessRunner.run(CLITests.flick, args + ["-q"], directory: dir.path)
    expectEqual(real.status, 0, "\(real.stderr)")
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["-y.mp4", "-z.gif"])
  }

  @Test func aDryRunWithoutFFmpegPrintsTheCommands() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = dir.path
    environment["FLICK_FFMPEG"] = nil
    let out = dir.appendingPathComponent("a.gif").path
    let args = ["render", CLITests.hello, "-o", out, "--frames", "0..2"]
    let dry = try ProcessRunner.run(CLITests.flick, args + ["--dry-run"], environment: environment)
    expectEqual(dry.status, 0, "\(dry.stderr)")
    let lines = dry.text.split(separator: "\n")
    #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("ffmpeg ") }, "\(dry.text)")
    #expect(dry.stderr.contains("ffmpeg is not installed"), "\(dry.stderr)")
    // The render itself still needs ffmpeg.
    let real = try ProcessRunner.run(CLITests.flick, args + ["-q"], environment: environment)
    expectEqual(real.status, 3, "\(real.stderr)")
    #expect(real.stderr.contains("ffmpeg was not found on PATH"), "\(real.stderr)")
  }
}
