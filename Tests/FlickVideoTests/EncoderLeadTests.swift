import FlickMotion
import FlickScene
@testable import FlickVideo
import FlickExpectations
import Testing

/// A render piped to ffmpeg lets its workers draw a few frames further ahead (within a byte
/// budget), counts them in the memory estimate, and gives them up under a tight cap before it
/// gives up a worker.
@Suite struct EncoderLeadTests {
  static func session(width: Double, height: Double, output: String = "x.mp4", jobs: Int = 2) throws -> RenderSession {
    RenderSession(
      scene: Scene(size: Size(width: width, height: height), fps: 10, duration: 1, layers: []),
      outputs: [try OutputTarget(path: "/tmp/flick-lead-unused/\(output)")], pipeline: RenderPipeline(jobs: jobs))
  }

  @Test func theLeadFitsItsBudget() throws {
    // An MP4 alone: frames wait as yuv420p planes (1.5 bytes a pixel).
    try expectEqual(Self.session(width: 960, height: 540).encoderLead, 32)
    try expectEqual(Self.session(width: 1920, height: 1080).encoderLead, 21)
    try expectEqual(Self.session(width: 3840, height: 2160).encoderLead, 5)
    // Frames that keep their pixels (and a straight-alpha copy): 8 bytes a pixel, 9.5 with planes.
    try expectEqual(Self.session(width: 1920, height: 1080, output: "x.webm").encoderLead, 4)
    try expectEqual(Self.session(width: 960, height: 540, output: "x.mov").encoderLead, 16)
    try expectEqual(Self.session(width: 961, height: 541).encoderLead, 13, "odd sides: ffmpeg converts the pixels")
    for size in [(960.0, 540.0), (1920, 1080), (1280, 720), (3840, 2160), (961, 541)] {
      let session = try Self.session(width: size.0, height: size.1)
      let frame = MemoryEstimate.bytesPerFrameInFlight(width: session.width, height: session.height, outputs: [.mp4])
      expectLessOrEqual(session.encoderLead * frame, RenderSession.encoderLeadBytes)
      expectLessOrEqual(session.encoderLead, RenderSession.maximumEncoderLead)
    }
  }

  @Test func onlyAnEncoderGetsALead() throws {
    try expectEqual(Self.session(width: 960, height: 540, output: "frames/").encoderLead, 0)
    try expectEqual(Self.session(width: 960, height: 540, output: "x.bgra").encoderLead, 0)
    // A GIF's frames are spooled until its palette is known: nothing reads them during the render.
    try expectEqual(Self.session(width: 960, height: 540, output: "x.gif").encoderLead, 0)
    try expectGreater(Self.session(width: 960, height: 540, output: "x.apng").encoderLead, 0)
    try #expect(Self.session(width: 960, height: 540, output: "x.gif").fittedPipeline?.yieldsToEncoder == false)
    try #expect(Self.session(width: 960, height: 540, output: "frames/").fittedPipeline?.yieldsToEncoder == false)
  }

  @Test func theEstimateCountsTheLead() throws {
    let session = try Self.session(width: 960, height: 540)
    let frame = MemoryEstimate.bytesPerFrameInFlight(width: 960, height: 540, outputs: [.mp4])
    let with = session.memoryEstimate(jobs: 2)
    let without = session.memoryEstimate(jobs: 2, lead: 0)
    expectEqual(frame, 960 * 540 * 3 / 2, "planes alone")
    expectEqual(with.total - without.total, 32 * frame)
    expectEqual(with.bytes[.frames]! - without.bytes[.frames]!, 32 * frame)
    let fitted = try #require(session.fittedPipeline)
    expectEqual(fitted.jobs, 2)
    expectEqual(fitted.framesInFlight, session.pipeline.framesInFlight + 32)
    #expect(fitted.yieldsToEncoder, "workers a whole lead ahead yield to the encoder")
  }

  @Test func aTightCapDropsTheLeadBeforeAWorker() throws {
    var session = try Self.session(width: 960, height: 540, jobs: 4)
    // The smallest cap that leaves the watch's margin above the estimate.
    session.limits.maximumMemory = MemoryBudgetTests.capFitting(
      session.memoryEstimate(jobs: 4, lead: 0).total, frameBytes: session.width * session.height * 4)
    let fitted = try #require(session.fittedPipeline)
    expectEqual(fitted.jobs, 4)
    expectEqual(fitted.framesInFlight, session.pipeline.framesInFlight)
    #expect(!fitted.yieldsToEncoder, "without a lead the workers keep their priority")
    // One byte less: three workers, with the lead again when it fits beside them.
    session.limits.maximumMemory -= 1
    let fewer = try #require(session.fittedPipeline)
    expectEqual(fewer.jobs, 3)
    let lead = fewer.framesInFlight - (session.pipeline.framesInFlight - 1)
    expectLessOrEqual(
      session.memoryEstimate(jobs: 3, lead: lead).total,
      MemoryBudgetTests.watchFires(session, cap: session.limits.maximumMemory))
    #expect(lead == 0 || lead == session.encoderLead)
  }
}
