import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick still`'s times and output checks, shared with `flick render` (issue 15, item 8).
@Suite struct StillOptionsTests {
  static let hello = CLITests.hello  // 3 s at 30 fps

  static func run(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let r = try ProcessRunner.run(CLITests.flick, args)
    return (r.status, r.text, r.stderr)
  }

  @Test func timePastTheEndIsAnErrorWithTheDuration() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-still")
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("f.png").path
    for args in [["--time", "10"], ["--at", "10s"]] {
      let r = try Self.run(["still", Self.hello] + args + ["-o", out])
      expectEqual(r.status, 2, "\(args)")
      #expect(r.stderr.contains("past the end"), "\(r.stderr)")
      #expect(r.stderr.contains("lasts 3 s"), "\(r.stderr)")
      #expect(r.stderr.contains("2.967"), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
    // The end instant itself is allowed (the settled state).
    try expectEqual(Self.run(["still", Self.hello, "--time", "3", "-o", out]).status, 0)
  }

  /// A single-valued option given twice is refused (exit 2), not last-wins; `-o` and
  /// `--output` are one option; `--set` stays repeatable, and so does `render -o`.
  @Test func aRepeatedSingleValuedOptionIsRefused() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-still")
    defer { try? FileManager.default.removeItem(at: dir) }
    let a = dir.appendingPathComponent("a.png").path, b = dir.appendingPathComponent("b.png").path
    for args in [["-o", a, "-o", b], ["-o", a, "--output", b], ["--time", "1", "--time", "2", "-o", a]] {
      let r = try Self.run(["still", Self.hello] + args)
      expectEqual(r.status, 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("is given more than once"), "\(args): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: a) && !FileManager.default.fileExists(atPath: b))
    }
    let info = try Self.run(["info", Self.hello, "--set", "title=A", "--set", "title=B"])
    #expect(!info.stderr.contains("more than once"), "\(info.stderr)")
    let render = try Self.run([
      "render", Self.hello, "-o", dir.appendingPathComponent("a.mp4").path, "-o",
      dir.appendingPathComponent("b.gif").path, "--dry-run",
    ])
    expectEqual(render.status, 0, "\(render.stderr)")
  }

  @Test func atTakesSnapshotTimesAndQuietPrintsNothing() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-still")
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("f.png").path
    for at in ["0", "1.5s", "end", "frame:30", "50%"] {
      let r = try Self.run(["still", Self.hello, "--at", at, "-o", out])
      expectEqual(r.status, 0, "--at \(at): \(r.stderr)")
      #expect(r.stdout.contains(out), "--at \(at): \(r.stderr)")
    }
    let quiet = try Self.run(["still", Self.hello, "-q", "-o", out])
    expectEqual(quiet.status, 0)
    #expect(quiet.stdout.isEmpty)
    #expect(quiet.stderr.isEmpty)
    let bad = try Self.run(["still", Self.hello, "--at", "soon", "-o", out])
    expectEqual(bad.status, 2)
    #expect(bad.stderr.contains("'end' or 'frame:N'"))
  }

  @Test func aMissingFolderSaysSoAndRenderToAPNGPointsToStill() throws {
    let missing = "/nonexistent-flick-folder/f.png"
    let r = try Self.run(["still", Self.hello, "-o", missing])
    expectEqual(r.status, 3)
    #expect(r.stderr.contains("the folder /nonexistent-flick-folder does not exist"))
    let render = try Self.run(["render", Self.hello, "-o", "out.png"])
    expectEqual(render.status, 2)
    #expect(render.stderr.contains("flick still"))
    // A PNG sequence pattern is still a render output, with no hint.
    let pattern = try Self.run(["render", Self.hello, "-o", "/nonexistent-flick-folder/%04d.png", "--dry-run"])
    #expect(!pattern.stderr.contains("flick still"))
  }
}
