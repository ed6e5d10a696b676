import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick plan` and `flick run` check a job as `flick render` checks a template, through the real
/// binary: a template that cannot draw (an uninstalled font, a picture that does not decode) is
/// a located exit 2 at plan time, not an exit 3 when a worker draws it; and the operator's caps
/// (`--max-frames`, `--max-pixels`, `--max-work`, `--max-memory` and their `FLICK_MAX_…`
/// variables) hold for every job: `plan` refuses a job over them located at its render, `run`
/// refuses it with exit 2 before rendering anything.
@Suite struct BatchLoadChecksCLITests {
  typealias F = BatchFixtures
  static let canvas = "canvas: { width: 48, height: 48, fps: 10, duration: 0.3 }"
  static let manifest = """
    {
      flick: 1, output: "out",
      renders: [{ template: "t.json5", formats: ["png"] }],
    }
    """

  /// A folder holding `template` as `t.json5` and the one-render manifest `batch.json5`.
  static func folder(template: String) throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-batch-load")
    try template.write(to: dir.appendingPathComponent("t.json5"), atomically: true, encoding: .utf8)
    try manifest.write(to: dir.appendingPathComponent("batch.json5"), atomically: true, encoding: .utf8)
    return dir
  }

  /// `flick plan` in `dir` exits 2 with one line that has `located` after the template's path,
  /// and writes no plan.
  static func expectPlanRefused(in dir: URL, located: String) throws {
    let r = try F.flick(["plan", "batch.json5", "-o", "plan.json"], in: dir)
    expectEqual(r.status, 2, "exit \(r.status): \(r.stderr)")
    let template = dir.appendingPathComponent("t.json5").standardizedFileURL.path
    #expect(r.stderr.hasPrefix("flick: \(template):\(located)"), "\(r.stderr)")
    expectEqual(r.stderr.split(separator: "\n").count, 1, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plan.json").path))
  }

  @Test func anUninstalledFontIsRefusedAtPlanTime() throws {
    let dir = try Self.folder(
      template: "{ flick: 1, \(Self.canvas),\n"
        + "  layers: [{ id: 't', type: 'text', string: 'hi', fontFamily: 'Qwerty Nonesuch' }] }")
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.expectPlanRefused(
      in: dir, located: "2:63: layers[0].fontFamily: layer 't': font family 'Qwerty Nonesuch' is not installed")
  }

  @Test func aTruncatedPictureIsRefusedAtPlanTime() throws {
    let dir = try Self.folder(
      template: "{ flick: 1, \(Self.canvas),\n  layers: [{ id: 'a', size: [8, 8],\n    contents: 'cut.png' }] }")
    defer { try? FileManager.default.removeItem(at: dir) }
    // A valid PNG header (it passes the header check at load) with the image data cut off.
    let good = dir.appendingPathComponent("g.json5")
    try "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', size: [8, 8], backgroundColor: '#f00' }] }".write(
      to: good, atomically: true, encoding: .utf8)
    let png = dir.appendingPathComponent("g.png")
    let still = try F.flick(["still", good.path, "-o", png.path], in: dir)
    expectEqual(still.status, 0, "\(still.stderr)")
    try Data(contentsOf: png).prefix(120).write(to: dir.appendingPathComponent("cut.png"))
    try Self.expectPlanRefused(in: dir, located: "3:15: layers[0].contents: cannot read image")
  }

  /// The slide fixture (128×72, 40 frames) planned in a fresh folder.
  static func slideFolder(chunk: Int? = nil) throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-batch-caps")
    try FileManager.default.copyItem(
      at: F.fixtures.appendingPathComponent("slide.json5"), to: dir.appendingPathComponent("t.json5"))
    let text = chunk.map { manifest.replacingOccurrences(of: "formats:", with: "chunk: \($0), formats:") } ?? manifest
    try text.write(to: dir.appendingPathComponent("batch.json5"), atomically: true, encoding: .utf8)
    return dir
  }

  @Test func planRefusesAJobOverTheCapsAtItsRender() throws {
    let dir = try Self.slideFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let cases: [(args: [String], environment: [String: String], says: String)] = [
      (["--max-frames", "10"], [:], "the render has 40 frames, more than the cap of 10"),
      (["--max-pixels", "1000"], [:], "a 128×72 frame has 9216 pixels, more than the cap of 1000"),
      (["--max-work", "1000"], [:], "more than the work cap of 1000"),
      ([], ["FLICK_MAX_WORK": "1000"], "more than the work cap of 1000"),
    ]
    for c in cases {
      var environment = F.cleanEnvironment
      environment.merge(c.environment) { $1 }
      let r = try F.flick(["plan", "batch.json5", "-o", "plan.json"] + c.args, in: dir, environment: environment)
      expectEqual(r.status, 2, "\(c.args) \(c.environment): exit \(r.status): \(r.stderr)")
      #expect(
        r.stderr.hasPrefix("flick: batch.json5:3:13: renders[0]: the job 't/default/128x72': "),
        "\(c.args) \(c.environment): \(r.stderr)")
      #expect(r.stderr.contains(c.says), "\(c.args) \(c.environment): \(r.stderr)")
      expectEqual(r.stderr.split(separator: "\n").count, 1, "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plan.json").path))
    }
    let planned = try F.flick(["plan", "batch.json5", "-o", "plan.json", "--max-frames", "40"], in: dir)
    expectEqual(planned.status, 0, "\(planned.stderr)")
  }

  @Test func runRefusesEveryJobOverTheCapsWithoutRendering() throws {
    let dir = try Self.slideFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let planned = try F.flick(["plan", "batch.json5", "-o", "plan.json"], in: dir)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    let cases: [(args: [String], environment: [String: String], says: String)] = [
      (["--max-work", "1000"], [:], "more than the work cap of 1000"),
      ([], ["FLICK_MAX_WORK": "1000"], "more than the work cap of 1000"),
      (["--max-memory", "1M"], [:], "more than the memory cap of"),
      ([], ["FLICK_MAX_MEMORY": "1M"], "more than the memory cap of"),
      (["--max-frames", "10"], [:], "the render has 40 frames, more than the cap of 10"),
    ]
    let out = dir.appendingPathComponent("out/t")
    for c in cases {
      var environment = F.cleanEnvironment
      environment.merge(c.environment) { $1 }
      let r = try F.flick(["run", "plan.json", "--progress", "none"] + c.args, in: dir, environment: environment)
      expectEqual(r.status, 2, "\(c.args) \(c.environment): exit \(r.status): \(r.stderr)")
      #expect(r.stderr.contains("job 0 t/default/128x72 failed (exit 2): "), "\(c.args) \(c.environment): \(r.stderr)")
      #expect(r.stderr.contains(c.says), "\(c.args) \(c.environment): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out.path), "\(c.args): \(out.path) was made")
    }
    let fits = try F.flick(
      ["run", "plan.json", "-q", "--max-work", "400000"], in: dir, environment: F.cleanEnvironment)
    expectEqual(fits.status, 0, "\(fits.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("default/128x72/0039.png").path))
  }

  @Test func mergeChecksChunkFramesAgainstItsPixelCap() throws {
    let dir = try Self.slideFolder(chunk: 15)
    defer { try? FileManager.default.removeItem(at: dir) }
    try expectEqual(F.flick(["plan", "batch.json5", "-o", "plan.json"], in: dir).status, 0)
    let ran = try F.flick(["run", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(ran.status, 0, "\(ran.stderr)")
    let refused = try F.flick(["merge", "plan.json", "-q", "--max-pixels", "1000"], in: dir)
    expectEqual(refused.status, 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("over the pixel cap of 1000 (--max-pixels"), "\(refused.stderr)")
    let merged = try F.flick(["merge", "plan.json", "-q", "--max-memory", "4G"], in: dir)
    expectEqual(merged.status, 0, "\(merged.stderr)")
  }

  @Test func helpStatesTheCaps() throws {
    let expected: [(command: String, words: [String])] = [
      ("plan", ["--max-frames", "--max-pixels", "--max-work", "FLICK_MAX_WORK"]),
      ("run", ["--max-frames", "--max-pixels", "--max-work", "--max-memory", "--encoder-timeout", "FLICK_MAX_MEMORY"]),
      ("merge", ["--max-pixels", "--max-memory", "--encoder-timeout", "FLICK_ENCODER_TIMEOUT"]),
    ]
    for (command, words) in expected {
      let help = try F.flick([command, "--help"], in: F.root).text
      for word in words { #expect(help.contains(word), "\(command) --help lacks \(word)") }
    }
  }
}
