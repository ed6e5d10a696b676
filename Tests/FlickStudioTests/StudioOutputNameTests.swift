import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// An export's file carries its format's extension, never one Flick reads (a GIF named
/// `inputs.json5` was listed as a template); a refusal says why.
@Suite struct StudioOutputNameTests {
  static let other = #"{ flick: 1, canvas: { width: 20, height: 20, fps: 10, duration: 1 }, layers: [] }"#

  @Test func anExportIsNamedForItsFormat() throws {
    let h = try StudioHarness(files: ["other.json5": Self.other])
    let events = try EventReader(port: h.port, token: h.token)
    for (output, format, status, words) in [
      (
        "inputs.json5", "gif", 400, "inputs.json5 does not end in .gif: an export's file carries its format's extension"
      ),
      ("other.json5", "gif", 400, "other.json5 does not end in .gif"),
      ("clip.mp4", "gif", 400, "clip.mp4 does not end in .gif"),
      ("shapes.svg", "webp", 400, "does not end in .webp"),
      ("seq.json5/", "png", 400, "is named like a template"),
      ("other.json5", "png", 409, "other.json5 is a template of this folder"),
    ] {
      let response = try h.post(
        "/api/export?template=pulse.json5", json: #"{"format": "\#(format)", "output": "\#(output)"}"#)
      expectEqual(response.status, status, "\(output): \(response.text)")
      #expect(response.text.contains(words), "\(output): \(response.text)")
      #expect(!response.text.contains("a file the template reads"), "\(output): \(response.text)")
    }
    #expect(!FileManager.default.fileExists(atPath: h.folder.appendingPathComponent("inputs.json5").path))
    try expectEqual(h.text("other.json5"), Self.other)
    // No extension: the format's is added.
    let started = try h.post("/api/export?template=pulse.json5", json: #"{"format": "gif", "output": "clip"}"#)
    expectEqual(started.status, 200, "\(started.text)")
    #expect(started.text.contains(#""output":"clip.gif""#), "\(started.text)")
    expectEqual(events.wait(for: "done").count, 1)
    #expect(FileManager.default.fileExists(atPath: h.folder.appendingPathComponent("clip.gif").path))
    let listed = try h.get("/api/templates").text
    #expect(!listed.contains("inputs") && !listed.contains("clip"), "\(listed)")
  }
}
