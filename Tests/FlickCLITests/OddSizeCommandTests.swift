import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick render` of a canvas with an odd side: an MP4 is refused with an even `--size` that
/// `--size` then accepts and that encodes; the formats without that constraint (WebM, ProRes,
/// WebP, GIF at any `--gif-width`) encode the odd size as it is.
@Suite struct OddSizeCommandTests {
  /// A two-frame template with a `width × height` canvas, in `dir`.
  static func template(_ width: Int, _ height: Int, in dir: URL) throws -> String {
    try HostileCLITests.write(
      "{ flick: 1, canvas: { width: \(width), height: \(height), fps: 10, duration: 0.2 },\n"
        + "  layers: [{ id: 'a', size: [1, 1], backgroundColor: '#f00' }] }", "odd\(width)x\(height).json5", in: dir)
  }

  /// The size after `render at --size ` in `message`.
  static func suggestedSize(_ message: String) -> String? {
    guard let range = message.range(of: "render at --size ") else { return nil }
    return String(message[range.upperBound...].prefix { $0.isNumber || $0 == "x" })
  }

  /// Odd widths, odd heights, both, portrait phones, 1×1, 3×5 and ratios far from square.
  @Test(arguments: [
    (641, 360), (640, 361), (641, 361), (375, 812), (393, 851), (1, 1), (3, 5), (1001, 3), (3, 1001),
  ])
  func theSuggestedSizeIsAcceptedAndEncodes(_ width: Int, _ height: Int) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.template(width, height, in: dir)
    let mp4 = dir.appendingPathComponent("o.mp4").path
    let refused = try HostileCLITests.run(["render", path, "-o", mp4, "-q"])
    expectEqual(refused.status, 2, "\(refused.stderr)")
    let size = try #require(Self.suggestedSize(refused.stderr), "\(refused.stderr)")
    let sides = size.split(separator: "x").compactMap { Int($0) }
    #expect(sides.count == 2 && sides.allSatisfy { $0 % 2 == 0 }, "\(refused.stderr)")
    let r = try HostileCLITests.run(["render", path, "--size", size, "-o", mp4, "-q"])
    expectEqual(r.status, 0, "--size \(size) for \(width)×\(height): \(r.stderr)")
    let video = try CLITests.probe(mp4, "width,height")
    expectEqual("\(video["width"] ?? "")x\(video["height"] ?? "")", size)
  }

  /// WebM (VP9), ProRes and WebP take odd sides; a GIF takes any --gif-width, also one that
  /// scales an extreme canvas to under a pixel high.
  @Test func theOtherEncodersTakeOddSizes() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (width, height) in [(641, 361), (3, 5), (375, 813)] {
      let path = try Self.template(width, height, in: dir)
      for format in ["webm", "mov", "webp"] {
        let out = dir.appendingPathComponent("o.\(format)").path
        let r = try HostileCLITests.run(["render", path, "-o", out, "-q"])
        expectEqual(r.status, 0, "\(width)×\(height) .\(format): \(r.stderr)")
        expectEqual(try Self.frameSize(out, format: format), "\(width)x\(height)", ".\(format)")
      }
    }
    let flat = try Self.template(1001, 3, in: dir)
    for gifWidth in ["7", "101", "1001"] {
      let gif = dir.appendingPathComponent("o.gif").path
      let r = try HostileCLITests.run(["render", flat, "-o", gif, "--gif-width", gifWidth, "-q"])
      expectEqual(r.status, 0, "--gif-width \(gifWidth): \(r.stderr)")
    }
  }

  /// The size after `use --size ` in `message`.
  static func advisedSize(_ message: String) -> String? {
    guard let range = message.range(of: "use --size ") else { return nil }
    return String(message[range.upperBound...].prefix { $0.isNumber || $0 == "x" })
  }

  /// A `--size` that changes the canvas's aspect ratio is refused with a size that, passed back,
  /// renders: with even sides for an MP4 (641×360 at --size 641x300 said "use --size 641x361",
  /// which the MP4 then refused as odd), as it is for a GIF, or with --pad.
  @Test(arguments: [
    (640, 360, 641, 300), (640, 360, 641, 360), (375, 812, 500, 812), (375, 812, 501, 1000), (375, 812, 375, 813),
    (641, 360, 641, 361), (3, 5, 7, 7), (1001, 3, 1001, 5),
  ])
  func theSizeAdvisedForTheAspectRatioRenders(_ width: Int, _ height: Int, _ w: Int, _ h: Int) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.template(width, height, in: dir)
    for (name, extra) in [("o.mp4", [String]()), ("o.gif", []), ("o.mp4", ["--pad"])] {
      let out = dir.appendingPathComponent(name).path
      let refused = try HostileCLITests.run(["render", path, "--size", "\(w)x\(h)", "-o", out, "-q"] + extra)
      expectEqual(refused.status, 2, "\(refused.stderr)")
      #expect(refused.stderr.contains("aspect ratio"), "\(refused.stderr)")
      let size = try #require(Self.advisedSize(refused.stderr), "\(refused.stderr)")
      let r = try HostileCLITests.run(["render", path, "--size", size, "-o", out, "-q"] + extra)
      expectEqual(r.status, 0, "\(width)×\(height) --size \(w)x\(h) → \(size) \(name) \(extra): \(r.stderr)")
    }
  }

  /// `WIDTHxHEIGHT` of the video at `path`: ffprobe's, or for a WebP (always animated, whose
  /// size ffmpeg 5.1's demuxer reports as 0×0) the canvas of its VP8X chunk.
  static func frameSize(_ path: String, format: String) throws -> String {
    guard format == "webp" else {
      let video = try CLITests.probe(path, "width,height")
      return "\(video["width"] ?? "")x\(video["height"] ?? "")"
    }
    let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard b.count >= 30, String(decoding: b[12..<16], as: UTF8.self) == "VP8X" else { return "no VP8X chunk" }
    func le(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 }
    return "\(le(24) + 1)x\(le(27) + 1)"
  }
}
