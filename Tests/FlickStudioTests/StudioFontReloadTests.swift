import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// Font files a template reads, edited or added while the studio runs, are drawn as they are
/// now (without a restart), the frames being exactly what a new `flick still` process draws.
@Suite struct StudioFontReloadTests {
  /// A template whose text is set in `family`, from `font` (a file of the folder).
  ///
  /// Each test names its own family: tests run in parallel in one process, whose font
  /// registrations are shared.
  static func template(font: String, family: String) -> String {
    """
    { flick: 1, fonts: ["\(font)"], canvas: { width: 200, height: 60, fps: 10, duration: 1, background: "#FFFFFF" },
      layers: [{ id: "label", type: "text", size: [180, 40], position: [100, 30], string: "Quartz glyph",
                 fontFamily: "\(family)", fontSize: 24, textColor: "#000000" }] }
    """
  }

  /// The bytes `flick still NAME --time 0` writes in `folder` (a new process: nothing cached).
  static func still(_ folder: URL, _ name: String) throws -> Data {
    let output = folder.appendingPathComponent(".still-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: output) }
    let run = try ProcessRunner.run(
      ProcessRunner.flick(root: StudioFrameTests.root), ["still", name, "--time", "0", "-q", "-o", output.path],
      directory: folder.path)
    expectEqual(run.status, 0, "\(run.stderr)")
    return try Data(contentsOf: output)
  }

  /// The frame at time 0 once it is `expected`, or the last one served within `bound` seconds.
  /// Once, in a loaded `make test` (other suites registering fonts in the same process), the
  /// frame served just after the second reload event still differed from the first version; 18
  /// runs under load did not show it again and the cause is not known. Each check waits for the
  /// frame itself, so a studio that never draws the change still fails, after the bound.
  static func frame(_ h: StudioHarness, becoming expected: Data, within bound: Double = 20) throws -> Data {
    let start = Date()
    while true {
      let frame = try h.get("/api/frame.png?template=text.json5&t=0")
      if frame.body == expected || Date().timeIntervalSince(start) > bound { return frame.body }
      usleep(50_000)
    }
  }

  @Test func anEditedFontFileIsDrawnAnew() throws {
    let regular = try RenamedFont.data("DejaVuSans.ttf", renamed: "Asdfgh Sans")
    let h = try StudioHarness(
      workers: 1, files: ["text.json5": Self.template(font: "Brand.ttf", family: "Asdfgh Sans")])
    try regular.write(to: h.folder.appendingPathComponent("Brand.ttf"))
    let events = try EventReader(port: h.port, token: h.token)
    let drawn = try Self.still(h.folder, "text.json5")
    let before = try Self.frame(h, becoming: drawn)
    expectEqual(before, drawn, "the frame differs from a new flick still")

    // The bold cut saved over the file, as an editor saves (a new file renamed over the old).
    try h.save("Brand.ttf", try RenamedFont.data("DejaVuSans-Bold.ttf", renamed: "Asdfgh Sans"))
    let bold = try Self.still(h.folder, "text.json5")
    expectNotEqual(bold, before, "a new flick still draws the bold cut")
    try expectEqual(Self.frame(h, becoming: bold), bold, "the edited font was not drawn")

    // And back: the first version again.
    try h.save("Brand.ttf", regular)
    try expectEqual(Self.frame(h, becoming: before), before, "the first version was not drawn again")
    // Both saves were announced.
    expectGreaterOrEqual(events.wait(for: "reload", count: 2).count, 2, "events: \(events.events.map(\.name))")
  }

  @Test func aFontFileAddedAfterTheErrorIsPickedUp() throws {
    let h = try StudioHarness(
      workers: 1, files: ["added.json5": Self.template(font: "fonts/Added.ttf", family: "Zxcvbn Sans")])
    let events = try EventReader(port: h.port, token: h.token)
    let missing = try h.get("/api/template?template=added.json5")
    #expect(missing.text.contains(#""ok":false"#), "\(missing.text)")
    #expect(missing.text.contains("Added.ttf"), "\(missing.text)")
    // A new folder, then the font in it: both are seen.
    let fonts = h.folder.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    let bold = try RenamedFont.data("DejaVuSans-Bold.ttf", renamed: "Zxcvbn Sans")
    try bold.write(to: fonts.appendingPathComponent("Added.ttf"))
    let reloads = events.wait(for: "reload")
    #expect(reloads.contains { $0.data.contains(#""template":"added.json5""#) })
    let frame = try h.get("/api/frame.png?template=added.json5&t=0")
    expectEqual(frame.status, 200, "\(frame.text)")
    expectEqual(frame.body, (try Self.still(h.folder, "added.json5")))
  }
}
