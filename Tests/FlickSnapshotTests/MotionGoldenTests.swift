import FlickExpectations
import FlickRaster
import FlickSnapshot
import FlickTestSupport
import FlickTesting
import Foundation
import Testing

/// Motion goldens (`snapshot --motion`, `verify --motion`) and every-frame snapshots (`--at all`).
@Suite struct MotionGoldenTests {
  typealias V = VerifyCommandTests

  static func springy(bounciness: Int, in dir: String) throws -> String {
    let text = """
      {
        flick: 1, name: "springy",
        canvas: { width: 120, height: 60, fps: 20, duration: 1.5, background: "#0F172A" },
        layers: [ { id: "badge", size: [30, 30], position: [25, 30], cornerRadius: 8, backgroundColor: "#22C55E" } ],
        timeline: [
          { target: "badge", animate: { positionX: 95 }, at: 0.1, curve: "spring(bounciness: \(bounciness), speed: 10)" },
        ],
      }
      """
    try text.write(toFile: dir + "/springy.json5", atomically: true, encoding: .utf8)
    return dir + "/springy.json5"
  }

  @Test func aBouncinessChangeFailsNamingTheLayerAndTheProperty() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.springy(bounciness: 8, in: dir)
    let golden = dir + "/golden"
    let s = try V.run(["snapshot", template, "--motion", "--out", golden], in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    let text = try String(contentsOfFile: golden + "/motion.txt", encoding: .utf8)
    #expect(text.hasPrefix("flick-motion 1\nproperty badge position"), "\(text.prefix(80))")
    // Every frame time (30) plus the event times (0.1 s begins, the settle time).
    let motion = try MotionGolden(text: text)
    expectGreaterOrEqual(motion.times.count, 31)
    #expect(motion.times.contains(0.1))
    // A checkout that turned its line ends into CRLF (git's `core.autocrlf`) reads the same.
    expectEqual(try MotionGolden(text: text.replacingOccurrences(of: "\n", with: "\r\n")), motion)
    let same = try V.run(["verify", template, "--against", golden, "--motion"], in: dir)
    expectEqual(same.status, 0, "\(same.stderr)")
    #expect(!same.stderr.contains("✗"))

    _ = try Self.springy(bounciness: 9, in: dir)
    let v = try V.run(["verify", template, "--against", golden, "--motion", "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(v.stderr.contains("badge.position"), "\(v.stderr)")
    #expect(v.stderr.contains("changed from t = "), "\(v.stderr)")
    #expect(v.stderr.contains("largest value difference"), "\(v.stderr)")
    let html = try String(contentsOfFile: dir + "/r/index.html", encoding: .utf8)
    #expect(html.contains("<svg"))
    #expect(html.contains("velocity[0]"))
    #expect(html.contains("badge.position"))
    // Plain verify checks the motion golden too.
    let all = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(all.status, 1, "\(all.stderr)")
    #expect(all.stderr.contains("✗ motion"), "\(all.stderr)")
    // Accepting the report takes today's motion as the golden; then it matches.
    let accept = try V.run(["accept", dir + "/r", "--against", golden], in: dir)
    expectEqual(accept.status, 0, "\(accept.stderr)")
    #expect(accept.stderr.contains("accepted motion"), "\(accept.stderr)")
    try expectEqual(V.run(["verify", template, "--against", golden, "--motion"], in: dir).status, 0)
    // A motion golden altered by hand is damaged, not a pass.
    try (text + "0 1 2 3 4\n").write(toFile: golden + "/motion.txt", atomically: true, encoding: .utf8)
    let damaged = try V.run(["verify", template, "--against", golden, "--motion"], in: dir)
    expectEqual(damaged.status, 3, "\(damaged.stderr)")
    #expect(damaged.stderr.contains("damaged golden input"), "\(damaged.stderr)")
  }

  @Test func verifyMotionWithoutAMotionGoldenIsInvalidInput() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.springy(bounciness: 8, in: dir)
    try expectEqual(V.run(["snapshot", template, "--at", "0", "--out", dir + "/g"], in: dir).status, 0)
    let v = try V.run(["verify", template, "--against", dir + "/g", "--motion"], in: dir)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(v.stderr.contains("no motion golden"), "\(v.stderr)")
  }

  @Test func everyFrameIsSnapshottedAndTheReportShowsTheFailingRange() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    let s = try V.run(["snapshot", V.twoCards, "--at", "all", "--out", golden], in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.frames.map(\.file), (0..<10).map { "frame\($0).png" })
    let v = try V.run(["verify", V.twoCards, "--against", golden, "--report", dir + "/r"] + V.recolour, in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(v.stderr.contains("0 of 10 match (10 changed)"), "\(v.stderr)")
    let html = try String(contentsOfFile: dir + "/r/index.html", encoding: .utf8)
    #expect(html.contains("failing range: frame0 … frame9"))
    #expect(html.contains("class=filmstrip"))
  }

  @Test func assertMotionSnapshotRecordsOnceThenNamesTheChangedProperty() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.springy(bounciness: 8, in: dir)
    let snaps = dir + "/snaps"
    withKnownIssue("a written golden fails once") {
      assertMotionSnapshot(of: template, named: "springy", record: .missing, snapshotDirectory: snaps)
    }
    #expect(FileManager.default.fileExists(atPath: snaps + "/springy.motion.txt"))
    let same = assertMotionSnapshot(of: template, named: "springy", record: RecordMode.none, snapshotDirectory: snaps)
    #expect(same.isEmpty)
    _ = try Self.springy(bounciness: 9, in: dir)
    var changes: [String] = []
    withKnownIssue("the motion changed") {
      changes = assertMotionSnapshot(of: template, named: "springy", record: RecordMode.none, snapshotDirectory: snaps)
    }
    #expect(changes.count == 1 && changes[0].hasPrefix("badge.positionX: changed from t = "), "\(changes)")
  }

  /// A golden is read once and bounded: a file over the 64 MiB text cap or a FIFO in its place is
  /// a failure that says why, not a read of the whole file, a wait, or "no motion golden".
  @Test(arguments: ["large", "fifo"])
  func aGoldenThatCannotBeReadSaysWhy(_ kind: String) throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.springy(bounciness: 8, in: dir)
    let snaps = dir + "/snaps"
    try FileManager.default.createDirectory(atPath: snaps, withIntermediateDirectories: true)
    let golden = snaps + "/springy.motion.txt"
    if kind == "fifo" {
      #expect(mkfifo(golden, 0o600) == 0)
    } else {
      #expect(FileManager.default.createFile(atPath: golden, contents: nil))
      #expect(truncate(golden, off_t(ContainedPath.maximumTextBytes + 1)) == 0)
    }
    withKnownIssue("the golden cannot be read") {
      assertMotionSnapshot(of: template, named: "springy", record: RecordMode.none, snapshotDirectory: snaps)
    } matching: { issue in
      String(describing: issue).contains("cannot read the motion golden")
    }
  }
}
