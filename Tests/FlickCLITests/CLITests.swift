import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// End-to-end tests that run the built `flick` binary and inspect its outputs with ffprobe.
@Suite struct CLITests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let flick = ProcessRunner.flick(root: root)
  static let hello = root.appendingPathComponent("Templates/hello.json5").path

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static func run(_ executable: String, _ args: [String]) throws -> Result {
    let r = try ProcessRunner.run(executable, args)
    return Result(status: r.status, stdout: r.text, stderr: r.stderr)
  }

  static func temporaryDirectory() throws -> URL {
    try ProcessRunner.temporaryDirectory(prefix: "flick-cli")
  }

  static func probe(_ path: String, _ entries: String) throws -> [String: String] {
    let r = try run(
      "/usr/bin/env",
      [
        "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=\(entries)",
        "-of", "default=noprint_wrappers=1", path,
      ])
    expectEqual(r.status, 0, "ffprobe failed: \(r.stderr)")
    var fields: [String: String] = [:]
    for line in r.stdout.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    return fields
  }

  @Test func versionAndHelp() throws {
    let v = try Self.run(Self.flick, ["--version"])
    expectEqual(v.status, 0)
    #expect(v.stdout.hasPrefix("flick "))
    let h = try Self.run(Self.flick, ["--help"])
    expectEqual(h.status, 0)
    #expect(h.stdout.contains("flick render"))
    let bad = try Self.run(Self.flick, ["render"])
    expectEqual(bad.status, 2)
    #expect(bad.stderr.contains("render needs a TEMPLATE"))
    let typo = try Self.run(Self.flick, ["rendr"])
    expectEqual(typo.status, 2)
    #expect(typo.stderr.contains("unknown command 'rendr'; did you mean 'render'?"))
    // Every command in the usage text is one the dispatcher knows.
    for line in h.stdout.split(separator: "\n") where line.hasPrefix("  flick ") {
      let command = String(line.dropFirst(8).prefix { $0 != " " })
      guard !command.hasPrefix("-") else { continue }
      let r = try Self.run(Self.flick, [command, "--help"])
      expectEqual(r.status, 0, "flick \(command) --help: \(r.stderr)")
    }
  }

  @Test func rendersMP4AndGIF() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let mp4 = dir.appendingPathComponent("hello.mp4").path
    let gif = dir.appendingPathComponent("hello.gif").path
    // --every-frame: one GIF image per frame (by default hello's held frames are merged).
    let r = try Self.run(Self.flick, ["render", Self.hello, "-o", mp4, "-o", gif, "--quiet", "--every-frame"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let video = try Self.probe(mp4, "codec_name,pix_fmt,width,height,nb_read_frames,color_space")
    expectEqual(video["codec_name"], "h264")
    expectEqual(video["pix_fmt"], "yuv420p")
    #expect(video["width"] == "640" && video["height"] == "360")
    expectEqual(video["nb_read_frames"], "90")  // 30 fps × 3 s
    expectEqual(video["color_space"], "bt709")
    let anim = try Self.probe(gif, "codec_name,width,height,nb_read_frames")
    expectEqual(anim["codec_name"], "gif")
    expectEqual(anim["nb_read_frames"], "90")
    // No temporary files are left beside the outputs.
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty)
  }

  @Test func stillShowsTheRectangleWhereTheTweenPutsIt() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let png = dir.appendingPathComponent("frame.png").path
    // At 0.85 s the easeInEaseOut tween (0.25 s → 1.45 s, x 160 → 480) is exactly half-way: x = 320.
    let r = try Self.run(Self.flick, ["still", Self.hello, "--time", "0.85", "-o", png])
    expectEqual(r.status, 0, "\(r.stderr)")
    let frame = try PNGFile(path: png)
    let card = frame.rgba(x: 320 + 45, y: 180 - 45)
    expectEqual(card.r, 0xF9)
    expectEqual(card.g, 0x73)
    expectEqual(card.b, 0x16)
    let background = frame.rgba(x: 160, y: 100)
    expectEqual(background.r, 0x0F)
    expectEqual(background.g, 0x17)
    expectEqual(background.b, 0x2A)
  }

  @Test func badTemplateExitsWithCode2AndAPath() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let template = dir.appendingPathComponent("bad.json5")
    try Data("{ flick: 1, canvas: { width: 10, height: 10, duration: -1 } }".utf8).write(to: template)
    let out = dir.appendingPathComponent("x.mp4").path
    let r = try Self.run(Self.flick, ["render", template.path, "-o", out])
    expectEqual(r.status, 2)
    #expect(r.stderr.contains("bad.json5:1:56: canvas.duration: expected a number in"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
