import FlickExpectations
import FlickRaster
import FlickSnapshot
import FlickTestSupport
import Foundation
import Testing

/// `flick snapshot`, `flick verify` and `flick diff` end to end, through the built binary.
@Suite struct VerifyCommandTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let flick = ProcessRunner.flick(root: root)
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  static let twoCards = fixtures.appendingPathComponent("two-cards.json5").path
  /// The parameter change that recolours the right card.
  static let recolour = ["--set", "rightColor=#3B82F6"]

  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static func run(_ args: [String], environment: [String: String] = [:], in dir: String? = nil) throws -> Output {
    var env = ProcessInfo.processInfo.environment
    env["CI"] = nil
    env["FLICK_RECORD"] = nil
    env["FLICK_ARTIFACTS"] = nil
    for (k, v) in environment { env[k] = v }
    let r = try ProcessRunner.run(flick, args, environment: env, directory: dir)
    return Output(status: r.status, stdout: r.text, stderr: r.stderr)
  }

  static func temporaryDirectory() throws -> String {
    try ProcessRunner.temporaryDirectory(prefix: "flick-verify").path
  }

  @Test func snapshotThenVerifyPassesOnAnUnchangedTemplate() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    let s = try Self.run(["snapshot", Self.twoCards, "--at", "0,50%,end,frame:3", "--out", golden])
    expectEqual(s.status, 0, "\(s.stderr)")
    for file in ["0s.png", "50pct.png", "end.png", "frame3.png", "manifest.json"] {
      #expect(FileManager.default.fileExists(atPath: "\(golden)/\(file)"), "\(file)")
    }
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.frames.map(\.time), [.seconds(0), .percent(50), .end, .frame(3)])
    expectEqual(manifest.width, 320)
    expectEqual(manifest.height, 180)
    expectEqual(manifest.templateHash.count, 64)
    expectEqual(manifest.renderer, RendererFingerprint.current)
    let v = try Self.run(["verify", Self.twoCards, "--against", golden], in: dir)
    expectEqual(v.status, 0, "\(v.stderr)")
    #expect(v.stderr.contains("4 of 4 match"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/flick-report"))
  }

  @Test func aRecolouredCardFailsWithAReportPointingAtIt() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(Self.run(["snapshot", Self.twoCards, "--at", "0,end", "--out", golden]).status, 0)
    let v = try Self.run(["verify", Self.twoCards, "--against", golden, "--report", report] + Self.recolour)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(v.stderr.contains("note: goldens were made with parameters []"))
    // The terminal names each failing frame, the pixel count and the bounding box.
    #expect(v.stderr.contains("✗ 0s"))
    #expect(v.stderr.contains("✗ end"))
    #expect(v.stderr.contains("pixels differ"))
    #expect(v.stderr.contains(" at (180, 30)"))  // the right card at t = 0: 100×100 centred on (230, 80)
    for file in [
      "index.html", "junit.xml", "summary.json", "0s/diff.png", "0s/side-by-side.png",
      "0s/flicker.png", "0s/expected.png", "0s/actual.png",
    ] {
      #expect(FileManager.default.fileExists(atPath: "\(report)/\(file)"), "\(file)")
    }
    // Every counted pixel lies on the right card; the left card and the background are untouched.
    let data = try Data(contentsOf: URL(fileURLWithPath: report + "/summary.json"))
    let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(summary["passed"] as? Bool == false && summary["failed"] as? Int == 2 && summary["matched"] as? Int == 0)
    let counts = try #require(summary["counts"] as? [String: Int])
    #expect(counts["changed"] == 2 && counts["match"] == 0 && counts["unreadable"] == 0)
    let frames = try #require(summary["frames"] as? [[String: Any]])
    let box = try #require(frames.first?["boundingBox"] as? [String: Int])
    #expect(box["x"] == 180 && box["y"] == 30 && box["width"] == 100 && box["height"] == 100)
    let junit = try String(contentsOfFile: report + "/junit.xml", encoding: .utf8)
    #expect(junit.contains("failures=\"2\""))
    #expect(junit.contains("<failure message="))
    let html = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
    #expect(html.contains("0s/side-by-side.png"))
    #expect(html.contains("0s/diff.png"))
    #expect(html.contains("type=range"))
    // The golden is untouched by a failing verify.
    let expected = try Frame(pngAt: golden + "/0s.png")
    expectEqual(expected.rgba(x: 230, y: 80).g, 0xC5)
    // --record failed rewrites the failing goldens and fails, saying so; after that the new colour matches.
    let update = try Self.run(
      ["verify", Self.twoCards, "--against", golden, "--record", "failed"] + Self.recolour, in: dir)
    expectEqual(update.status, 1, "\(update.stderr)")
    #expect(update.stderr.contains("recorded 2 goldens"))
    #expect(update.stderr.contains("re-run without --record"))
    try expectEqual(Frame(pngAt: golden + "/0s.png").rgba(x: 230, y: 80).b, 0xF6)
    try expectEqual(Self.run(["verify", Self.twoCards, "--against", golden] + Self.recolour, in: dir).status, 0)
  }

  @Test func verifyWritesGoldensOnlyWhenAskedAndNeverInCI() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let local = dir + "/local"
    // By default nothing is written: a missing golden fails.
    let r0 = try Self.run(["verify", Self.twoCards, "--against", local, "--at", "0"], in: dir)
    expectEqual(r0.status, 1, "\(r0.stderr)")
    #expect(r0.stderr.contains("missing"), "\(r0.stderr)")
    #expect(!FileManager.default.fileExists(atPath: local + "/0s.png"))
    // Not even with FLICK_RECORD (that is for assertFrameSnapshot).
    let env = try Self.run(
      ["verify", Self.twoCards, "--against", local, "--at", "0"], environment: ["FLICK_RECORD": "all"], in: dir)
    expectEqual(env.status, 1)
    #expect(!FileManager.default.fileExists(atPath: local + "/0s.png"))
    // In CI, asking to record is refused and writes nothing.
    let ci = try Self.run(
      ["verify", Self.twoCards, "--against", local, "--at", "0", "--record", "missing"], environment: ["CI": "true"],
      in: dir)
    expectEqual(ci.status, 2, "\(ci.stderr)")
    #expect(ci.stderr.contains("refusing to record goldens in CI"), "\(ci.stderr)")
    #expect(!FileManager.default.fileExists(atPath: local))
    // --record missing writes, and the run fails saying a re-run verifies it.
    let r2 = try Self.run(["verify", Self.twoCards, "--against", local, "--at", "0", "--record", "missing"], in: dir)
    expectEqual(r2.status, 1, "\(r2.stderr)")
    #expect(r2.stderr.contains("recorded 1 golden"), "\(r2.stderr)")
    #expect(FileManager.default.fileExists(atPath: local + "/0s.png"))
    #expect(FileManager.default.fileExists(atPath: local + "/manifest.json"))
    let r3 = try Self.run(["verify", Self.twoCards, "--against", local], in: dir)
    expectEqual(r3.status, 0, "\(r3.stderr)")
    // Goldens deleted midway are reported missing, not re-recorded.
    try FileManager.default.removeItem(atPath: local + "/0s.png")
    let gone = try Self.run(["verify", Self.twoCards, "--against", local], in: dir)
    expectEqual(gone.status, 1)
    #expect(gone.stderr.contains("missing"))
    #expect(!FileManager.default.fileExists(atPath: local + "/0s.png"))
    try expectEqual(Self.run(["verify", Self.twoCards, "--against", local, "--record", "missing"], in: dir).status, 1)
    // Recording another time keeps the earlier one in the manifest.
    try expectEqual(
      Self.run(["verify", Self.twoCards, "--against", local, "--at", "end", "--record", "missing"], in: dir).status, 1)
    try expectEqual(SnapshotManifest.read(from: local)?.frames.map(\.file), ["0s.png", "end.png"])
    // An explicit re-record of a changed template updates the goldens (and fails once).
    let r4 = try Self.run(["verify", Self.twoCards, "--against", local, "--record", "all"] + Self.recolour, in: dir)
    expectEqual(r4.status, 1, "\(r4.stderr)")
    #expect(r4.stderr.contains("recorded 2 goldens"), "\(r4.stderr)")
    let manifest = try #require(try SnapshotManifest.read(from: local))
    expectEqual(manifest.parameters, ["--set=rightColor=#3B82F6"])
    try expectEqual(Self.run(["verify", Self.twoCards, "--against", local] + Self.recolour, in: dir).status, 0)
    try expectEqual(Self.run(["verify", Self.twoCards, "--against", local], in: dir).status, 1)
  }

  @Test func diffReportsCorruptImagesAsInfrastructureErrors() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try expectEqual(Self.run(["snapshot", Self.twoCards, "--at", "0,end", "--out", dir + "/a"]).status, 0)
    let good = dir + "/a/0s.png", corrupt = dir + "/corrupt.png"
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: good)))
    bytes[bytes.count / 2] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: corrupt))
    let r = try Self.run(["diff", good, corrupt])
    expectEqual(r.status, 3)
    #expect(r.stderr.contains("CRC"))
    try expectEqual(Self.run(["diff", corrupt, corrupt]).status, 3)
    try expectEqual(Self.run(["diff", good, good]).status, 0)
    let moved = try Self.run(["diff", good, dir + "/a/end.png"])
    expectEqual(moved.status, 1)
    #expect(moved.stderr.contains("pixels differ"))
    // Folders: a file on one side only fails.
    try FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: good, toPath: dir + "/b/0s.png")
    let folders = try Self.run(["diff", dir + "/a", dir + "/b"])
    expectEqual(folders.status, 1)
    #expect(folders.stderr.contains("only in"))
  }

  @Test func badInputExitsWith2() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try expectEqual(Self.run(["snapshot", Self.twoCards, "--at", "120%", "--out", dir]).status, 2)
    try expectEqual(Self.run(["snapshot", Self.twoCards, "--at", "frame:99", "--out", dir]).status, 2)
    try expectEqual(Self.run(["verify", Self.twoCards, "--against", dir, "--threshold", "2"]).status, 2)
    try expectEqual(Self.run(["verify", Self.twoCards, "--against", dir, "--record", "sometimes"]).status, 2)
    try expectEqual(Self.run(["verify", Self.twoCards]).status, 2)
    try expectEqual(Self.run(["diff", Self.twoCards]).status, 2)
  }

  /// The CI flow: verify fails in CI and writes a report; `flick accept` makes its actual frames
  /// the goldens, after which verify passes with the same parameters.
  @Test func acceptingAFailedReportMakesItsFramesTheGoldens() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(Self.run(["snapshot", Self.twoCards, "--at", "0,50%,end", "--out", golden]).status, 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: golden + "/0s.png"))
    let v = try Self.run(
      ["verify", Self.twoCards, "--against", golden, "--report", report] + Self.recolour, environment: ["CI": "true"])
    expectEqual(v.status, 1, "\(v.stderr)")

    let dry = try Self.run(["accept", report, "--against", golden, "--dry-run"])
    expectEqual(dry.status, 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("would accept 0s (changed:"))
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: golden + "/0s.png")), before, "a dry run changes nothing")

    let accept = try Self.run(["accept", report, "--against", golden])
    expectEqual(accept.status, 0, "\(accept.stderr)")
    for label in ["0s", "50pct", "end"] {
      let actual = try Data(contentsOf: URL(fileURLWithPath: "\(report)/\(label)/actual.png"))
      try expectEqual(Data(contentsOf: URL(fileURLWithPath: "\(golden)/\(label).png")), actual, "\(label)")
    }
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.parameters, ["--set=rightColor=#3B82F6"])
    expectEqual(manifest.frames.map(\.file), ["0s.png", "50pct.png", "end.png"])
    let again = try Self.run(
      ["verify", Self.twoCards, "--against", golden] + Self.recolour, environment: ["CI": "true"], in: dir)
    expectEqual(again.status, 0, "\(again.stderr)")
    #expect(!again.stderr.contains("note: goldens were made with parameters"))
    // Nothing is left to accept from a passing run's report.
    let passing = try Self.run(
      ["verify", Self.twoCards, "--against", golden, "--report", dir + "/ok"] + Self.recolour,
      environment: ["CI": "true"])
    expectEqual(passing.status, 0)
    let none = try Self.run(["accept", dir + "/ok", "--against", golden])
    expectEqual(none.status, 0)
    #expect(none.stderr.contains("nothing to accept"))
  }

  /// `--frame NAME` accepts only the frames named: the other goldens and their manifest entries
  /// stay as they were; a name that is not a failed frame is refused and changes nothing. (The
  /// goldens drift, the design stays: a report of a changed design is accepted whole only,
  /// `PartialRecordTests`.)
  @Test func acceptingOneFrameLeavesTheOthers() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(Self.run(["snapshot", Self.twoCards, "--at", "0,50%,end", "--out", golden]).status, 0)
    for label in ["0s", "50pct", "end"] { try RendererChangeTests.drift("\(golden)/\(label).png") }
    let v = try Self.run(
      ["verify", Self.twoCards, "--against", golden, "--report", report], environment: ["CI": "true"])
    expectEqual(v.status, 1, "\(v.stderr)")
    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
    let before = try ["0s", "end"].map { try bytes("\(golden)/\($0).png") }
    let entries = try #require(try SnapshotManifest.read(from: golden)).frames

    let wrong = try Self.run(["accept", report, "--against", golden, "--frame", "nope"])
    expectEqual(wrong.status, 2, "\(wrong.stderr)")
    #expect(wrong.stderr.contains("nope is not a failed frame"), "\(wrong.stderr)")
    let one = try Self.run(["accept", report, "--against", golden, "--frame", "50pct"])
    expectEqual(one.status, 0, "\(one.stderr)")
    #expect(one.stderr.contains("accepted 50pct"), "\(one.stderr)")
    #expect(!one.stderr.contains("accepted 0s"), "\(one.stderr)")
    try expectEqual(bytes("\(golden)/50pct.png"), (try bytes("\(report)/50pct/actual.png")))
    try expectEqual(["0s", "end"].map { try bytes("\(golden)/\($0).png") }, before)
    let after = try #require(try SnapshotManifest.read(from: golden)).frames
    expectEqual(after.filter { $0.file != "50pct.png" }, entries.filter { $0.file != "50pct.png" })
    let again = try Self.run(["verify", Self.twoCards, "--against", golden], environment: ["CI": "true"], in: dir)
    expectEqual(again.status, 1, "the frames not accepted still fail")
  }

  @Test func acceptRefusesWhatDoesNotFit() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(Self.run(["snapshot", Self.twoCards, "--at", "0", "--out", golden]).status, 0)
    // Not a report.
    let missing = try Self.run(["accept", dir + "/nowhere", "--against", golden])
    expectEqual(missing.status, 2, "\(missing.stderr)")
    #expect(missing.stderr.contains("summary.json"), "\(missing.stderr)")
    _ = try Self.run(["verify", Self.twoCards, "--against", golden, "--report", report] + Self.recolour)
    // No manifest in the goldens folder.
    try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
    let bare = try Self.run(["accept", report, "--against", dir + "/empty"])
    expectEqual(bare.status, 2, "\(bare.stderr)")
    #expect(bare.stderr.contains("flick snapshot first"), "\(bare.stderr)")
    // An actual.png of another size.
    let small = Frame(width: 4, height: 4, bytesPerRow: 16, pixels: [UInt8](repeating: 255, count: 64))
    try small.writePNG(to: report + "/0s/actual.png")
    let wrongSize = try Self.run(["accept", report, "--against", golden])
    expectEqual(wrongSize.status, 2, "\(wrongSize.stderr)")
    #expect(wrongSize.stderr.contains("4×4"), "\(wrongSize.stderr)")
    // A corrupt one.
    try Data("not a png".utf8).write(to: URL(fileURLWithPath: report + "/0s/actual.png"))
    let corrupt = try Self.run(["accept", report, "--against", golden])
    expectEqual(corrupt.status, 3, "\(corrupt.stderr)")
    try expectEqual(Self.run(["snapshot", Self.twoCards, "--at", "0", "--out", dir + "/check"]).status, 0)
    try expectEqual(
      Data(contentsOf: URL(fileURLWithPath: golden + "/0s.png")),
      Data(contentsOf: URL(fileURLWithPath: dir + "/check/0s.png")), "refused accepts change nothing")
  }
}
