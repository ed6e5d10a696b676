import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// The commands that draw the frames a list names (`verify` from a goldens manifest or `--at`,
/// `snapshot` from `--at`, `accept --renderer` from the manifest) check the list against the frame
/// and work caps `render` uses before the first frame is drawn: a manifest from a pull request
/// cannot start a run of days.
@Suite struct FrameListCapTests {
  typealias V = VerifyCommandTests

  /// An 8192 × 8192 canvas an hour long at 60 fps: one frame is within every cap, 15,000 of them
  /// (1.0 × 10¹² pixels) are not.
  static let huge =
    "{ flick: 1, canvas: { width: 8192, height: 8192, fps: 60, duration: 3600 }, layers: [ { id: 'a', "
    + "size: [500, 500], position: [512, 512], backgroundColor: '#F97316' } ], timeline: [ { target: 'a', "
    + "property: 'position', to: [7000, 7000], at: 0, duration: 3600 } ] }"

  /// Rewrites the goldens' manifest.json through `edit` (as JSON).
  static func editManifest(_ golden: String, _ edit: (inout [String: Any]) -> Void) throws {
    let path = golden + "/manifest.json"
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    edit(&json)
    try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
  }

  @Test func aManifestListingTooManyFramesIsRefusedBeforeAnyIsDrawn() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = dir + "/huge.json5"
    try Self.huge.write(toFile: template, atomically: true, encoding: .utf8)
    let golden = dir + "/golden"
    let s = try V.run(["snapshot", template, "--at", "0", "--scale", "0.01", "--out", golden], in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    // What a pull request can send: the manifest lists 15,000 frames at scale 1.
    try Self.editManifest(golden) { json in
      json["scale"] = 1
      json["frames"] = (0..<15000).map {
        ["time": "frame:\($0)", "seconds": Double($0) / 60, "file": "frame\($0).png"]
      }
    }
    // --timeout: without the check, the run would draw for days; it is stopped (exit 3) instead.
    let started = Date()
    let v = try V.run(
      ["verify", template, "--against", golden, "--report", dir + "/report", "--timeout", "30"], in: dir)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(v.stderr.contains("golden/manifest.json' lists 15000 frames to draw"), "\(v.stderr)")
    #expect(v.stderr.contains("more than the work cap of 1000000000000"), "\(v.stderr)")
    #expect(v.stderr.contains("--max-work or FLICK_MAX_WORK raises it"), "\(v.stderr)")
    #expect(Date().timeIntervalSince(started) < 60, "refused up front, not after drawing")
    #expect(!FileManager.default.fileExists(atPath: dir + "/report"), "no report")
    #expect(!FileManager.default.fileExists(atPath: dir + "/flick-report"), "no report")
    // The frame cap holds the same way.
    let frames = try V.run(
      ["verify", template, "--against", golden, "--max-frames", "100", "--timeout", "30"], in: dir)
    expectEqual(frames.status, 2, "\(frames.stderr)")
    #expect(frames.stderr.contains("has 15000 frames, more than the cap of 100"), "\(frames.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/flick-report"), "no report")
    // snapshot of every frame of the same canvas: 216,000 × 8192² pixels.
    let all = try V.run(["snapshot", template, "--at", "all", "--out", dir + "/all", "--timeout", "30"], in: dir)
    expectEqual(all.status, 2, "\(all.stderr)")
    #expect(all.stderr.contains("--at lists 216000 frames to draw"), "\(all.stderr)")
    #expect(all.stderr.contains("more than the work cap"), "\(all.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/all"), "nothing written")
  }

  @Test func theFrameAndWorkOptionsRaiseTheCapsOfVerifyAndSnapshot() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    // Two frames of 320 × 180: 115,200 pixels.
    let refused = try V.run(
      ["snapshot", V.twoCards, "--at", "0,end", "--out", golden], environment: ["FLICK_MAX_FRAMES": "1"], in: dir)
    expectEqual(refused.status, 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("--at lists 2 frames to draw"), "\(refused.stderr)")
    #expect(refused.stderr.contains("FLICK_MAX_FRAMES"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: golden), "nothing written")
    let s = try V.run(
      ["snapshot", V.twoCards, "--at", "0,end", "--out", golden, "--max-frames", "2"],
      environment: ["FLICK_MAX_FRAMES": "1"], in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    // Within the default caps, verify verifies.
    let plain = try V.run(["verify", V.twoCards, "--against", golden], in: dir)
    expectEqual(plain.status, 0, "\(plain.stderr)")
    let overFrames = try V.run(
      ["verify", V.twoCards, "--against", golden, "--report", dir + "/r"], environment: ["FLICK_MAX_FRAMES": "1"],
      in: dir)
    expectEqual(overFrames.status, 2, "\(overFrames.stderr)")
    #expect(overFrames.stderr.contains("golden/manifest.json' lists 2 frames to draw"), "\(overFrames.stderr)")
    #expect(overFrames.stderr.contains("more than the cap of 1"), "\(overFrames.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/r"), "no report")
    let raised = try V.run(
      ["verify", V.twoCards, "--against", golden, "--max-frames", "2", "--report", dir + "/r"],
      environment: ["FLICK_MAX_FRAMES": "1"], in: dir)
    expectEqual(raised.status, 0, "\(raised.stderr)")
    let overWork = try V.run(["verify", V.twoCards, "--against", golden, "--max-work", "115199"], in: dir)
    expectEqual(overWork.status, 2, "\(overWork.stderr)")
    #expect(overWork.stderr.contains("= 115200 pixels, more than the work cap of 115199"), "\(overWork.stderr)")
    let atWork = try V.run(["verify", V.twoCards, "--against", golden, "--max-work", "115200"], in: dir)
    expectEqual(atWork.status, 0, "\(atWork.stderr)")
    // --at overrides the manifest's list, and is what the message names then.
    let at = try V.run(["verify", V.twoCards, "--against", golden, "--at", "0,end", "--max-frames", "1"], in: dir)
    expectEqual(at.status, 2, "\(at.stderr)")
    #expect(at.stderr.contains("--at lists 2 frames to draw"), "\(at.stderr)")
    for command in ["verify", "snapshot", "accept", "studio"] {
      let help = try V.run([command, "--help"])
      #expect(help.stdout.contains("--max-frames N"), "\(command)")
      #expect(help.stdout.contains("--max-work N"), "\(command)")
      #expect(help.stdout.contains("FLICK_MAX_WORK"), "\(command)")
    }
    let bad = try V.run(["verify", V.twoCards, "--against", golden, "--max-work", "lots"], in: dir)
    expectEqual(bad.status, 2, "\(bad.stderr)")
    #expect(bad.stderr.contains("--max-work expects a whole number"), "\(bad.stderr)")
  }

  /// Re-rendering stored inputs draws the goldens' template, which a pull request may have made
  /// larger than the one given: `verify` across a renderer change and `accept --renderer` check it.
  @Test func reRenderingStoredInputsIsCheckedAgainstTheCaps() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try RendererChangeTests.makeTemplate(in: dir)
    let golden = dir + "/golden"
    // Three frames of 160 × 90: 43,200 pixels.
    expectEqual(try V.run(["snapshot", template, "--at", "0,50%,end", "--out", golden], in: dir).status, 0)
    try RendererChangeTests.fakeRendererChange(golden)
    let before = try Data(contentsOf: URL(fileURLWithPath: golden + "/manifest.json"))
    let accept = try V.run(["accept", "--renderer", "--against", golden, "--max-work", "43199"], in: dir)
    expectEqual(accept.status, 2, "\(accept.stderr)")
    #expect(
      accept.stderr.contains("re-rendering its goldens from their stored inputs takes 3 frames to draw"),
      "\(accept.stderr)")
    #expect(accept.stderr.contains("more than the work cap of 43199"), "\(accept.stderr)")
    expectEqual(try Data(contentsOf: URL(fileURLWithPath: golden + "/manifest.json")), before)
    let frames = try V.run(
      ["accept", "--renderer", "--against", golden], environment: ["FLICK_MAX_FRAMES": "2"], in: dir)
    expectEqual(frames.status, 2, "\(frames.stderr)")
    #expect(frames.stderr.contains("more than the cap of 2"), "\(frames.stderr)")
    // The template given is now 16 × 9 (432 pixels for three frames); its stored inputs are not.
    let small = try String(contentsOfFile: template, encoding: .utf8)
      .replacingOccurrences(of: "width: 160, height: 90", with: "width: 16, height: 9")
    try small.write(toFile: template, atomically: true, encoding: .utf8)
    let v = try V.run(
      ["verify", template, "--against", golden, "--max-work", "1000", "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(v.stderr.contains("re-rendering its goldens from their stored inputs takes 3 frames"), "\(v.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/r"), "no report")
    expectEqual(try Data(contentsOf: URL(fileURLWithPath: golden + "/manifest.json")), before)
    let raised = try V.run(["accept", "--renderer", "--against", golden, "--max-work", "43200"], in: dir)
    expectEqual(raised.status, 0, "\(raised.stderr)")
  }
}
