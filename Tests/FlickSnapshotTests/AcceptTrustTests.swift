import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// What `flick accept` takes from a report: only a verify report's frames that its own manifest
/// lists, the goldens' own stored inputs, and the renderer the accepted PNGs themselves carry.
@Suite struct AcceptTrustTests {
  typealias V = VerifyCommandTests
  typealias R = RendererChangeTests

  static func contents(_ folder: String) throws -> [String: Data] { try CommitRollbackTests.contents(folder) }

  /// Rewrites `report`'s summary.json through `edit` (as JSON).
  static func editSummary(_ report: String, _ edit: (inout [String: Any]) throws -> Void) throws {
    let path = report + "/summary.json"
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    try edit(&json)
    try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
  }

  /// `fingerprint` (a summary's renderer object) with another Cairo version.
  static func forged(_ fingerprint: Any?) throws -> [String: Any] {
    var renderer = try #require(fingerprint as? [String: Any])
    renderer["cairo"] = "9.9.9"
    return renderer
  }

  @Test func onlyAVerifyReportIsAcceptedAndOnlyTheFramesItsManifestLists() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden]).status, 0)
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", dir + "/other"] + V.recolour).status, 0)
    let before = try Self.contents(golden)
    // A 'flick diff' report: no manifest, frames named by file.
    try expectEqual(V.run(["diff", golden, dir + "/other", "--report", dir + "/diff"]).status, 1)
    let diff = try V.run(["accept", dir + "/diff", "--against", golden])
    expectEqual(diff.status, 2, "\(diff.stderr)")
    #expect(diff.stderr.contains("not a 'flick verify' report"), "\(diff.stderr)")
    try expectEqual(Self.contents(golden), before)
    // A verify report listing a frame its own manifest does not.
    let report = dir + "/report"
    try expectEqual(V.run(["verify", V.twoCards, "--against", golden, "--report", report] + V.recolour).status, 1)
    try Self.editSummary(report) { json in
      var frames = try #require(json["frames"] as? [[String: Any]])
      var extra = try #require(frames.first)
      extra["name"] = "extra"
      frames.append(extra)
      json["frames"] = frames
    }
    let hostile = try V.run(["accept", report, "--against", golden])
    expectEqual(hostile.status, 2, "\(hostile.stderr)")
    #expect(hostile.stderr.contains("extra is not one of the frames its manifest lists"), "\(hostile.stderr)")
    try expectEqual(Self.contents(golden), before)
  }

  /// Accepting a report of the goldens' own design keeps their stored inputs, read from the
  /// goldens folder when the report does not carry them.
  @Test func theGoldensOwnInputsAreKept() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden]).status, 0)
    let inputs = try #require(try SnapshotManifest.read(from: golden)?.inputs)
    try R.drift(golden + "/0s.png")
    try expectEqual(V.run(["verify", V.twoCards, "--against", golden, "--report", report]).status, 1)
    try FileManager.default.removeItem(atPath: report + "/inputs")
    let a = try V.run(["accept", report, "--against", golden])
    expectEqual(a.status, 0, "\(a.stderr)")
    #expect(!a.stderr.contains("will store none"), "\(a.stderr)")
    try expectEqual(SnapshotManifest.read(from: golden)?.inputs, inputs)
    for file in inputs.files {
      #expect(FileManager.default.fileExists(atPath: "\(golden)/inputs/\(file.sha256)"), "\(file.path)")
    }
  }

  /// The accepted goldens' renderer is what their PNGs carry, not what the report says.
  @Test func theRendererComesFromTheAcceptedImages() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden]).status, 0)
    try expectEqual(V.run(["verify", V.twoCards, "--against", golden, "--report", report] + V.recolour).status, 1)
    let pristine = try Self.contents(report)
    let before = try Self.contents(golden)
    // Every fingerprint of the report forged: it was not made against these goldens.
    try Self.editSummary(report) { json in
      json["renderer"] = try Self.forged(json["renderer"])
      json["goldenRenderer"] = try Self.forged(json["goldenRenderer"])
      var manifest = try #require(json["manifest"] as? [String: Any])
      manifest["renderer"] = try Self.forged(manifest["renderer"])
      json["manifest"] = manifest
    }
    let forged = try V.run(["accept", report, "--against", golden])
    expectEqual(forged.status, 2, "\(forged.stderr)")
    #expect(forged.stderr.contains("not made against these goldens"), "\(forged.stderr)")
    try expectEqual(Self.contents(golden), before)
    // An actual.png drawn by another renderer than the goldens'.
    try Data(try #require(pristine["summary.json"])).write(to: URL(fileURLWithPath: report + "/summary.json"))
    var fake = RendererFingerprint.current
    fake.cairo = "0.0.1-fake"
    let actual = report + "/0s/actual.png"
    try PNGFile.write(try PNGImage(contentsOf: actual).frame, to: actual, renderer: fake)
    let other = try V.run(["accept", report, "--against", golden])
    expectEqual(other.status, 2, "\(other.stderr)")
    #expect(other.stderr.contains("its own renderer fingerprint is not the goldens'"), "\(other.stderr)")
    try expectEqual(Self.contents(golden), before)
    // Only the manifest's fingerprint forged: the goldens take their PNGs' own, and verify agrees.
    try Data(try #require(pristine["0s/actual.png"])).write(to: URL(fileURLWithPath: actual))
    try Self.editSummary(report) { json in
      var manifest = try #require(json["manifest"] as? [String: Any])
      manifest["renderer"] = try Self.forged(manifest["renderer"])
      json["manifest"] = manifest
    }
    let a = try V.run(["accept", report, "--against", golden])
    expectEqual(a.status, 0, "\(a.stderr)")
    try expectEqual(SnapshotManifest.read(from: golden)?.renderer, RendererFingerprint.current)
    let v = try V.run(["verify", V.twoCards, "--against", golden] + V.recolour, in: dir)
    expectEqual(v.status, 0, "\(v.stderr)")
  }
}
