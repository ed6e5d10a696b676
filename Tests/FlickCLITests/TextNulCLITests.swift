import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `string: "A\u0000B"` drew exactly "A" with exit 0 (Pango stops at a NUL); `flick still`
/// now refuses it with the file, line and JSON path, from the template or from `--params`.
@Suite struct TextNulCLITests {
  @Test func aNulInTextFromTheTemplateOrAParamsFileIsALocatedError() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-nul")
    defer { try? FileManager.default.removeItem(at: dir) }
    let template = dir.appendingPathComponent("t.json5")
    let params = dir.appendingPathComponent("p.json5")
    try Data(
      """
      { flick: 1, parameters: { title: { type: 'string', default: 'A' } },
        canvas: { width: 64, height: 32, duration: 1 },
        layers: [{ id: 't', size: [60, 20], position: [32, 16], string: '$title' },
                 { id: 'u', size: [60, 20], position: [32, 16], string: 'A\\u0000B' }] }
      """.utf8
    ).write(to: template)
    try Data("{ title: 'X\\u0000Y' }".utf8).write(to: params)
    let png = dir.appendingPathComponent("r.png").path
    let fromTemplate = try ProcessRunner.run(CLITests.flick, ["still", template.path, "-o", png])
    expectEqual(fromTemplate.status, 2, "\(fromTemplate.stderr)")
    #expect(fromTemplate.stderr.contains("t.json5:4:"), "\(fromTemplate.stderr)")
    #expect(fromTemplate.stderr.contains("layers[1].string"), "\(fromTemplate.stderr)")
    #expect(fromTemplate.stderr.contains("NUL character"), "\(fromTemplate.stderr)")
    let fromParams = try ProcessRunner.run(
      CLITests.flick, ["still", template.path, "--params", params.path, "-o", png])
    expectEqual(fromParams.status, 2, "\(fromParams.stderr)")
    #expect(fromParams.stderr.contains("layers[0].string"), "\(fromParams.stderr)")
    #expect(fromParams.stderr.contains("NUL character"), "\(fromParams.stderr)")
    #expect(!FileManager.default.fileExists(atPath: png))
  }
}
