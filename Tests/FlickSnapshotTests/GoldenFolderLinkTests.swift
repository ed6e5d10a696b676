import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// A goldens folder from a pull request with symbolic links planted in it under the predictable
/// names of the temporaries `snapshot`, `verify --record` and `accept` write (`.NAME.PID.tmp`):
/// nothing outside the goldens is written or created through them.
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
}
