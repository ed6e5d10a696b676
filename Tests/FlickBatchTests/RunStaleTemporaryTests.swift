import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// What a `flick run` killed outright left beside a job's outputs (its PID no longer running) is
/// removed when the job renders again; the temporaries of other outputs in the same folder,
/// which shards on other machines may be writing, are left alone.
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
}
