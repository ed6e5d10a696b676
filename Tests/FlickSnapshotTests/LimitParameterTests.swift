import FlickExpectations
import FlickSnapshot
import FlickTestSupport
import Foundation
import Testing

/// Limits (`--timeout`, `--max-pixels`, `--max-text`, `--max-template-bytes`, …) are not
/// parameters of the picture: `flick snapshot` recorded them among the goldens' parameters, and
/// `flick verify --timeout 30` said the goldens were made with other parameters.
@Suite struct LimitParameterTests {
  typealias V = VerifyCommandTests

  static let limits = [
    "--timeout", "30", "--max-pixels", "100000000", "--max-text", "5000", "--max-template-bytes", "1M",
  ]

  @Test func limitsAreNotRecordedAsParameters() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    let s = try V.run(["snapshot", V.twoCards, "--at", "0", "--out", golden] + Self.limits + V.recolour, in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.parameters, ["--set=rightColor=#3B82F6"])
    // Verified without the limits: the same parameters.
    let v = try V.run(["verify", V.twoCards, "--against", golden] + V.recolour, in: dir)
    expectEqual(v.status, 0, "\(v.stderr)")
    #expect(!v.stderr.contains("parameters"), "\(v.stderr)")
  }

  @Test func verifyWithLimitsAgainstGoldensMadeWithoutThem() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    expectEqual(try V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden], in: dir).status, 0)
    let v = try V.run(["verify", V.twoCards, "--against", golden] + Self.limits, in: dir)
    expectEqual(v.status, 0, "\(v.stderr)")
    #expect(!v.stderr.contains("parameters"), "\(v.stderr)")
    // Recording a new time keeps the goldens' design: no refusal, no parameter note.
    let r = try V.run(
      ["verify", V.twoCards, "--against", golden, "--at", "0,50%", "--record", "missing"] + Self.limits, in: dir)
    expectEqual(r.status, 1, "\(r.stderr)")
    #expect(!r.stderr.contains("parameters"), "\(r.stderr)")
    expectEqual(try #require(try SnapshotManifest.read(from: golden)).parameters, [])
  }

  /// Goldens an older Flick recorded with `--timeout 30` among their parameters (and in their
  /// parameter hash) still verify, with or without the option, and are the same design.
  @Test func anOldManifestThatRecordedATimeoutStillVerifies() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    expectEqual(try V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden], in: dir).status, 0)
    try Self.recordCaps(in: golden)
    for extra in [[], ["--timeout", "30"]] {
      let v = try V.run(["verify", V.twoCards, "--against", golden] + extra, in: dir)
      expectEqual(v.status, 0, "\(v.stderr)")
      #expect(!v.stderr.contains("parameters"), "\(v.stderr)")
    }
    // The same design: recording one more time beside them is not refused.
    let r = try V.run(["verify", V.twoCards, "--against", golden, "--at", "50%", "--record", "missing"], in: dir)
    expectEqual(r.status, 1, "\(r.stderr)")
    #expect(r.stderr.contains("recorded"), "\(r.stderr)")
  }

  /// Rewrites the goldens' manifest as an older Flick wrote it: the caps `--max-pixels` and
  /// `--timeout` among its parameters and in its parameter hash.
  static func recordCaps(in golden: String) throws {
    let path = golden + "/manifest.json"
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    let recorded = ["--max-pixels=100000000", "--timeout=30"]
    json["parameters"] = recorded
    json["parameterHash"] = SnapshotManifest.hash(Array(recorded.joined(separator: "\n").utf8))
    try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
      .write(to: URL(fileURLWithPath: path))
  }

  /// `flick accept` reads such a manifest as verify does: accepting one frame of a report is not
  /// refused as a change of parameters (a design change, which would need every golden).
  @Test func acceptingPartOfAReportAgainstAnOldManifestThatRecordedCaps() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden", report = dir + "/report"
    expectEqual(try V.run(["snapshot", V.twoCards, "--at", "0,50%,end", "--out", golden], in: dir).status, 0)
    try Self.recordCaps(in: golden)
    // The goldens drift, the design stays: every frame fails, one is accepted.
    for label in ["0s", "50pct", "end"] { try RendererChangeTests.drift("\(golden)/\(label).png") }
    let v = try V.run(
      ["verify", V.twoCards, "--against", golden, "--report", report], environment: ["CI": "true"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    let before = try ["0s", "end"].map { try Data(contentsOf: URL(fileURLWithPath: "\(golden)/\($0).png")) }
    let one = try V.run(["accept", report, "--against", golden, "--frame", "50pct"], in: dir)
    expectEqual(one.status, 0, "\(one.stderr)")
    #expect(!one.stderr.contains("changed since the goldens were recorded"), "\(one.stderr)")
    #expect(one.stderr.contains("accepted 50pct"), "\(one.stderr)")
    expectEqual(
      try Data(contentsOf: URL(fileURLWithPath: "\(golden)/50pct.png")),
      try Data(contentsOf: URL(fileURLWithPath: "\(report)/50pct/actual.png")))
    expectEqual(try ["0s", "end"].map { try Data(contentsOf: URL(fileURLWithPath: "\(golden)/\($0).png")) }, before)
    // The manifest now names today's parameters: no cap among them.
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.parameters, [])
    expectEqual(manifest.parameterHash, SnapshotManifest.hash([UInt8]()))
  }
}
