import FlickExpectations
import FlickRaster
import Foundation
import Testing

@testable import FlickSnapshot

/// A goldens folder is written all or nothing: two entries for one file are refused before
/// anything is written, and a file that cannot be put in place after others were undoes them.
@Suite struct CommitRollbackTests {
  typealias V = VerifyCommandTests

  /// Every file under `folder` (hidden ones and stored inputs included) with its bytes; a
  /// FIFO or folder is listed by name only.
  static func contents(_ folder: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for name in try FileManager.default.subpathsOfDirectory(atPath: folder) {
      var info = stat()
      guard lstat(folder + "/" + name, &info) == 0 else { continue }
      out[name] =
        (info.st_mode & S_IFMT) == S_IFREG ? try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) : Data()
    }
    return out
  }

  static func manifest(width: Int) -> SnapshotManifest {
    SnapshotManifest(
      template: "t.json5", templateHash: "", parameters: [], parameterHash: "", width: width, height: width, scale: 1,
      fps: 10, duration: 1,
      frames: [.init(time: .seconds(0), seconds: 0, file: "0s.png"), .init(time: .end, seconds: 0.9, file: "end.png")],
      flickVersion: "test")
  }

  /// Goldens of 4×4 frames at 0 s and the end, committed in `dir`, as a folder to change.
  static func recordBaseline(in dir: String) throws {
    try SnapshotCommit(
      directory: dir, frames: [("0s.png", Frame(width: 4, height: 4)), ("end.png", Frame(width: 4, height: 4))],
      manifest: manifest(width: 4), previous: nil
    ).apply()
  }

  @Test func aFileThatCannotBePutInPlaceUndoesTheOnesBeforeIt() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Self.recordBaseline(in: dir)
    // end.png is now something a file cannot replace: a folder, then a FIFO.
    for kind in ["folder", "fifo"] {
      try FileManager.default.removeItem(atPath: dir + "/end.png")
      if kind == "folder" {
        try FileManager.default.createDirectory(atPath: dir + "/end.png/x", withIntermediateDirectories: true)
      } else {
        #expect(mkfifo(dir + "/end.png", 0o644) == 0)
      }
      let before = try Self.contents(dir)
      let commit = try SnapshotCommit(
        directory: dir, frames: [("0s.png", Frame(width: 8, height: 8)), ("end.png", Frame(width: 8, height: 8))],
        manifest: Self.manifest(width: 8), previous: Self.manifest(width: 4))
      #expect(throws: SnapshotError.self) { try commit.apply() }
      // 0s.png was in place before end.png failed: it is the old one again, nothing else is left.
      try expectEqual(Self.contents(dir), before, "\(kind)")
    }
  }

  @Test func twoEntriesForOneFileAreRefusedBeforeAnythingIsWritten() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Self.recordBaseline(in: dir)
    let before = try Self.contents(dir)
    // The same name, another case, another Unicode normalisation of one name.
    for pair in [("0s.png", "0s.png"), ("end.png", "END.png"), ("\u{E9}.png", "e\u{301}.png")] {
      let commit = SnapshotCommit(
        directory: dir, encoded: [(pair.0, Data("one".utf8)), (pair.1, Data("two".utf8))],
        manifest: Self.manifest(width: 4))
      #expect(throws: SnapshotError.self) { try commit.apply() }
      do {
        try commit.apply()
      } catch {
        #expect(error.isInvalidInput, "\(error.description)")
      }
      try expectEqual(Self.contents(dir), before, "\(pair.1)")
    }
  }

  /// The report of the review: a summary listing its frames twice.
  static func doubledReport(in dir: String) throws -> (golden: String, report: String) {
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,50%,end", "--out", golden]).status, 0)
    try Frame(width: 4, height: 4).writePNG(to: golden + "/0s.png")
    let report = dir + "/report"
    try expectEqual(V.run(["verify", V.twoCards, "--against", golden, "--report", report]).status, 1)
    let summaryPath = report + "/summary.json"
    var summary = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summaryPath))) as? [String: Any])
    let frames = try #require(summary["frames"] as? [Any])
    summary["frames"] = frames + frames
    try JSONSerialization.data(withJSONObject: summary).write(to: URL(fileURLWithPath: summaryPath))
    return (golden, report)
  }

  @Test func acceptRefusesAReportListingAFrameTwiceAndChangesNothing() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (golden, report) = try Self.doubledReport(in: dir)
    let before = try Self.contents(golden)
    for extra in [[], ["--frame", "0s"]] {
      let r = try V.run(["accept", report, "--against", golden] + extra)
      expectEqual(r.status, 2, "\(r.stderr)")
      #expect(
        r.stderr.contains("frame '0s' in \(report)/summary.json: it is listed twice; nothing was changed"),
        "\(r.stderr)")
      #expect(!r.stderr.contains("accepted"), "\(r.stderr)")
      try expectEqual(Self.contents(golden), before)
    }
  }

  @Test func aRendererUpdateFromAReportListingAFrameTwiceIsRefused() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try RendererChangeTests.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden], in: dir).status, 0)
    try RendererChangeTests.drift(golden + "/0s.png")
    try RendererChangeTests.fakeRendererChange(golden)
    expectEqual(try V.run(["verify", template, "--against", golden], in: dir).status, 0)
    let summaryPath = dir + "/flick-report/button/summary.json"
    var summary = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summaryPath))) as? [String: Any])
    summary["frames"] = try #require(summary["frames"] as? [Any]) + #require(summary["frames"] as? [Any])
    try JSONSerialization.data(withJSONObject: summary).write(to: URL(fileURLWithPath: summaryPath))
    let before = try Self.contents(golden)
    let r = try V.run(["accept", dir + "/flick-report/button", "--renderer", "--against", golden], in: dir)
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("it is listed twice"), "\(r.stderr)")
    try expectEqual(Self.contents(golden), before)
  }

  @Test func reRecordingLeavesTheFolderAsItWasWhenALaterGoldenCannotBeReplaced() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden]).status, 0)
    try FileManager.default.removeItem(atPath: golden + "/end.png")
    #expect(mkfifo(golden + "/end.png", 0o644) == 0)
    let before = try Self.contents(golden)
    let r = try V.run(["snapshot", V.twoCards, "--at", "0,end", "--scale", "0.5", "--out", golden])
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("the snapshot folder was left unchanged"), "\(r.stderr)")
    try expectEqual(Self.contents(golden), before)
  }
}
