import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The opened folder is a checkout whose folders come and go: a subfolder deleted and made again
/// (a branch switch) is watched anew, and symbolic-link loops cost the template list nothing.
@Suite struct StudioFolderChangeTests {
  @Test func aFolderMadeAgainIsWatchedAnew() throws {
    let h = try StudioHarness(data: ["sub/keep.txt": Data("x".utf8)])
    let sub = h.folder.appendingPathComponent("sub")
    let source = """
      { flick: 1, canvas: { width: 32, height: 16, fps: 10, duration: 2, background: "#000000" },
        layers: [ { id: "a", size: [8, 8], position: [8, 8], backgroundColor: "#FFFFFF" } ] }
      """
    try source.write(to: sub.appendingPathComponent("t.json5"), atomically: true, encoding: .utf8)
    let events = try EventReader(port: h.port, token: h.token)
    // Opened, and so its folder is watched.
    #expect(try h.get("/api/template?template=sub/t.json5").text.contains(#""ok":true"#))
    try FileManager.default.removeItem(at: sub)
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
    try source.write(to: sub.appendingPathComponent("t.json5"), atomically: true, encoding: .utf8)
    events.wait(for: "reload")
    // An edit in the folder made again is seen.
    let edited = source.replacingOccurrences(of: "duration: 2", with: "duration: 3")
    #expect(edited != source)
    try edited.write(to: sub.appendingPathComponent("t.json5"), atomically: false, encoding: .utf8)
    let deadline = Date().addingTimeInterval(20)
    var state = ""
    while Date() < deadline {
      state = try h.get("/api/template?template=sub/t.json5").text
      if state.contains(#""duration":3"#) { break }
      usleep(100_000)
    }
    #expect(state.contains(#""duration":3"#), "\(state.prefix(300))")
  }

  /// The opened folder itself removed and made again: its watch went with it, and the folder it
  /// is made in is no folder of the studio's; it is watched anew all the same, listed again, and
  /// its templates reload.
  @Test func theOpenedFolderMadeAgainIsWatchedAnew() throws {
    let h = try StudioHarness()
    let source = try h.text("pulse.json5")
    let events = try EventReader(port: h.port, token: h.token)
    #expect(try h.get("/api/template?template=pulse.json5").text.contains(#""ok":true"#))
    try FileManager.default.removeItem(at: h.folder)
    // Gone: the page hears it (the template's error, the list emptied).
    events.wait(for: "templates")
    try FileManager.default.createDirectory(at: h.folder, withIntermediateDirectories: false)
    try Data(StudioHarness.red).write(to: h.folder.appendingPathComponent("pic.png"))
    try source.write(to: h.folder.appendingPathComponent("pulse.json5"), atomically: true, encoding: .utf8)
    let lists = events.wait(for: "templates", count: 2)
    expectEqual(lists.count, 2)
    #expect(lists.last?.data.contains("pulse.json5") == true, "\(lists.last?.data ?? "none")")
    events.wait(for: "reload")
    // An edit in the folder made again is seen.
    let edited = source.replacingOccurrences(of: "duration: 2", with: "duration: 3")
    #expect(edited != source)
    try edited.write(to: h.folder.appendingPathComponent("pulse.json5"), atomically: false, encoding: .utf8)
    let deadline = Date().addingTimeInterval(20)
    var state = ""
    while Date() < deadline {
      state = try h.get("/api/template?template=pulse.json5").text
      if state.contains(#""duration":3"#) { break }
      usleep(100_000)
    }
    #expect(state.contains(#""duration":3"#), "\(state.prefix(300))")
  }

  @Test func linkLoopsAreNotEntered() throws {
    let h = try StudioHarness()
    let loops = h.folder.appendingPathComponent("loops")
    try FileManager.default.createDirectory(at: loops, withIntermediateDirectories: false)
    for i in 1...12 {
      try FileManager.default.createSymbolicLink(
        atPath: loops.appendingPathComponent("l\(i)").path, withDestinationPath: ".")
    }
    // Twelve links to their own folder: 12⁸ listings to a walk that follows them.
    let listed = try h.get("/api/templates")
    expectEqual(listed.status, 200)
    #expect(listed.text.contains("pulse.json5"))
    #expect(!listed.text.contains("loops/"))
  }
}
