import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// What `flick accept` and `flick snapshot` read from a report or goldens folder: only files
/// inside it (no link out, also for `summary.json`), of bounded size, and never a path the
/// report names outside it (`templatePath`).
@Suite struct ReportReadTests {
  typealias V = VerifyCommandTests

  /// Goldens of two-cards at 0 and end in `DIR/golden`, a failed report in `DIR/report`, and
  /// `DIR/outside` holding a copy of the report's summary.
  struct Box {
    let dir: String
    var golden: String { dir + "/golden" }
    var report: String { dir + "/report" }
    var outside: String { dir + "/outside" }
    var summary: String { report + "/summary.json" }

    init() throws {
      dir = try V.temporaryDirectory()
      try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden]).status, 0)
      try expectEqual(V.run(["verify", V.twoCards, "--against", golden, "--report", report] + V.recolour).status, 1)
      try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    }

    /// Rewrites the report's summary.json through `edit` (as JSON).
    func editSummary(_ edit: (inout [String: Any]) -> Void) throws {
      var json = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
      edit(&json)
      try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: summary))
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }
  }

  @Test func aSummaryLinkedOutOfTheReportIsRefusedWhateverIsAtItsEnd() throws {
    let box = try Box()
    defer { box.remove() }
    // A valid summary outside, a link to it: read through the link, it used to be accepted.
    let copy = box.outside + "/summary.json"
    try FileManager.default.moveItem(atPath: box.summary, toPath: copy)
    try FileManager.default.createSymbolicLink(atPath: box.summary, withDestinationPath: copy)
    for args in [["accept", box.report], ["accept", box.report, "--renderer"]] {
      let r = try V.run(args + ["--against", box.golden, "--dry-run"], in: box.dir)
      expectEqual(r.status, 2, "\(r.stderr)")
      #expect(r.stderr.contains("outside"), "\(r.stderr)")
    }
    // A link that leads nowhere gets a refusal too, not "no verification report here": what
    // exists outside the folder does not change the answer's kind.
    try FileManager.default.removeItem(atPath: box.summary)
    try FileManager.default.createSymbolicLink(atPath: box.summary, withDestinationPath: box.outside + "/none.json")
    let r = try V.run(["accept", box.report, "--against", box.golden, "--dry-run"], in: box.dir)
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("symbolic link"), "\(r.stderr)")
  }

  @Test func aSummaryOverTheCapIsRefusedBeforeItIsRead() throws {
    let box = try Box()
    defer { box.remove() }
    // Sparse: no disk space used.
    try expectEqual(truncate(box.summary, off_t(ContainedPath.maximumTextBytes + 1)), 0)
    let r = try V.run(["accept", box.report, "--against", box.golden, "--dry-run"], in: box.dir)
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("more than the 64 MiB"), "\(r.stderr)")
  }

  @Test func aTemplatePathOutsideTheCurrentFolderIsNeverRead() throws {
    let box = try Box()
    defer { box.remove() }
    // A file that exists outside the current folder and differs from the template: reading it
    // printed "… changed since this report was made", telling the file exists.
    let other = box.outside + "/t.json5"
    try Data("{}".utf8).write(to: URL(fileURLWithPath: other))
    try box.editSummary { $0["templatePath"] = other }
    let work = box.dir + "/work"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let r = try V.run(["accept", box.report, "--against", box.golden, "--dry-run"], in: work)
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(!r.stderr.contains("changed since"), "\(r.stderr)")
    #expect(r.stderr.contains("is not checked"), "\(r.stderr)")
    #expect(r.stderr.contains("absolute path"), "\(r.stderr)")
  }

  @Test func aTemplatePathInsideTheCurrentFolderIsStillChecked() throws {
    let box = try Box()
    defer { box.remove() }
    try FileManager.default.copyItem(atPath: V.twoCards, toPath: box.dir + "/t.json5")
    try box.editSummary { $0["templatePath"] = "t.json5" }
    let same = try V.run(["accept", box.report, "--against", box.golden, "--dry-run"], in: box.dir)
    expectEqual(same.status, 0, "\(same.stderr)")
    #expect(!same.stderr.contains("changed since"), "\(same.stderr)")
    try Data("{}".utf8).write(to: URL(fileURLWithPath: box.dir + "/t.json5"))
    let changed = try V.run(["accept", box.report, "--against", box.golden, "--dry-run"], in: box.dir)
    expectEqual(changed.status, 0, "\(changed.stderr)")
    #expect(changed.stderr.contains("changed since"), "\(changed.stderr)")
  }

  @Test func verifyRecordsTheTemplateRelativeToTheCurrentFolder() throws {
    let box = try Box()
    defer { box.remove() }
    try FileManager.default.copyItem(atPath: V.twoCards, toPath: box.dir + "/t.json5")
    let report = box.dir + "/report2"
    let r = try V.run(
      ["verify", "t.json5", "--against", box.golden, "--report", report] + V.recolour, in: box.dir)
    expectEqual(r.status, 1, "\(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json")))
    expectEqual((json as? [String: Any])?["templatePath"] as? String, "t.json5")
  }

  @Test func snapshotReplacesALinkedStoredInputWithoutReadingIt() throws {
    let box = try Box()
    defer { box.remove() }
    let inputs = box.golden + "/inputs"
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: inputs).first)
    let stored = inputs + "/" + name
    let copy = box.outside + "/" + name
    try FileManager.default.moveItem(atPath: stored, toPath: copy)
    try FileManager.default.createSymbolicLink(atPath: stored, withDestinationPath: copy)
    let s = try V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", box.golden])
    expectEqual(s.status, 0, "\(s.stderr)")
    let type = try FileManager.default.attributesOfItem(atPath: stored)[.type] as? FileAttributeType
    expectEqual(type, .typeRegular)
    #expect(FileManager.default.fileExists(atPath: copy))
    // The goldens snapshot wrote are goldens the other commands take.
    let a = try V.run(["accept", "--renderer", "--against", box.golden, "--dry-run"])
    expectEqual(a.status, 0, "\(a.stderr)")
  }
}
