import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick still` and `flick render` warn about characters without a glyph; `--strict` fails.
@Suite struct GlyphWarningTests {
  static let template = """
    { flick: 1, canvas: { width: 160, height: 60, fps: 10, duration: 0.2 },
      layers: [{ id: "label", type: "text", string: "ok \\u2FE0", size: [150, 40], position: [80, 30], fontFamily: "Inter" }] }
    """

  @Test func stillWarnsAndStrictFails() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-glyphs")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("t.json5").path
    try Self.template.write(toFile: path, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("f.png").path
    let warned = try ProcessRunner.run(CLITests.flick, ["still", path, "-o", out])
    expectEqual(warned.status, 0)
    #expect(warned.stderr.contains("warning: layer 'label'"))
    #expect(warned.stderr.contains("U+2FE0"))
    try FileManager.default.removeItem(atPath: out)
    let strict = try ProcessRunner.run(CLITests.flick, ["still", path, "-o", out, "--strict"])
    expectEqual(strict.status, 2)
    #expect(strict.stderr.contains("layer 'label'"))
    #expect(!FileManager.default.fileExists(atPath: out))
    let render = try ProcessRunner.run(
      CLITests.flick, ["render", path, "-o", dir.appendingPathComponent("v.gif").path, "--strict"])
    expectEqual(render.status, 2)
    #expect(render.stderr.contains("U+2FE0"))
    // The check runs beside the encoders' start-up: a refusal still leaves no output behind.
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["t.json5"])
    let warnedRender = try ProcessRunner.run(
      CLITests.flick, ["render", path, "-o", dir.appendingPathComponent("v.gif").path])
    expectEqual(warnedRender.status, 0, "\(warnedRender.stderr)")
    #expect(warnedRender.stderr.contains("warning: layer 'label'"), "\(warnedRender.stderr)")
    let quiet = try ProcessRunner.run(
      CLITests.flick, ["render", path, "-o", dir.appendingPathComponent("v.gif").path, "-q"])
    expectEqual(quiet.status, 0)
    #expect(!quiet.stderr.contains("warning"))
  }
}
