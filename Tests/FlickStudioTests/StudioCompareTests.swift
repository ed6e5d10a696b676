import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// Comparing with goldens and accepting a failed verification, as `flick verify` and `flick accept`.
@Suite struct StudioCompareTests {
  static func flick(_ folder: URL, _ arguments: [String]) throws -> ProcessRunner.Output {
    try ProcessRunner.run(ProcessRunner.flick(root: StudioFrameTests.root), arguments, directory: folder.path)
  }

  @Test func aFailedVerificationIsShownAndAcceptedAsFlickAcceptDoes() throws {
    let h = try StudioHarness()
    try expectEqual(Self.flick(h.folder, ["snapshot", "pulse.json5", "--at", "0,50%", "--out", "goldens"]).status, 0)
    let goldens = try h.get("/api/compare?goldens=goldens")
    expectEqual(goldens.status, 200, "\(goldens.text)")
    #expect(goldens.text.contains(#""status":"golden""#))
    // Both goldens drift (a few pixels each, the design unchanged): verify fails and writes a
    // report. (A report of a changed design is accepted whole only: FlickSnapshotTests'
    // PartialRecordTests.)
    for name in ["0s", "50pct"] {
      let file = h.folder.appendingPathComponent("goldens/\(name).png").path
      var frame = try Frame(pngAt: file)
      for x in 10..<14 { frame.pixels[5 * frame.bytesPerRow + x * 4] &+= 40 }
      try frame.writePNG(to: file)
    }
    try expectEqual(
      Self.flick(h.folder, ["verify", "pulse.json5", "--against", "goldens", "--report", "report"]).status, 1)
    let report = try h.get("/api/compare?report=report")
    expectEqual(report.status, 200, "\(report.text)")
    #expect(report.text.contains(#""status":"changed""#), "\(report.text)")
    struct Body: Decodable {
      struct Frame: Decodable {
        var name: String
        var status: String
        var images: [String]
      }
      var frames: [Frame]
    }
    let frames = try JSONDecoder().decode(Body.self, from: report.body).frames.filter { $0.status == "changed" }
    let first = try #require(frames.first)
    #expect(first.images.contains("actual"))
    let actual = try h.get("/api/compare/image?report=report&frame=\(first.name)&kind=actual")
    #expect(actual.status == 200 && actual.headers["content-type"] == "image/png")
    // An image of the folder, drawn in the page's <img>: sandboxed if opened as a page.
    expectEqual(actual.headers["content-security-policy"], "sandbox; default-src 'none'")
    try expectEqual(h.get("/api/compare?report=..%2Freport").status, 403)

    // Accepting one frame rewrites its golden only: the other golden and its manifest entry
    // stay as they were; a name that is not a failed frame is refused.
    try #require(frames.count == 2, "\(report.text)")
    let second = frames[1]
    let folder = h.folder.appendingPathComponent("goldens")
    func golden(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent("\(name).png")) }
    struct Manifest: Decodable { var frames: [[String: ReceivedValue]] }
    func entry(_ name: String) throws -> [String: ReceivedValue]? {
      let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
      return try JSONDecoder().decode(Manifest.self, from: data).frames.first { $0["file"] == .string("\(name).png") }
    }
    let (firstBefore, secondBefore) = (try golden(first.name), try golden(second.name))
    let secondEntry = try #require(try entry(second.name))
    try expectEqual(
      h.post("/api/accept", json: #"{"report": "report", "goldens": "goldens", "frames": ["nope"]}"#).status, 409)
    let one = try h.post(
      "/api/accept", json: #"{"report": "report", "goldens": "goldens", "frames": ["\#(first.name)"]}"#)
    expectEqual(one.status, 200, "\(one.text)")
    #expect(one.text.contains(#""accepted":["\#(first.name)"]"#), "\(one.text)")
    try expectNotEqual(golden(first.name), firstBefore)
    let actualPNG = try Data(contentsOf: h.folder.appendingPathComponent("report/\(first.name)/actual.png"))
    try expectEqual(golden(first.name), actualPNG)
    try expectEqual(golden(second.name), secondBefore)
    try expectEqual(entry(second.name), secondEntry)
    let partly = try Self.flick(h.folder, ["verify", "pulse.json5", "--against", "goldens"])
    expectEqual(partly.status, 1)
    #expect(partly.stderr.contains(second.name), "\(partly.stderr)")

    // The rest: every failed frame (no "frames") is flick accept.
    let accepted = try h.post("/api/accept", json: #"{"report": "report", "goldens": "goldens"}"#)
    expectEqual(accepted.status, 200, "\(accepted.text)")
    try expectEqual(Self.flick(h.folder, ["verify", "pulse.json5", "--against", "goldens"]).status, 0)
  }

  @Test func parametersAreSavedAsAParamsFileTheCommandReads() throws {
    let h = try StudioHarness()
    try expectEqual(
      h.post("/api/params?template=pulse.json5", json: ##"{"values": {"accent": "#22C55E"}}"##).status, 200)
    let saved = try h.post("/api/params/save?template=pulse.json5", json: #"{"path": "green.json5"}"#)
    expectEqual(saved.status, 200, "\(saved.text)")
    try expectEqual(h.post("/api/params/save?template=pulse.json5", json: #"{"path": "green.json5"}"#).status, 409)
    try expectEqual(
      h.post("/api/params/save?template=pulse.json5", json: #"{"path": "pulse.json5", "overwrite": true}"#).status, 409)
    try expectEqual(h.post("/api/params/save?template=pulse.json5", json: #"{"path": "../x.json5"}"#).status, 403)
    let output = h.folder.appendingPathComponent("p.png")
    try expectEqual(
      Self.flick(h.folder, ["still", "pulse.json5", "--params", "green.json5", "-q", "-o", output.path]).status, 0)
    let frame = try h.get("/api/frame.png?template=pulse.json5&t=0")
    expectEqual(frame.body, (try Data(contentsOf: output)))
  }
}
