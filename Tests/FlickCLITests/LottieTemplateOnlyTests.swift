import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// A Lottie file given to a command that takes templates only is named as one (found as `render`
/// finds it, by its content), with the commands that take it, not read as a template without a
/// format version.
@Suite struct LottieTemplateOnlyTests {
  @Test func templateOnlyCommandsSayTheFileIsLottie() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let badge = LottieInfoBackgroundTests.badge
    // The same file under a template's name is still a Lottie file.
    let renamed = dir.appendingPathComponent("badge.json5").path
    try FileManager.default.copyItem(atPath: badge, toPath: renamed)
    for file in [badge, renamed] {
      for args in [
        ["snapshot", file, "--out", dir.appendingPathComponent("golden").path],
        ["verify", file, "--against", dir.path], ["trace", file, "--layer", "a", "--property", "opacity"],
        ["studio", "--no-open", file],
      ] {
        // `timeout`: a studio that took the file would serve it until stopped.
        let r = try CLITests.run("/usr/bin/timeout", ["30", CLITests.flick] + args)
        expectEqual(r.status, 2, "\(args): \(r.stderr)")
        #expect(
          r.stderr.contains("'\(file)' is a Lottie file, and this command takes templates only")
            && r.stderr.contains("render, still and info take Lottie files"), "\(args): \(r.stderr)")
        #expect(!r.stderr.contains("format version"), "\(args): \(r.stderr)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("golden").path))
    // The list is the one `flick --help` gives.
    let help = try CLITests.run(CLITests.flick, ["--help"])
    #expect(help.stdout.contains("render, still and info also take a Lottie file"), "\(help.stdout)")
  }
}
