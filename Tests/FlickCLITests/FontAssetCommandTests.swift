import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Font files listed by a template: load-time errors reach the command line as exit code 2.
@Suite struct FontAssetCommandTests {
  static func template(fonts: String) -> String {
    """
    { flick: 1, fonts: \(fonts),
      canvas: { width: 64, height: 32, duration: 1 },
      layers: [{ id: "t", type: "text", size: [64, 32], position: [32, 16], string: "Aa", fontFamily: "DejaVu Sans" }] }
    """
  }

  @Test(arguments: [
    ("[\"fonts/missing.ttf\"]", "fonts[0]"),
    ("[\"notafont.ttf\"]", "fonts[0]"),
    // Read far enough for its family by Flick, refused by fontconfig when it is registered.
    ("[\"DejaVuSans.ttf\", \"nameonly.ttf\"]", "fonts[1]"),
  ])
  func badFontFilesExitWith2(fonts: String, path: String) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data("this is not a font".utf8).write(to: dir.appendingPathComponent("notafont.ttf"))
    try Self.writeFonts(in: dir)
    let file = dir.appendingPathComponent("t.json5")
    try Data(Self.template(fonts: fonts).utf8).write(to: file)
    let png = dir.appendingPathComponent("x.png").path
    let r = try CLITests.run(CLITests.flick, ["still", file.path, "-o", png])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("t.json5:1:"), "\(r.stderr)")
    #expect(r.stderr.contains(path), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: png))
  }

  @Test func aFontFileFontconfigRefusesIsLocatedAtTheParameterNamingIt() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.writeFonts(in: dir)
    let file = dir.appendingPathComponent("t.json5")
    try Data(
      """
      { flick: 1, parameters: { face: { type: "font", default: "nameonly.ttf" } },
        canvas: { width: 64, height: 32, duration: 1 },
        layers: [{ id: "t", type: "text", size: [64, 32], position: [32, 16], string: "Aa", fontFamily: "$face" }] }
      """.utf8
    ).write(to: file)
    let r = try CLITests.run(CLITests.flick, ["info", file.path])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("t.json5:1:58: parameters.face: cannot load font file "), "\(r.stderr)")
  }

  /// `DejaVuSans.ttf` (a copy) and `nameonly.ttf`: a table directory and a `name` table naming
  /// the family "Evil", nothing fontconfig could draw.
  static func writeFonts(in dir: URL) throws {
    try FileManager.default.copyItem(
      atPath: RenamedFont.dejaVu + "DejaVuSans.ttf", toPath: dir.appendingPathComponent("DejaVuSans.ttf").path)
    try Data(HostileFont.font(["name": HostileFont.nameTable(family: "Evil")]))
      .write(to: dir.appendingPathComponent("nameonly.ttf"))
  }
}
