import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// What a template reads is what the studio watches, under every name the page knows it by, and
/// the template list follows the folder.
@Suite struct StudioWatchedFilesTests {
  /// A template whose outlines come from SVG files, each alone in its folder (no other file the
  /// template reads is there).
  static let outlines = """
    { flick: 1, canvas: { width: 100, height: 100, fps: 10, duration: 1, background: "#000000" },
      layers: [
        { id: "shape", size: [40, 40], position: [30, 30], path: { svg: "icons/shape.svg" }, fillColor: "#FF0000" },
        { id: "shadow", size: [40, 40], position: [70, 30], backgroundColor: "#00FF00", shadowOpacity: 1,
          shadowPath: { svg: "shadows/shadow.svg" } },
        { id: "masked", size: [40, 40], position: [50, 70], backgroundColor: "#0000FF",
          mask: { id: "m", size: [40, 40], position: [20, 20], path: { svg: "masks/mask.svg" }, fillColor: "#FFFFFF" } },
        { id: "picture", size: [10, 10], position: [90, 90], contents: "pictures/pic.svg" },
      ] }
    """

  static func circle(_ r: Int) -> Data {
    Data(
      #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><circle cx="50" cy="50" r="\#(r)"/></svg>"#
        .utf8)
  }

  static let svgFiles = ["icons/shape.svg", "shadows/shadow.svg", "masks/mask.svg", "pictures/pic.svg"]

  static func outlineHarness() throws -> StudioHarness {
    var data: [String: Data] = [:]
    for name in svgFiles { data[name] = circle(50) }
    data["icons/unused.svg"] = circle(10)
    return try StudioHarness(files: ["outlines.json5": outlines], data: data)
  }

  @Test func theWatchedFilesAreExactlyTheFilesTheLoadRead() throws {
    let h = try Self.outlineHarness()
    let session = try h.studio.session("outlines.json5").get()
    let folder = h.studio.workspace.folder
    expectEqual(Set(session.files), Set((["outlines.json5"] + Self.svgFiles).map { folder + "/" + $0 }))
  }

  @Test(arguments: svgFiles)
  func anEditedSVGOutlineOrPictureReloads(_ file: String) throws {
    let h = try Self.outlineHarness()
    try expectEqual(h.get("/api/template?template=outlines.json5").status, 200)
    let events = try EventReader(port: h.port, token: h.token)
    // Saved as editors save: a temporary file in its folder renamed over it.
    let target = h.folder.appendingPathComponent(file)
    let temporary = target.deletingLastPathComponent().appendingPathComponent(".edit.swp")
    try Self.circle(20).write(to: temporary)
    guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    let reloads = events.wait(for: "reload", timeout: 10)
    expectEqual(reloads.first?.data.contains(#""template":"outlines.json5""#), true, "no reload after \(file)")
  }

  @Test func aTemplateOpenedByALinkNameGetsItsEvents() throws {
    let h = try StudioHarness()
    try FileManager.default.createSymbolicLink(
      atPath: h.folder.appendingPathComponent("link.json5").path, withDestinationPath: "pulse.json5")
    let listed = try h.get("/api/templates").text
    #expect(listed.contains(#""name":"link.json5""#))
    try expectEqual(h.get("/api/template?template=link.json5").status, 200)
    let events = try EventReader(port: h.port, token: h.token)
    let source = try h.text("pulse.json5")
    try h.save("pulse.json5", Data(source.replacingOccurrences(of: "duration: 2", with: "duration: 3").utf8))
    let reloads = events.wait(for: "reload", count: 2, timeout: 10)
    #expect(reloads.contains { $0.data.contains(#""template":"link.json5""#) })
    #expect(reloads.contains { $0.data.contains(#""template":"pulse.json5""#) })
    try h.save("pulse.json5", Data(source.replacingOccurrences(of: "flick: 1,", with: "flick: 1,,").utf8))
    let errors = events.wait(for: "error", count: 2, timeout: 10)
    #expect(errors.contains { $0.data.contains(#""template":"link.json5""#) })
  }

  @Test func addingAndRemovingATemplatePushesTheList() throws {
    let h = try StudioHarness()
    let events = try EventReader(port: h.port, token: h.token)
    let source = try h.text("pulse.json5")
    try Data(source.utf8).write(to: h.folder.appendingPathComponent("first.json5"))
    let added = events.wait(for: "templates", timeout: 10)
    let text = try #require(added.first?.data)
    #expect(text.contains(#""name":"first.json5""#))
    #expect(text.contains(#""name":"pulse.json5""#))
    try FileManager.default.removeItem(at: h.folder.appendingPathComponent("first.json5"))
    let removed = events.wait(for: "templates", count: 2, timeout: 10)
    expectEqual(removed.count, 2)
    #expect(removed.last.map { !$0.data.contains("first.json5") } == true)
  }
}
