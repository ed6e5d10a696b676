import FlickExpectations
import FlickRaster
import Foundation
import Testing

@testable import FlickSnapshot

/// `flick diff DIR_A DIR_B`: frames whose names make the same plain folder name still get one
/// artefact folder each, and the report names the real files.
@Suite struct DiffNameCollisionTests {
  typealias V = VerifyCommandTests

  @Test func everyFrameGetsItsOwnFolderWhateverItsName() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let a = dir + "/a", b = dir + "/b"
    for d in [a, b] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
    let long = String(repeating: "n", count: 100)
    let names = ["a:b.png", "a;b.png", "x.png", "x.PNG", long + "1.png", long + "2.png"]
    for (i, name) in names.enumerated() {
      var frame = Frame(width: 8, height: 8)
      try frame.writePNG(to: a + "/" + name)
      frame.pixels[i * 4 + 3] = 255  // a different pixel for each file
      try frame.writePNG(to: b + "/" + name)
    }
    let v = try V.run(["diff", a, b, "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r/summary.json")))
        as? [String: Any])
    let frames = try #require(summary["frames"] as? [[String: Any]])
    expectEqual(Set(frames.compactMap { $0["name"] as? String }), Set(names))
    let diffs = frames.compactMap { ($0["artifacts"] as? [String: String])?["diff"] }
    expectEqual(diffs.count, names.count)
    expectEqual(Set(diffs.map { ($0 as NSString).deletingLastPathComponent }).count, names.count)
    // Each folder's diff shows its own frame's pixel.
    for frame in frames {
      let name = try #require(frame["name"] as? String)
      let path = try #require((frame["artifacts"] as? [String: String])?["actual"])
      let actual = try PNGImage(contentsOf: path.hasPrefix("/") ? path : dir + "/r/" + path)
      let i = try #require(names.firstIndex(of: name))
      expectEqual(actual.words[i] >> 24, 255, "\(name)")
    }
    // The folder names are a function of the names alone.
    expectEqual(
      ContainedPath.distinctFolderNames(names), ContainedPath.distinctFolderNames(names.reversed()).reversed())
  }

  /// A PNG named after a file the report writes itself (`index.html.png`), in any case, gets a
  /// hashed folder: its folder took `index.html`'s name and the report could not be written.
  @Test func noFrameFolderTakesANameTheReportWrites() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let a = dir + "/a", b = dir + "/b"
    for d in [a, b] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
    let names = SnapshotReport.topLevelNames.map { $0 + ".png" } + ["INDEX.HTML.png", "Summary.Json.PNG", "plain.png"]
    for (i, name) in names.enumerated() {
      var frame = Frame(width: 8, height: 8)
      try frame.writePNG(to: a + "/" + name)
      frame.pixels[i * 4 + 3] = 255
      try frame.writePNG(to: b + "/" + name)
    }
    let v = try V.run(["diff", a, b, "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(!v.stderr.contains("cannot write"), "\(v.stderr)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r/summary.json")))
        as? [String: Any])
    let frames = try #require(summary["frames"] as? [[String: Any]])
    expectEqual(frames.count, names.count)
    let reserved = Set(SnapshotReport.topLevelNames.map { $0.lowercased() })
    var folders: Set<String> = []
    for frame in frames {
      let actual = try #require((frame["artifacts"] as? [String: String])?["actual"], "\(frame)")
      let folder = ((actual as NSString).deletingLastPathComponent as NSString).lastPathComponent
      #expect(!reserved.contains(folder.lowercased()), "\(folder)")
      folders.insert(folder.lowercased())
    }
    expectEqual(folders.count, names.count)
    #expect(folders.contains("plain"))
    var isFolder: ObjCBool = true
    for file in [SnapshotReport.htmlFile, SnapshotReport.junitFile, SnapshotReport.summaryFile] {
      #expect(FileManager.default.fileExists(atPath: dir + "/r/" + file, isDirectory: &isFolder) && !isFolder.boolValue)
    }
    // verify's frame folders keep clear of them too.
    let verifier = GoldenVerifier(record: .none)
    let written = verifier.writeArtifacts(
      name: "Index.html", expected: nil, actual: Frame(width: 2, height: 2), comparison: nil, into: dir + "/v")
    let path = try #require(written["actual"])
    #expect(
      !reserved.contains(((path as NSString).deletingLastPathComponent as NSString).lastPathComponent.lowercased()))
  }
}
