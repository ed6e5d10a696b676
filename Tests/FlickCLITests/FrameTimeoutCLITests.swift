import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `--frame-timeout` (FLICK_FRAME_TIMEOUT) bounds how long one frame may draw, for what no cap
/// checks up front (a font FreeType never finishes, a picture a decoder loops on): every command
/// that draws stops with exit 3, names the frame and the limit, and leaves nothing behind. The
/// stand-in for a hang is a frame that draws for seconds (forty 3000² shadowed layers on a 4096²
/// canvas) under a limit of a tenth of a second.
@Suite struct FrameTimeoutCLITests {
  static let slow = SlowFrameTemplate.text(layers: 40)

  @Test(arguments: ["still", "render", "snapshot", "environment"])
  func aFrameOverTheLimitStopsTheCommand(_ command: String) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let template = try HostileCLITests.write(Self.slow, "slow.json5", in: dir)
    let limit = ["--frame-timeout", "0.1s"]
    let (args, environment): ([String], [String: String]) =
      switch command {
      case "still": (["still", template, "-o", dir.appendingPathComponent("out.png").path] + limit, [:])
      case "render": (["render", template, "-q", "-o", dir.appendingPathComponent("out.mp4").path] + limit, [:])
      case "snapshot": (["snapshot", template, "--out", dir.appendingPathComponent("goldens").path] + limit, [:])
      default:
        (["still", template, "-o", dir.appendingPathComponent("out.png").path], ["FLICK_FRAME_TIMEOUT": "0.1s"])
      }
    let r = try HostileCLITests.run(args, environment: environment)
    expectEqual(r.status, 3, "\(command): \(r.stderr)")
    #expect(r.stderr.contains("flick: stopped: the frame at 0 s has been drawing for"), "\(command): \(r.stderr)")
    #expect(r.stderr.contains("more than the limit of 0.1 s"), "\(command): \(r.stderr)")
    #expect(r.stderr.contains("--frame-timeout or FLICK_FRAME_TIMEOUT"), "\(command): \(r.stderr)")
    // Nothing written: no output, no goldens folder, no temporary file.
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    expectEqual(left, ["slow.json5"], "\(command)")
  }

  @Test func theLimitMustBeADuration() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let template = try HostileCLITests.write(HostileCLITests.small, "t.json5", in: dir)
    for value in ["0", "-1", "soon"] {
      let r = try HostileCLITests.run(
        ["still", template, "-o", dir.appendingPathComponent("t.png").path, "--frame-timeout", value])
      expectEqual(r.status, 2, "\(value): \(r.stderr)")
      #expect(r.stderr.contains("--frame-timeout expects a duration such as 90, 90s, 10m or 1h"), "\(r.stderr)")
    }
    // Under the limit nothing changes: the frame is drawn and written.
    let ok = try HostileCLITests.run(
      ["still", template, "-o", dir.appendingPathComponent("t.png").path, "--frame-timeout", "30s"])
    expectEqual(ok.status, 0, "\(ok.stderr)")
  }
}
