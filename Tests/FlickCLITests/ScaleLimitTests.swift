import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `--scale` takes (0, 16] in every command that takes it, and each command's help says so: one
/// limit (``FlickRaster/Renderer/maximumScale``), checked and stated from the same constant.
@Suite struct ScaleLimitTests {
  static let commands = ["render", "still", "snapshot", "studio"]

  /// A scale in (0, 16] that rounds a side of the template's canvas to 0 (or past 16384 pixels)
  /// is refused naming `--scale` and the range this canvas takes, as `flick plan` names it for a
  /// manifest's size (``FlickRaster/Renderer/sideRefusal(canvas:scale:)``).
  @Test func aScaleThatRoundsASideAwayNamesTheUsableRange() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (command, output, scale) in [
      ("render", "x.mp4", "1e-9"), ("render", "x.gif", "0.001"), ("still", "x.png", "1e-9"),
    ] {
      let r = try CLITests.run(
        CLITests.flick, [command, CLITests.hello, "-o", dir.appendingPathComponent(output).path, "--scale", scale])
      expectEqual(r.status, 2, "\(command) \(scale): \(r.stderr)")
      #expect(
        r.stderr.contains("each side must be 1…16384 pixels, so --scale must be in 0.0028…16 for this 640×360 canvas"),
        "\(command) \(scale): \(r.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
  }

  @Test func everyHelpStatesTheLimitTheCheckApplies() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let template = try HostileCLITests.write(
      "{ flick: 1, canvas: { width: 4, height: 3, fps: 10, duration: 0.2 }, layers: [] }", "t.json5", in: dir)
    for command in Self.commands {
      let help = try CLITests.run(CLITests.flick, [command, "--help"])
      let line = help.stdout.split(separator: "\n").first { $0.contains("--scale S ") }
      #expect(line?.contains("0 < S ≤ 16 ") == true, "\(command): \(line ?? "no --scale line")")
      // Over the limit: refused with the same limit, before anything is written or started.
      var args = [command, template, "--scale", "16.01"]
      if command != "studio" { args += ["-o", dir.appendingPathComponent(command == "render" ? "o.gif" : "o").path] }
      if command == "still" { args[args.count - 1] += ".png" }
      let r = try CLITests.run(CLITests.flick, args)
      expectEqual(r.status, 2, "\(command): \(r.stderr)")
      #expect(r.stderr.contains("--scale expects a number in (0, 16], found '16.01'"), "\(r.stderr)")
    }
    // At the limit: snapshot (8 at most before) and still take 16.
    let golden = dir.appendingPathComponent("golden").path
    let snapshot = try CLITests.run(
      CLITests.flick, ["snapshot", template, "--at", "0", "--scale", "16", "--out", golden])
    expectEqual(snapshot.status, 0, "\(snapshot.stderr)")
    let report = dir.appendingPathComponent("report").path
    let verify = try CLITests.run(CLITests.flick, ["verify", template, "--against", golden, "--report", report])
    expectEqual(verify.status, 0, "\(verify.stderr)")
    let png = dir.appendingPathComponent("s.png").path
    let still = try CLITests.run(CLITests.flick, ["still", template, "--scale", "16", "-o", png])
    expectEqual(still.status, 0, "\(still.stderr)")
    let image = try PNGFile(path: png)
    #expect(image.width == 64 && image.height == 48)
  }
}
