import FlickExpectations
import Foundation
import Testing

/// Font files listed by a template: load-time errors reach the command line as exit code 2.
@Suite struct FontAssetCommandTests {
  static func template(fonts: String) -> String {
    """
    { flick: 1, fonts: \(fonts),
      canvas: { width: 64, height: 32, duration: 1 },
      layers: [{ id: "t", size: [64, 32], position: [32, 16], text: { string: "Aa", fontFamily: "DejaVu Sans" } }] }
    """
  }

  @Test(arguments: [
    ("[\"fonts/missing.ttf\"]", "fonts[0]"),
    ("[\"notafont.ttf\"]", "fonts[0]"),
  ])
  func badFontFilesExitWith2(fonts: String, path: String) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data("this is not a font".utf8).write(to: dir.appendingPathComponent("notafont.ttf"))
    let file = dir.appendingPathComponent("t.json5")
    try Data(Self.template(fonts: fonts).utf8).write(to: file)
    let png = dir.appendingPathComponent("x.png").path
    let r = try CLITests.run(CLITests.flick, ["still", file.path, "-o", png])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("t.json5:1:"), "\(r.stderr)")
    #expect(r.stderr.contains(path), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: png))
  }
}
