import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTestSupport
import Foundation
import Testing

/// A font file edited on disk after it was registered (what a designer does while
/// `flick studio` runs) is registered again and drawn as it is now, by renderers made after the
/// change, although fontconfig, cairo and Pango had already loaded the old file by that name.
@Suite struct FontRegistryReloadTests {
  static func tree(family: String, weight: TextContent.FontWeight = .regular, fontFiles: [String] = []) -> RenderTree {
    let label = Layer(
      id: "label", bounds: Rect(x: 0, y: 0, width: 180, height: 40), position: Point(x: 100, y: 30),
      content: .text(
        TextContent(string: "Quartz glyph", fontFamily: family, fontSize: 24, fontWeight: weight, textColor: .black)))
    return RenderTree(
      size: Size(width: 200, height: 60), backgroundColor: .white, layers: [label], time: 0, fontFiles: fontFiles)
  }

  @Test func aFontFileSavedAgainIsDrawnAsItIsNow() throws {
    // A changed file is registered as a private copy, kept until the process ends.
    ProcessRunner.removeAtExit(FontRegistry.copiesFolder)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flick-font-edit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Brand.ttf").path
    try RenamedFont.data("DejaVuSans.ttf", renamed: "Qwerty Sans").write(to: URL(fileURLWithPath: file))

    let regular = try Renderer().render(Self.tree(family: "DejaVu Sans"))
    let bold = try Renderer().render(Self.tree(family: "DejaVu Sans", weight: .bold))
    let warm = FrameRenderer()
    let before = try warm.render(Self.tree(family: "Qwerty Sans", fontFiles: [file]))
    let beforeIsRegular = before.pixels == regular.pixels
    #expect(beforeIsRegular, "the registered file did not draw as DejaVu Sans")
    try expectEqual(FontRegistry.register(file), ["Qwerty Sans"])

    // The designer saves the bold cut over the file (an editor writes a new file and renames it).
    let temporary = folder.appendingPathComponent(".Brand.ttf.tmp").path
    try RenamedFont.data("DejaVuSans-Bold.ttf", renamed: "Qwerty Sans").write(to: URL(fileURLWithPath: temporary))
    expectEqual(rename(temporary, file), 0)

    try expectEqual(FontRegistry.register(file), ["Qwerty Sans"])
    for renderer in [FrameRenderer(), Renderer()] as [any FrameRendering] {
      let after = try renderer.draw(Self.tree(family: "Qwerty Sans", fontFiles: [file]))
      let afterIsBold = after.pixels == bold.pixels
      #expect(afterIsBold, "a renderer made after the edit drew the old file (\(type(of: renderer)))")
    }

    // Edited in place (same inode, new size and time): registered again too.
    try RenamedFont.data("DejaVuSans.ttf", renamed: "Qwerty Sans").write(to: URL(fileURLWithPath: file))
    let again = try FrameRenderer().render(Self.tree(family: "Qwerty Sans", fontFiles: [file]))
    let againIsRegular = again.pixels == regular.pixels
    #expect(againIsRegular, "the file edited in place was drawn as it was before")
  }

  /// A registered file that was deleted (a font removed from the studio's folder, or another
  /// template's folder gone) does not stop a changed file from being registered again.
  @Test func aDeletedFileDoesNotBlockTheNextRegistration() throws {
    // A changed file is registered as a private copy, kept until the process ends.
    ProcessRunner.removeAtExit(FontRegistry.copiesFolder)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flick-font-gone-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let gone = folder.appendingPathComponent("Gone.ttf").path
    let kept = folder.appendingPathComponent("Kept.ttf").path
    try RenamedFont.data("DejaVuSans.ttf", renamed: "Ghjklm Sans").write(to: URL(fileURLWithPath: gone))
    try RenamedFont.data("DejaVuSans.ttf", renamed: "Vbnmqw Sans").write(to: URL(fileURLWithPath: kept))
    try expectEqual(FontRegistry.register(gone), ["Ghjklm Sans"])
    try expectEqual(FontRegistry.register(kept), ["Vbnmqw Sans"])
    try FileManager.default.removeItem(atPath: gone)

    let temporary = folder.appendingPathComponent(".Kept.ttf.tmp").path
    try RenamedFont.data("DejaVuSans-Bold.ttf", renamed: "Vbnmqw Sans").write(to: URL(fileURLWithPath: temporary))
    expectEqual(rename(temporary, kept), 0)
    try expectEqual(FontRegistry.register(kept), ["Vbnmqw Sans"])
    let bold = try Renderer().render(Self.tree(family: "DejaVu Sans", weight: .bold))
    let edited = try FrameRenderer().render(Self.tree(family: "Vbnmqw Sans", fontFiles: [kept]))
    expectEqual(edited.pixels, bold.pixels, "the file saved again was not drawn as it is now")
  }
}

/// The two renderers, for drawing the same tree with each.
private protocol FrameRendering {
  func draw(_ tree: RenderTree) throws -> Frame
}

extension FrameRenderer: FrameRendering {
  func draw(_ tree: RenderTree) throws -> Frame { try render(tree) }
}

extension Renderer: FrameRendering {
  func draw(_ tree: RenderTree) throws -> Frame { try render(tree) }
}
