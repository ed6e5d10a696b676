import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// What a `flick run` killed outright left beside a job's outputs (its PID no longer running) is
/// removed when the job renders again; the temporaries of other outputs in the same folder,
/// which shards on other machines may be writing, are left alone. A chunk's temporaries go as
/// well when its job is up to date (another run finished it since), and `flick merge` sweeps
/// every chunk folder of the plan.
@Suite struct RunStaleTemporaryTests {
  typealias F = BatchFixtures

  @Test func aJobSweepsItsOwnOutputsTemporariesOnly() throws {
    let dir = try ChunkEqualityTests.workspace(GalleryPosterTests.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.runUnblocked()
    gone.waitUntilExit()
    let dead = gone.processIdentifier
    let folder = dir.appendingPathComponent("out/clip/default").path
    let own = [".128x72.mp4.\(dead).partial", ".128x72.mp4.\(dead).frames"]
    let other = [".256x144.mp4.\(dead).partial"]
    for name in own + other { try Data("left".utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
    let run = try F.flick(["run", "plan.json", "--force", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(run.status, 0, "\(run.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".\(dead).") }
    expectEqual(left.sorted(), other, "\(left)")
  }

  /// A PID that no longer runs.
  static func deadPID() throws -> Int32 {
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.runUnblocked()
    gone.waitUntilExit()
    return gone.processIdentifier
  }

  /// A chunk's MP4 temporary and frame folder temporary of a dead PID and of a live one (this
  /// test process), left in the first chunk folder of an up-to-date, unmerged chunked clip.
  static func chunkTemporaries(_ dir: URL, dead: Int32) throws -> (gone: [String], kept: [String]) {
    let folder = ChunkFixtures.chunks(dir).path
    let live = ProcessInfo.processInfo.processIdentifier
    func make(_ pid: Int32) throws -> [String] {
      let file = ".0.mp4.\(pid).partial", frames = ".0.frames.\(pid).partial"
      try Data("left".utf8).write(to: URL(fileURLWithPath: folder + "/" + file))
      try FileManager.default.createDirectory(atPath: folder + "/" + frames, withIntermediateDirectories: false)
      try Data("left".utf8).write(to: URL(fileURLWithPath: folder + "/" + frames + "/0000.png"))
      return [file, frames].sorted()
    }
    return (try make(dead), try make(live))
  }

  /// The temporaries in the first chunk folder of `dir`.
  static func temporaries(_ dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: ChunkFixtures.chunks(dir).path).filter {
      $0.hasSuffix(".partial")
    }
    .sorted()
  }

  @Test(arguments: ["run", "merge"])
  func aKilledShardsChunkTemporariesGoWhenTheChunkIsUpToDate(_ command: String) throws {
    let dir = try ChunkFixtures.copy(try ChunkFixtures.prepared.get().folder)
    defer { try? FileManager.default.removeItem(at: dir) }
    let (gone, kept) = try Self.chunkTemporaries(dir, dead: try Self.deadPID())
    expectEqual(try Self.temporaries(dir), (gone + kept).sorted())
    // Every chunk is up to date: the run renders nothing, the merge only joins.
    let r = try F.flick([command, "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(r.status, 0, "\(r.stderr)")
    expectEqual(try Self.temporaries(dir), kept.sorted())
  }
}
