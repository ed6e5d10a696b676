import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// What a merge says of a chunk it cannot use: a stamp that is not the chunk's id is `stale`, a
/// file or frame missing beside a current stamp is `incomplete`, naming the file; and what
/// `flick run` says of an output folder it cannot write: the folder's own error, exit 3.
@Suite struct ChunkProblemTests {
  typealias F = BatchFixtures
  typealias C = ChunkFixtures

  /// The merge's message for the chunked clip of `dir`, after `damage`.
  static func mergeError(_ damage: (String) throws -> Void) throws -> (status: Int32, stderr: String) {
    let dir = try C.copy(try C.prepared.get().folder)
    defer { try? FileManager.default.removeItem(at: dir) }
    try damage(C.chunks(dir).path)
    let r = try F.flick(["merge", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    return (r.status, r.stderr.replacingOccurrences(of: C.chunks(dir).path, with: "CHUNKS"))
  }

  @Test func aMissingFrameIsNamedNotTakenForAStaleStamp() throws {
    let r = try Self.mergeError { try FileManager.default.removeItem(atPath: $0 + "/1.frames/0005.png") }
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("is incomplete (frame CHUNKS/1.frames/0005.png is missing)"), "\(r.stderr)")
    #expect(!r.stderr.contains("stamp"), "\(r.stderr)")
  }

  @Test func aMissingChunkFileIsNamed() throws {
    let r = try Self.mergeError { try FileManager.default.removeItem(atPath: $0 + "/2.mp4") }
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("is missing (CHUNKS/2.mp4 does not exist)"), "\(r.stderr)")
  }

  @Test func aStampThatIsNotTheIdIsStale() throws {
    let r = try Self.mergeError { try Data("0123\n".utf8).write(to: URL(fileURLWithPath: $0 + "/.0.mp4.flick-stamp")) }
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("is stale (its stamp is not its id)"), "\(r.stderr)")
    let none = try Self.mergeError { try FileManager.default.removeItem(atPath: $0 + "/.0.frames.flick-stamp") }
    #expect(none.stderr.contains("is stale (it has no stamp)"), "\(none.stderr)")
  }

  /// A read-only output folder: the report's lock cannot be made, and the message says why (not
  /// the open's "No such file or directory" for a folder it never made).
  @Test func aReadOnlyOutputFolderIsReportedAsSuch() throws {
    let dir = try C.copy(try C.prepared.get().folder)
    defer { try? FileManager.default.removeItem(at: dir) }
    try """
    { flick: 1, output: "ro", renders: [ { template: "long.json5", formats: ["gif"] } ] }
    """.write(to: dir.appendingPathComponent("ro.json5"), atomically: true, encoding: .utf8)
    let plan = try F.flick(["plan", "ro.json5", "-o", "ro.json"], in: dir, environment: F.cleanEnvironment)
    expectEqual(plan.status, 0, "\(plan.stderr)")
    let folder = dir.appendingPathComponent("ro").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    guard let locked = UnwritableFolder(folder) else { return }
    defer { locked.undo() }
    let r = try F.flick(["run", "ro.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("cannot create the folder "), "\(r.stderr)")
    #expect(r.stderr.contains("ro/.flick/reports for the lock "), "\(r.stderr)")
    #expect(!r.stderr.contains("No such file or directory"), "\(r.stderr)")
  }
}
