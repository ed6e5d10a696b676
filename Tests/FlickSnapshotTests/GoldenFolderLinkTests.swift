import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// A goldens folder from a pull request with symbolic links planted in it: under the predictable
/// names of the temporaries `snapshot`, `verify --record` and `accept` write (`.NAME.PID.tmp`),
/// and as `inputs/`. Nothing outside the goldens is written, created or removed through them.
@Suite struct GoldenFolderLinkTests {
  typealias V = VerifyCommandTests

  /// Goldens of two-cards at 0 in `DIR/golden` and a folder `DIR/victim` holding `secret.txt`.
  struct Box {
    let dir: String
    var golden: String { dir + "/golden" }
    var victim: String { dir + "/victim" }
    var secret: String { victim + "/secret.txt" }
    let secretBytes = Data("precious, not Flick's".utf8)

    init() throws {
      dir = try V.temporaryDirectory()
      try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", golden]).status, 0)
      try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
      try secretBytes.write(to: URL(fileURLWithPath: secret))
    }

    /// The victim folder holds `secret.txt` as it was and nothing else.
    func victimIntact() -> Bool {
      FileManager.default.contents(atPath: secret) == secretBytes
        && (try? FileManager.default.contentsOfDirectory(atPath: victim)) == ["secret.txt"]
    }

    /// Runs flick with `args` from a shell that first plants, in the goldens folder, the
    /// temporaries of the process it becomes (`exec` keeps the PID): `.0s.png.PID.tmp` linked to
    /// `secret.txt`, `.manifest.json.PID.tmp` linked to a file that does not exist yet.
    func runWithPlantedTemporaries(_ args: [String], in directory: String? = nil) throws -> ProcessRunner.Output {
      let script =
        "ln -s '\(secret)' '\(golden)/.0s.png.'$$'.tmp' && "
        + "ln -s '\(victim)/manifest.txt' '\(golden)/.manifest.json.'$$'.tmp' && exec \"$0\" \"$@\""
      var env = ProcessInfo.processInfo.environment
      env["CI"] = nil
      env["FLICK_RECORD"] = nil
      env["FLICK_ARTIFACTS"] = nil
      return try ProcessRunner.run("/bin/sh", ["-c", script, V.flick] + args, environment: env, directory: directory)
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }
  }

  @Test func theTemporaryWriterReplacesALinkInsteadOfWritingThroughIt() throws {
    let box = try Box()
    defer { box.remove() }
    let temporary = box.golden + "/.0s.png.1.tmp"
    try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: box.secret)
    try SnapshotCommit.fileWriter(Data("new".utf8), temporary)
    #expect(box.victimIntact())
    expectEqual(FileManager.default.contents(atPath: temporary), Data("new".utf8))
    let type = try FileManager.default.attributesOfItem(atPath: temporary)[.type] as? FileAttributeType
    expectEqual(type, .typeRegular)
  }

  @Test func snapshotNeverWritesThroughAPlantedTemporary() throws {
    let box = try Box()
    defer { box.remove() }
    let r = try box.runWithPlantedTemporaries(["snapshot", V.twoCards, "--at", "0", "--out", box.golden])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(box.victimIntact())
    try expectEqual(V.run(["verify", V.twoCards, "--against", box.golden], in: box.dir).status, 0)
  }

  @Test func verifyRecordNeverWritesThroughAPlantedTemporary() throws {
    let box = try Box()
    defer { box.remove() }
    let r = try box.runWithPlantedTemporaries(
      ["verify", V.twoCards, "--against", box.golden, "--at", "0,end", "--record", "missing"], in: box.dir)
    expectEqual(r.status, 1, "\(r.stderr)")
    #expect(box.victimIntact())
    try expectEqual(SnapshotManifest.read(from: box.golden)?.frames.map(\.file), ["0s.png", "end.png"])
  }

  @Test func acceptNeverWritesThroughAPlantedTemporary() throws {
    let box = try Box()
    defer { box.remove() }
    let report = box.dir + "/report"
    try expectEqual(
      V.run(["verify", V.twoCards, "--against", box.golden, "--report", report] + V.recolour).status, 1)
    let r = try box.runWithPlantedTemporaries(["accept", report, "--against", box.golden])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(box.victimIntact())
    try expectEqual(V.run(["verify", V.twoCards, "--against", box.golden] + V.recolour, in: box.dir).status, 0)
  }

  // MARK: - inputs/

  /// `goldens/inputs` linked to a folder holding a file named like a stored input (64 hex digits).
  func linkInputs(_ box: Box) throws -> String {
    let stored = box.victim + "/" + String(repeating: "ab", count: 32)
    try Data("someone else's".utf8).write(to: URL(fileURLWithPath: stored))
    try FileManager.default.removeItem(atPath: box.golden + "/inputs")
    try FileManager.default.createSymbolicLink(atPath: box.golden + "/inputs", withDestinationPath: box.victim)
    return stored
  }

  @Test func acceptRefusesALinkedInputsFolderAndRemovesNothingThroughIt() throws {
    let box = try Box()
    defer { box.remove() }
    let report = box.dir + "/report"
    try expectEqual(
      V.run(["verify", V.twoCards, "--against", box.golden, "--report", report] + V.recolour).status, 1)
    // A report without inputs/: the accepted goldens store none, and used to remove every stored
    // input the new manifest does not list, in the link's target.
    try FileManager.default.removeItem(atPath: report + "/inputs")
    let stored = try linkInputs(box)
    let goldenBefore = try Data(contentsOf: URL(fileURLWithPath: box.golden + "/0s.png"))
    let a = try V.run(["accept", report, "--against", box.golden])
    expectEqual(a.status, 2, "\(a.stderr)")
    #expect(a.stderr.contains("symbolic link"), "\(a.stderr)")
    #expect(FileManager.default.fileExists(atPath: stored))
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: box.golden + "/0s.png")), goldenBefore)
    // snapshot and verify --record refuse it too, whether or not they have inputs to store.
    let s = try V.run(["snapshot", V.twoCards, "--at", "0", "--out", box.golden])
    expectEqual(s.status, 2, "\(s.stderr)")
    #expect(FileManager.default.fileExists(atPath: stored))
  }

  @Test func aCommitChecksTheInputsFolderEvenWithNoInputsToStore() throws {
    let box = try Box()
    defer { box.remove() }
    let stored = try linkInputs(box)
    var manifest = try #require(try SnapshotManifest.read(from: box.golden))
    manifest.inputs = nil
    let commit = try SnapshotCommit(
      directory: box.golden, frames: [("0s.png", Frame(width: 320, height: 180))], manifest: manifest,
      previous: manifest)
    #expect(throws: SnapshotError.self) { try commit.apply() }
    #expect(FileManager.default.fileExists(atPath: stored))
  }
}
