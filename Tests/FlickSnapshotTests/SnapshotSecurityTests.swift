import FlickExpectations
import FlickMotion
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// Hostile goldens folders, reports and template names: every command refuses with exit 2 and
/// nothing outside its folder (nor any file Flick did not write) is touched.
@Suite struct SnapshotSecurityTests {
  typealias V = VerifyCommandTests

  /// A sandbox: `victim` outside the goldens folder, whose bytes must never change.
  struct Sandbox {
    let dir: String
    var golden: String { dir + "/golden" }
    var victim: String { dir + "/victim.png" }
    let victimBytes = Data("precious, not Flick's".utf8)

    init() throws {
      dir = try V.temporaryDirectory()
      try victimBytes.write(to: URL(fileURLWithPath: victim))
    }

    func victimIntact() -> Bool { FileManager.default.contents(atPath: victim) == victimBytes }

    /// Rewrites the goldens' manifest.json through `edit` (as JSON).
    func editManifest(_ edit: (inout [String: Any]) -> Void) throws {
      let path = golden + "/manifest.json"
      var json = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
      edit(&json)
      try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }
  }

  @Test(arguments: ["../victim.png", "/ABS/victim.png", "sub/../../victim.png", ".hidden.png", "victim"])
  func aHostileManifestEntryIsRefusedBySnapshotAndVerify(_ entry: String) throws {
    let box = try Sandbox()
    defer { box.remove() }
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", box.golden]).status, 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: box.golden + "/0s.png"))
    let file = entry.replacingOccurrences(of: "/ABS", with: box.dir)
    try box.editManifest { json in
      var frames = json["frames"] as! [[String: Any]]
      frames.append(["time": "50%", "seconds": 0.5, "file": file])
      json["frames"] = frames
    }
    // snapshot would delete the entry as an orphan: refused before anything is rendered.
    let s = try V.run(["snapshot", V.twoCards, "--at", "0", "--out", box.golden])
    expectEqual(s.status, 2, "\(s.stderr)")
    #expect(s.stderr.contains("refusing"), "\(s.stderr)")
    #expect(box.victimIntact())
    #expect(FileManager.default.fileExists(atPath: box.golden + "/end.png"), "nothing removed")
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: box.golden + "/0s.png")), before)
    let v = try V.run(["verify", V.twoCards, "--against", box.golden, "--record", "all"], in: box.dir)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(box.victimIntact())
  }

  @Test func aSymbolicLinkOutOfTheGoldensFolderIsRefused() throws {
    let box = try Sandbox()
    defer { box.remove() }
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", box.golden]).status, 0)
    // end.png becomes a link to the victim: a new snapshot without `end` would remove it.
    try FileManager.default.removeItem(atPath: box.golden + "/end.png")
    try FileManager.default.createSymbolicLink(atPath: box.golden + "/end.png", withDestinationPath: box.victim)
    let s = try V.run(["snapshot", V.twoCards, "--at", "0", "--out", box.golden])
    expectEqual(s.status, 2, "\(s.stderr)")
    #expect(s.stderr.contains("outside"), "\(s.stderr)")
    #expect(box.victimIntact())
    // verify does not read through it either.
    let v = try V.run(["verify", V.twoCards, "--against", box.golden], in: box.dir)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(v.stderr.contains("outside"), "\(v.stderr)")
    // Nor through a manifest.json that is a link out of the folder.
    try FileManager.default.removeItem(atPath: box.golden + "/end.png")
    try FileManager.default.moveItem(atPath: box.golden + "/manifest.json", toPath: box.dir + "/manifest.json")
    try FileManager.default.createSymbolicLink(
      atPath: box.golden + "/manifest.json", withDestinationPath: box.dir + "/manifest.json")
    try expectEqual(V.run(["verify", V.twoCards, "--against", box.golden], in: box.dir).status, 2)
    #expect(box.victimIntact())
  }

  @Test func acceptRefusesAReportNamingFilesOutsideItsFolders() throws {
    let box = try Sandbox()
    defer { box.remove() }
    let report = box.dir + "/report"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", box.golden]).status, 0)
    let goldenBefore = try Data(contentsOf: URL(fileURLWithPath: box.golden + "/0s.png"))
    let manifestBefore = try Data(contentsOf: URL(fileURLWithPath: box.golden + "/manifest.json"))
    _ = try V.run(["verify", V.twoCards, "--against", box.golden, "--report", report] + V.recolour)
    let summaryPath = report + "/summary.json"
    let original = try Data(contentsOf: URL(fileURLWithPath: summaryPath))
    // A copy of the real actual.png outside the report: readable, the right size, but not the report's.
    try FileManager.default.copyItem(atPath: report + "/0s/actual.png", toPath: box.dir + "/outside.png")
    func hostile(_ edit: (inout [String: Any]) -> Void) throws -> VerifyCommandTests.Output {
      var json = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
      edit(&json)
      try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: summaryPath))
      return try V.run(["accept", report, "--against", box.golden])
    }
    func setArtifact(_ path: String) -> (inout [String: Any]) -> Void {
      { json in
        var frames = json["frames"] as! [[String: Any]]
        frames[0]["artifacts"] = ["actual": path]
        json["frames"] = frames
      }
    }
    for artefact in [box.dir + "/outside.png", "../outside.png", "0s/../../outside.png"] {
      let r = try hostile(setArtifact(artefact))
      expectEqual(r.status, 2, "\(artefact): \(r.stderr)")
      #expect(r.stderr.contains("refusing"), "\(artefact): \(r.stderr)")
    }
    try FileManager.default.createSymbolicLink(
      atPath: report + "/0s/link.png", withDestinationPath: box.dir + "/outside.png")
    try expectEqual(hostile(setArtifact("0s/link.png")).status, 2)
    // The manifest the report carries would become the goldens' manifest: its names are checked.
    let r = try hostile { json in
      var manifest = json["manifest"] as! [String: Any]
      var frames = manifest["frames"] as! [[String: Any]]
      frames[0]["file"] = "../victim.png"
      manifest["frames"] = frames
      json["manifest"] = manifest
    }
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("victim.png"), "\(r.stderr)")
    let name = try hostile { json in
      var frames = json["frames"] as! [[String: Any]]
      frames[0]["name"] = "../victim"
      json["frames"] = frames
    }
    expectEqual(name.status, 2)
    #expect(box.victimIntact())
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: box.golden + "/0s.png")), goldenBefore)
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: box.golden + "/manifest.json")), manifestBefore)
  }

  @Test func aTemplateNameCannotSteerTheReportFolder() throws {
    let box = try Sandbox()
    defer { box.remove() }
    let work = box.dir + "/work/deep"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let text = try String(contentsOfFile: V.twoCards, encoding: .utf8)
      .replacingOccurrences(of: "name: \"two-cards\"", with: "name: \"../../../x\"")
    let template = box.dir + "/hostile.json5"
    try text.write(toFile: template, atomically: true, encoding: .utf8)
    let golden = box.dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0", "--out", golden]).status, 0)
    let v = try V.run(["verify", template, "--against", golden] + V.recolour, in: work)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(FileManager.default.fileExists(atPath: work + "/flick-report/x/index.html"), "\(v.stderr)")
    #expect(!FileManager.default.fileExists(atPath: box.dir + "/x"))
    #expect(!FileManager.default.fileExists(atPath: box.dir + "/work/x"))
    // FLICK_ARTIFACTS too.
    let artifacts = box.dir + "/artifacts"
    _ = try V.run(
      ["verify", template, "--against", golden] + V.recolour, environment: ["FLICK_ARTIFACTS": artifacts], in: work)
    #expect(FileManager.default.fileExists(atPath: artifacts + "/x/summary.json"))
  }

  @Test func reportsNeverOverwriteFilesFlickDidNotWrite() throws {
    let box = try Sandbox()
    defer { box.remove() }
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", box.golden]).status, 0)
    let site = box.dir + "/site"
    try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
    let index = Data("<h1>my site</h1>".utf8)
    try index.write(to: URL(fileURLWithPath: site + "/index.html"))
    let v = try V.run(["verify", V.twoCards, "--against", box.golden, "--report", site] + V.recolour)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(v.stderr.contains("did not write"), "\(v.stderr)")
    expectEqual(FileManager.default.contents(atPath: site + "/index.html"), index)
    #expect(!FileManager.default.fileExists(atPath: site + "/0s"))
    let d = try V.run(["diff", box.golden + "/0s.png", box.golden + "/0s.png", "--report", site])
    expectEqual(d.status, 2)
    expectEqual(FileManager.default.contents(atPath: site + "/index.html"), index)
    // A folder Flick made is reused.
    let report = box.dir + "/report"
    try expectEqual(V.run(["verify", V.twoCards, "--against", box.golden, "--report", report] + V.recolour).status, 1)
    #expect(FileManager.default.fileExists(atPath: report + "/" + ReportFolder.markerName))
    try expectEqual(V.run(["verify", V.twoCards, "--against", box.golden, "--report", report] + V.recolour).status, 1)
  }

  // MARK: - All or nothing

  @Test func aSnapshotThatCannotWriteEverythingChangesNothing() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let frame = Frame(width: 4, height: 4)
    let manifest = SnapshotManifest(
      template: "t.json5", templateHash: "", parameters: [], parameterHash: "", width: 4, height: 4, scale: 1, fps: 10,
      duration: 1,
      frames: [
        .init(time: .seconds(0), seconds: 0, file: "0s.png"), .init(time: .end, seconds: 0.9, file: "end.png"),
      ], flickVersion: "test")
    try SnapshotCommit(
      directory: dir, frames: [("0s.png", frame), ("end.png", frame)], manifest: manifest, previous: nil
    ).apply()
    let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    let bytes = try before.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)) }
    // The second write fails (a full disk): nothing changes, no temporary file is left.
    var bigger = manifest
    bigger.width = 8
    bigger.frames = [.init(time: .seconds(0), seconds: 0, file: "0s.png")]
    let commit = try SnapshotCommit(
      directory: dir, frames: [("0s.png", Frame(width: 8, height: 8))], manifest: bigger, previous: manifest)
    let count = Locked(0)
    #expect(throws: SnapshotError.self) {
      try commit.apply { (data: Data, path: String) throws(SnapshotError) in
        let n = count.withLock {
          $0 += 1
          return $0
        }
        if n == 2 { throw .unwritableFile(path: path, reason: "No space left on device") }
        try SnapshotCommit.fileWriter(data, path)
      }
    }
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir).sorted(), before)
    try expectEqual(before.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)) }, bytes)
    // When it works, the orphan goes and the manifest matches the goldens.
    try commit.apply()
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["0s.png", "manifest.json"])
    try expectEqual(SnapshotManifest.read(from: dir)?.width, 8)
  }

  @Test func theCommandLeavesTheFolderAsItWasWhenTheDiskIsFull() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden]).status, 0)
    // Every file, stored inputs included.
    func files() throws -> [String] {
      try FileManager.default.subpathsOfDirectory(atPath: golden).filter { name in
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: golden + "/" + name, isDirectory: &folder) && !folder.boolValue
      }.sorted()
    }
    let before = try files()
    #expect(before.contains { $0.hasPrefix("inputs/") })
    let bytes = try before.map { try Data(contentsOf: URL(fileURLWithPath: golden + "/" + $0)) }
    // Files over 4 KB cannot be written (RLIMIT_FSIZE, SIGXFSZ ignored): the goldens at scale 2 are bigger.
    let flick = V.flick
    let r = try ProcessRunner.run(
      "/bin/sh",
      [
        "-c", "trap '' XFSZ; ulimit -f 8; exec \"$0\" \"$@\"", flick, "snapshot", V.twoCards, "--at", "0,end",
        "--scale", "2", "--out", golden,
      ])
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("left unchanged"), "\(r.stderr)")
    try expectEqual(files(), before)
    try expectEqual(before.map { try Data(contentsOf: URL(fileURLWithPath: golden + "/" + $0)) }, bytes)
  }
}
