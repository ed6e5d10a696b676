import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// A goldens folder whose `manifest.json` a pull request deleted: verify refuses it (exit 2)
/// instead of falling back to default times, no stored inputs, no motion check and no
/// `unlisted` files; recording into a folder without goldens stays allowed.
@Suite struct GoldensWithoutManifestTests {
  typealias V = VerifyCommandTests

  static func expectRefused(_ v: V.Output, _ golden: String, _ context: String) {
    expectEqual(v.status, 2, "\(context): \(v.stderr)")
    #expect(v.stderr.contains(golden + "/manifest.json"), "\(context): \(v.stderr)")
    #expect(v.stderr.contains("flick snapshot"), "\(context): \(v.stderr)")
    #expect(!v.stderr.contains("match"), "\(context): \(v.stderr)")
  }

  @Test func goldensWithoutTheirManifestAreRefusedWhateverIsLeft() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    let s = try V.run(["snapshot", V.twoCards, "--at", "0,end", "--motion", "--out", golden], in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    try FileManager.default.removeItem(atPath: golden + "/manifest.json")
    // An unchanged template would match every golden: still refused, in every record mode.
    for record in [[], ["--record", "missing"], ["--record", "all"]] {
      let v = try V.run(["verify", V.twoCards, "--against", golden, "--report", dir + "/r"] + record, in: dir)
      Self.expectRefused(v, golden, "\(record)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/r"), "\(record)")
    }
    #expect(!FileManager.default.fileExists(atPath: golden + "/manifest.json"))
    // Any one golden file is enough: a PNG (any case, hidden too), motion.txt or inputs/.
    let kept: [String] = ["0s.png", "motion.txt", "inputs"]
    for keep in kept {
      let folder = dir + "/only-" + keep
      try FileManager.default.copyItem(atPath: golden, toPath: folder)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name != keep {
        try FileManager.default.removeItem(atPath: folder + "/" + name)
      }
      Self.expectRefused(try V.run(["verify", V.twoCards, "--against", folder], in: dir), folder, keep)
    }
    for name in ["EXTRA.PNG", ".0s.png"] {
      let folder = dir + "/only-" + name
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: golden + "/0s.png", toPath: folder + "/" + name)
      Self.expectRefused(try V.run(["verify", V.twoCards, "--against", folder], in: dir), folder, name)
    }
  }

  @Test func goldensAreStillRecordedIntoAFolderWithoutGoldens() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // A missing folder and one with other files only: recorded (exit 1), with their manifest.
    let other = dir + "/other"
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    try "goldens of the cards\n".write(toFile: other + "/README.md", atomically: true, encoding: .utf8)
    for folder in [dir + "/new", other] {
      let v = try V.run(
        ["verify", V.twoCards, "--against", folder, "--at", "0", "--record", "missing", "--report", folder + "-r"],
        in: dir)
      expectEqual(v.status, 1, "\(v.stderr)")
      #expect(v.stderr.contains("recorded 1 golden"), "\(v.stderr)")
      #expect(FileManager.default.fileExists(atPath: folder + "/manifest.json"), "\(folder)")
      let again = try V.run(["verify", V.twoCards, "--against", folder], in: dir)
      expectEqual(again.status, 0, "\(again.stderr)")
    }
    // Without recording, a folder without goldens fails as missing goldens, not as refused.
    let empty = try V.run(["verify", V.twoCards, "--against", dir + "/none", "--at", "0"], in: dir)
    expectEqual(empty.status, 1, "\(empty.stderr)")
    #expect(empty.stderr.contains("missing"), "\(empty.stderr)")
  }

  @Test func onlyGoldenFilesCountAsGoldens() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for name in ["README.md", "a.PNG", ".b.png", "motion.txt", "inputs", "notes.txt"] {
      try Data().write(to: URL(fileURLWithPath: dir + "/" + name))
    }
    expectEqual(SnapshotManifest.goldenFiles(in: dir), [".b.png", "a.PNG", "inputs", "motion.txt"])
    #expect(throws: SnapshotError.self) { try SnapshotManifest.readGoldens(from: dir) }
    expectEqual(try SnapshotManifest.readGoldens(from: dir + "/none"), nil)
  }
}
