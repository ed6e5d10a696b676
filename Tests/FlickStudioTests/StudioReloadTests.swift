import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// Edits of the template and of files it reads reach the page as events, and are drawn anew.
@Suite struct StudioReloadTests {
  @Test func editingTheTemplatePushesReloadAndErrorsPushError() throws {
    let h = try StudioHarness()
    let before = try h.get("/api/template?template=pulse.json5").text
    #expect(before.contains(#""revision":1"#))
    let events = try EventReader(port: h.port, token: h.token)
    let source = try h.text("pulse.json5")
    try h.save("pulse.json5", Data(source.replacingOccurrences(of: "duration: 2", with: "duration: 3").utf8))
    let reloads = events.wait(for: "reload")
    expectEqual(reloads.first?.data.contains(#""template":"pulse.json5""#), true)
    #expect(try h.get("/api/template?template=pulse.json5").text.contains(#""duration":3"#))

    // A syntax error: an error event located at FILE:LINE:COL, the last good compile kept.
    try h.save("pulse.json5", Data(source.replacingOccurrences(of: "flick: 1,", with: "flick: 1,,").utf8))
    let errors = events.wait(for: "error")
    let text = try #require(errors.first?.data)
    #expect(text.contains(#""file":"pulse.json5""#))
    #expect(text.contains(#""line":3"#))
    #expect(text.contains(#""text":"flick: pulse.json5:3:"#))
    let state = try h.get("/api/template?template=pulse.json5").text
    #expect(state.contains(#""ok":false"#))
    #expect(state.contains(#""duration":3"#))
    try expectEqual(h.get("/api/frame.png?template=pulse.json5&t=0").status, 200)

    // Fixed: reload again.
    try h.save("pulse.json5", Data(source.utf8))
    expectGreaterOrEqual(events.wait(for: "reload", count: 2).count, 2)
    #expect(try h.get("/api/template?template=pulse.json5").text.contains(#""ok":true"#))
  }

  @Test func aChangedPictureIsDrawnAnew() throws {
    let h = try StudioHarness()
    let events = try EventReader(port: h.port, token: h.token)
    let red = try h.get("/api/frame.png?template=pulse.json5&t=0")
    expectEqual(red.status, 200)
    try h.save("pic.png", Data(TinyPNG.solid(width: 4, height: 4, rgb: (0, 0, 255))))
    events.wait(for: "reload")
    let blue = try h.get("/api/frame.png?template=pulse.json5&t=0")
    expectEqual(blue.status, 200)
    expectNotEqual(blue.body, red.body)
    expectEqual(blue.body, (try StudioFrameTests.still(h.folder, ["--time", "0"])))
  }

  @Test func warmWorkersDrawAnEditedPictureAnew() throws {
    // The picture is the first layer and never moves: a warm worker keeps the pixels after it.
    let source = """
      { flick: 1, canvas: { width: 320, height: 180, fps: 10, duration: 2, background: "#000000" },
        layers: [
          { id: "picture", size: [320, 180], position: [160, 90], contents: "pic.png", shadowOpacity: 0.5,
            shadowRadius: 12, cornerRadius: 20 },
          { id: "dot", size: [10, 10], position: [20, 20], backgroundColor: "#FFFFFF" },
        ],
        timeline: [{ target: "dot", property: "position", to: [300, 160], at: 0, duration: 2 }] }
      """
    let h = try StudioHarness(workers: 1, files: ["still.json5": source])
    let events = try EventReader(port: h.port, token: h.token)
    for t in ["0", "0.1", "0.2", "0.3", "0.4"] {
      try expectEqual(h.get("/api/frame.png?template=still.json5&t=\(t)").status, 200)
    }
    try h.save("pic.png", Data(TinyPNG.solid(width: 4, height: 4, rgb: (0, 0, 255))))
    events.wait(for: "reload")
    let frame = try h.get("/api/frame.png?template=still.json5&t=0.5")
    let output = h.folder.appendingPathComponent("reference.png")
    let run = try ProcessRunner.run(
      ProcessRunner.flick(root: StudioFrameTests.root),
      ["still", "still.json5", "--time", "0.5", "-q", "-o", output.path],
      directory: h.folder.path)
    expectEqual(run.status, 0)
    expectEqual(frame.body, (try Data(contentsOf: output)))
  }
}
