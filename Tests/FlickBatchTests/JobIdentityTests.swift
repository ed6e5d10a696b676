@testable import FlickBatch
import FlickExpectations
import FlickRaster
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
}
