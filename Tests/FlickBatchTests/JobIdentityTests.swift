@testable import FlickBatch
import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import FlickVideo
import Testing

/// A job id changes with whatever changes the job's bytes — here the gifsicle that rewrites every
/// GIF (same pixels, other bytes) — and with nothing else about the machine.
@Suite struct JobIdentityTests {
  @Test func theGifsicleVersionIsPartOfTheId() {
    let renderer = RendererFingerprint.current
    let with = JobIdentity(flickVersion: "1", renderer: renderer, gifsicle: "LCDF Gifsicle 1.93")
    let other = JobIdentity(flickVersion: "1", renderer: renderer, gifsicle: "LCDF Gifsicle 1.94")
    let without = JobIdentity(flickVersion: "1", renderer: renderer, gifsicle: "none")
    #expect(with.header.contains("gifsicle LCDF Gifsicle 1.93"))
    expectNotEqual(JobIdentity.hash(with.header), JobIdentity.hash(other.header))
    expectNotEqual(JobIdentity.hash(with.header), JobIdentity.hash(without.header))
    expectEqual(
      JobIdentity.hash(with.header),
      JobIdentity.hash(JobIdentity(flickVersion: "1", renderer: renderer, gifsicle: "LCDF Gifsicle 1.93").header))
  }

  /// The identity names the gifsicle a render would run: none when `FLICK_GIFSICLE=none`, and the
  /// version line of the installed one otherwise.
  @Test func theIdentityFollowsTheGifsicleARenderRuns() {
    expectEqual(GIFOptimizer.identity(environment: ["FLICK_GIFSICLE": "none"]), "none")
    expectEqual(GIFOptimizer.identity(environment: ["PATH": "/nonexistent"]), "none")
    if let installed = GIFOptimizer.locate() {
      #expect(installed.version.lowercased().contains("gifsicle"))
      expectEqual(GIFOptimizer.identity(), installed.version)
    }
  }

  /// An input's hash is of its bytes, read once through the bounded reader: a FIFO or a device in
  /// its place hashes as "missing" at once (not waited on), and so does a file over the cap.
  @Test func anInputThatIsNotAReadableRegularFileHashesAsMissing() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-job-hash").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Data("pixels".utf8).write(to: URL(fileURLWithPath: dir + "/a.png"))
    try FIFOGuard.make(dir + "/pipe.png")
    try FIFOGuard.sparseFile(dir + "/huge.png", bytes: (256 << 20) + 1)
    try Data("pixels".utf8).write(to: URL(fileURLWithPath: dir + "/same.png"))
    var identity = JobIdentity(flickVersion: "1", renderer: RendererFingerprint.current, gifsicle: "none")
    let digest = identity.hash(file: dir + "/a.png")
    #expect(digest != "missing" && digest == identity.hash(file: dir + "/same.png"), "the hash of the bytes")
    let run = FIFOGuard.ends(fifo: dir + "/pipe.png") {
      var fresh = JobIdentity(flickVersion: "1", renderer: RendererFingerprint.current, gifsicle: "none")
      if fresh.hash(file: dir + "/pipe.png") != "missing" { throw CocoaError(.fileReadUnknown) }
    }
    #expect(run.ended && !run.threw, "a FIFO hashed as missing, not waited on: \(run)")
    expectEqual(identity.hash(file: dir + "/huge.png"), "missing")
    expectEqual(identity.hash(file: dir + "/none.png"), "missing")
  }
}
