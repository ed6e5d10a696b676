import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// A manifest names what all its goldens were drawn from (template, parameters, stored inputs,
/// scale, renderer). Recording or accepting some frames of a changed design must not give the
/// goldens left as they were a manifest naming the new one: after a renderer change verify
/// re-renders the manifest's stored inputs, and those old-design goldens would pass unseen.
@Suite struct PartialRecordTests {
  typealias V = VerifyCommandTests
  typealias R = RendererChangeTests

  /// Every file of `folder` (recursively) with its bytes.
  static func contents(_ folder: String) throws -> [String: Data] { try CommitRollbackTests.contents(folder) }

  /// The button template's goldens at 0, 50% and end in `DIR/golden`, then the template recoloured
  /// (the design change); returns the template's path.
  static func goldensThenRecolour(in dir: String) throws -> String {
    let template = try R.makeTemplate(in: dir)
    try expectEqual(V.run(["snapshot", template, "--at", "0,50%,end", "--out", dir + "/golden"], in: dir).status, 0)
    _ = try R.makeTemplate(in: dir, colour: "#2563EB")
    return template
  }

  /// After a (faked) renderer change, a copy of the goldens still fails with the recoloured
  /// template: its manifest's stored inputs are the design its goldens show.
  static func expectOldDesignStillFails(_ template: String, _ golden: String, in dir: String) throws {
    let copy = dir + "/after-renderer-change"
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: golden, toPath: copy)
    try R.fakeRendererChange(copy)
    let v = try V.run(["verify", template, "--against", copy], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
  }

  @Test func recordingSomeFramesOfAChangedTemplateIsRefusedAndChangesNothing() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.goldensThenRecolour(in: dir)
    let golden = dir + "/golden"
    let before = try Self.contents(golden)
    for args in [
      ["--at", "0,10%", "--record", "missing"],  // a new time: the others keep the old design
      ["--at", "0", "--record", "failed"],  // a subset of the times
      ["--at", "0,50%,end,10%", "--record", "missing"],  // every time and one more: the changed ones stay
    ] {
      let r = try V.run(["verify", template, "--against", golden] + args, in: dir)
      expectEqual(r.status, 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("changed since the goldens were recorded"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("record every frame"), "\(args): \(r.stderr)")
      #expect(!r.stderr.contains("recorded 1 golden"), "\(args): \(r.stderr)")
      try expectEqual(Self.contents(golden), before, "\(args)")
    }
    try Self.expectOldDesignStillFails(template, golden, in: dir)
    // Recording every frame is the design change taken whole: it passes after a renderer change.
    let all = try V.run(["verify", template, "--against", golden, "--record", "failed"], in: dir)
    expectEqual(all.status, 1, "\(all.stderr)")
    #expect(all.stderr.contains("recorded 3 goldens"), "\(all.stderr)")
    try R.fakeRendererChange(golden)
    let after = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(after.status, 0, "\(after.stderr)")
  }

  @Test func acceptingSomeFramesOfAChangedTemplateIsRefusedAndChangesNothing() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.goldensThenRecolour(in: dir)
    let golden = dir + "/golden"
    let full = try V.run(["verify", template, "--against", golden, "--report", dir + "/full"], in: dir)
    expectEqual(full.status, 1, "\(full.stderr)")
    let subset = try V.run(
      ["verify", template, "--against", golden, "--at", "0", "--report", dir + "/subset"], in: dir)
    expectEqual(subset.status, 1, "\(subset.stderr)")
    let before = try Self.contents(golden)
    for args in [[dir + "/full", "--frame", "0s"], [dir + "/subset"], [dir + "/subset", "--dry-run"]] {
      let r = try V.run(["accept"] + args + ["--against", golden], in: dir)
      expectEqual(r.status, 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("changed since the goldens were recorded"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("accept the whole report"), "\(args): \(r.stderr)")
      try expectEqual(Self.contents(golden), before, "\(args)")
    }
    try Self.expectOldDesignStillFails(template, golden, in: dir)
    // The whole report is accepted, and verify passes after a renderer change.
    let a = try V.run(["accept", dir + "/full", "--against", golden], in: dir)
    expectEqual(a.status, 0, "\(a.stderr)")
    try R.fakeRendererChange(golden)
    let after = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(after.status, 0, "\(after.stderr)")
  }

  /// Frames that matched the changed template need no new golden: they are of the new design too.
  @Test func framesThatMatchTheChangedTemplateCountAsItsGoldens() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try R.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden], in: dir).status, 0)
    // The same drawing from other bytes: a comment changes the template's hash, not its frames.
    let text = try String(contentsOfFile: template, encoding: .utf8)
    try ("// edited\n" + text).write(toFile: template, atomically: true, encoding: .utf8)
    let r = try V.run(["verify", template, "--against", golden, "--at", "0,end,50%", "--record", "missing"], in: dir)
    expectEqual(r.status, 1, "\(r.stderr)")
    #expect(r.stderr.contains("recorded 1 golden"), "\(r.stderr)")
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.frames.map(\.file), ["0s.png", "end.png", "50pct.png"])
    expectEqual(manifest.inputs?.template.sha256, SnapshotManifest.hash(Array(("// edited\n" + text).utf8)))
  }

  @Test func aSubsetAtAnotherScaleIsRefused() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try R.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden], in: dir).status, 0)
    let before = try Self.contents(golden)
    let record = try V.run(
      ["verify", template, "--against", golden, "--scale", "0.5", "--at", "0", "--record", "failed"], in: dir)
    expectEqual(record.status, 2, "\(record.stderr)")
    #expect(record.stderr.contains("scale or size"), "\(record.stderr)")
    try expectEqual(Self.contents(golden), before)
    let v = try V.run(
      ["verify", template, "--against", golden, "--scale", "0.5", "--at", "0", "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    let accept = try V.run(["accept", dir + "/r", "--against", golden], in: dir)
    expectEqual(accept.status, 2, "\(accept.stderr)")
    #expect(accept.stderr.contains("scale or size"), "\(accept.stderr)")
    try expectEqual(Self.contents(golden), before)
    // Every frame at the new scale is a new set of goldens.
    let all = try V.run(["verify", template, "--against", golden, "--scale", "0.5", "--record", "failed"], in: dir)
    expectEqual(all.status, 1, "\(all.stderr)")
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.scale, 0.5)
    expectEqual(manifest.width, 80)
    try expectEqual(V.run(["verify", template, "--against", golden], in: dir).status, 0)
  }

  /// A golden recorded in the run is listed by the manifest written with it, not `unlisted`.
  @Test func aGoldenRecordedInTheRunIsNotUnlisted() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try R.makeTemplate(in: dir)
    let golden = dir + "/golden", report = dir + "/r"
    try expectEqual(V.run(["snapshot", template, "--at", "0", "--out", golden], in: dir).status, 0)
    let r = try V.run(
      ["verify", template, "--against", golden, "--at", "0,10%", "--record", "missing", "--report", report], in: dir)
    expectEqual(r.status, 1, "\(r.stderr)")
    #expect(r.stderr.contains("recorded 1 golden"), "\(r.stderr)")
    #expect(!r.stderr.contains("unlisted"), "\(r.stderr)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json")))
        as? [String: Any])
    let counts = try #require(summary["counts"] as? [String: Int])
    expectEqual(counts["unlisted"], 0)
    expectEqual(counts["recorded"], 1)
    expectEqual(summary["total"] as? Int, 2)
    #expect(!(try String(contentsOfFile: report + "/junit.xml", encoding: .utf8)).contains("unlisted"))
    try expectEqual(V.run(["verify", template, "--against", golden], in: dir).status, 0)
  }
}
