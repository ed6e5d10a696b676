import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// Frames and traces are exactly what the command prints.
@Suite struct StudioFrameTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The bytes `flick still` writes for the template in `folder` with `arguments`.
  static func still(_ folder: URL, _ arguments: [String]) throws -> Data {
    let output = folder.appendingPathComponent("still-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: output) }
    let run = try ProcessRunner.run(
      ProcessRunner.flick(root: root), ["still", "pulse.json5", "-q", "-o", output.path] + arguments,
      directory: folder.path)
    expectEqual(run.status, 0, "\(run.stderr)")
    return try Data(contentsOf: output)
  }

  @Test func framesAreTheBytesOfFlickStill() throws {
    let h = try StudioHarness()
    for (query, arguments) in [
      ("t=0", ["--time", "0"]), ("t=0.55", ["--time", "0.55"]), ("t=1.9", ["--time", "1.9"]),
      ("frame=7", ["--frame", "7"]), ("at=50%25", ["--at", "50%"]), ("t=1&scale=2", ["--time", "1", "--scale", "2"]),
      ("t=0.8&set=accent%3D%2322C55E", ["--time", "0.8", "--set", "accent=#22C55E"]),
    ] {
      let response = try h.get("/api/frame.png?template=pulse.json5&" + query)
      expectEqual(response.status, 200, "\(query): \(response.text)")
      expectEqual(response.headers["content-type"], "image/png")
      expectEqual(response.body, (try Self.still(h.folder, arguments)), "\(query)")
    }
    // Past the end: refused like the command.
    try expectEqual(h.get("/api/frame.png?template=pulse.json5&t=9").status, 400)
  }

  @Test func currentParametersApplyToFrames() throws {
    let h = try StudioHarness()
    try expectEqual(
      h.post("/api/params?template=pulse.json5", json: ##"{"values": {"accent": "#22C55E"}}"##).status, 200)
    let frame = try h.get("/api/frame.png?template=pulse.json5&t=0.8")
    expectEqual(frame.body, (try Self.still(h.folder, ["--time", "0.8", "--set", "accent=#22C55E"])))
    // A value --set refuses is refused with the same message.
    let bad = try h.post("/api/params?template=pulse.json5", json: ##"{"values": {"accent": "blue-ish"}}"##)
    expectEqual(bad.status, 400)
    let run = try ProcessRunner.run(
      ProcessRunner.flick(root: Self.root), ["still", "pulse.json5", "--set", "accent=blue-ish", "-o", "x.png"],
      directory: h.folder.path)
    let message = run.stderr.split(separator: "\n").first.map(String.init) ?? "?"
    #expect(bad.text.contains(message.replacingOccurrences(of: "\"", with: "\\\"")), "\(bad.text) vs \(message)")
  }

  @Test func traceIsWhatFlickTracePrints() throws {
    let h = try StudioHarness()
    for (layer, property, fps) in [("card", "position", ""), ("card", "rotation", "&fps=48"), ("dot", "opacity", "")] {
      let response = try h.get("/api/trace?template=pulse.json5&layer=\(layer)&property=\(property)\(fps)")
      expectEqual(response.status, 200, "\(response.text)")
      var arguments = ["trace", "pulse.json5", "--layer", layer, "--property", property, "--format", "json"]
      if !fps.isEmpty { arguments += ["--fps", "48"] }
      let run = try ProcessRunner.run(ProcessRunner.flick(root: Self.root), arguments, directory: h.folder.path)
      expectEqual(run.status, 0)
      expectEqual(response.body, run.stdout)
    }
  }

  @Test func hitFindsTheTopmostLayerThroughTransforms() throws {
    let h = try StudioHarness()
    // At t = 0 the card is at (50, 45), 60×40; its dot at its centre; the picture at (130, 45).
    func hit(_ t: String, _ x: Double, _ y: Double) throws -> String {
      try h.get("/api/hit?template=pulse.json5&t=\(t)&x=\(x)&y=\(y)").text
    }
    #expect(try hit("0", 50, 45).contains(#""layer":"dot""#))
    #expect(try hit("0", 30, 35).contains(#""layer":"card""#))
    #expect(try hit("0", 130, 45).contains(#""layer":"picture""#))
    #expect(try hit("0", 5, 5).contains(#""layer":null"#))
    // At the end the card has moved to x = 110 (and rotated).
    #expect(try hit("1.9", 110, 45).contains(#""path":["card","dot"]"#))
    #expect(try hit("1.9", 30, 45).contains(#""layer":null"#))
  }
}
