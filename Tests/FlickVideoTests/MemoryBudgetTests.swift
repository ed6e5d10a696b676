import FlickExpectations
import FlickMotion
import FlickScene
@testable import FlickVideo
import Testing

/// The up-front memory check leaves the memory watch's margin: a cap it accepts is one the watch
/// (which fires at the cap less ``MemoryWatch/margin(cap:frameBytes:)``) does not stop a render
/// within its estimate under, and a refusal names the smallest cap that fits.
@Suite struct MemoryBudgetTests {
  static func session(size: Double, output: String = "x.gif") throws -> RenderSession {
    RenderSession(
      scene: Scene(size: Size(width: size, height: size), fps: 10, duration: 1, layers: []),
      outputs: [try OutputTarget(path: "/tmp/flick-budget-unused/\(output)")],
      pipeline: RenderPipeline(jobs: 1, framesInFlight: 1))
  }

  /// Where the watch fires under `cap` for `session`'s frames, in bytes.
  static func watchFires(_ session: RenderSession, cap: Int) -> Int {
    cap - MemoryWatch.margin(cap: cap, frameBytes: session.width * session.height * 4)
  }

  /// The smallest cap under which the watch fires at or above `bytes` for frames of `frameBytes`
  /// bytes (a binary search over ``MemoryWatch/margin(cap:frameBytes:)``, not the rule under test).
  static func capFitting(_ bytes: Int, frameBytes: Int) -> Int {
    var (low, high) = (bytes, 2 * bytes + (1 << 30))
    while low < high {
      let mid = (low + high) / 2
      if mid - MemoryWatch.margin(cap: mid, frameBytes: frameBytes) >= bytes { high = mid } else { low = mid + 1 }
    }
    return low
  }

  /// The cap `message` names (`--max-memory 187M or more`), in bytes.
  static func namedCap(_ message: String) -> Int? {
    message.firstMatch(of: /--max-memory ([0-9]+)M or more/).flatMap { Int($0.output.1) }.map { $0 << 20 }
  }

  @Test(arguments: [(64.0, "x.gif"), (512, "x.mp4"), (2048, "x.webm"), (4200, "x.gif")])
  func aCapAtTheEstimateIsRefusedNamingTheCapThatFits(size: Double, output: String) throws {
    var session = try Self.session(size: size, output: output)
    let estimate = session.memoryEstimate(jobs: 1, lead: 0).total
    // The cap the old check accepted: the estimate itself. The watch would stop such a run
    // before it reached its estimate.
    session.limits.maximumMemory = estimate
    #expect(Self.watchFires(session, cap: estimate) < estimate)
    #expect(session.fittedPipeline == nil, "a cap the watch stops the render under is refused up front")
    let error = try #require(throws: VideoError.self) { try session.validate() }
    let text = error.description
    #expect(text.contains("memory watch's margin"), "\(text)")
    let cap = try #require(Self.namedCap(text), "\(text)")
    // The cap named fits, with the watch's margin kept; one MiB less does not.
    session.limits.maximumMemory = cap
    #expect(throws: Never.self) { try session.validate() }
    expectGreaterOrEqual(Self.watchFires(session, cap: cap), estimate)
    session.limits.maximumMemory = cap - (1 << 20)
    #expect(session.fittedPipeline == nil, "\(text)")
  }

  @Test func fewerWorkersFitUnderTheCapLessTheMargin() throws {
    var session = try Self.session(size: 1024, output: "x.mp4")
    session.pipeline = RenderPipeline(jobs: 4)
    for cap in stride(from: 100 << 20, through: 900 << 20, by: 37 << 20) {
      session.limits.maximumMemory = cap
      guard let fitted = session.fittedPipeline else { continue }
      let lead = fitted.yieldsToEncoder ? session.encoderLead : 0
      let used = session.memoryEstimate(jobs: fitted.jobs, lead: lead).total
      expectLessOrEqual(used, Self.watchFires(session, cap: cap), "cap \(cap)")
    }
  }
}
