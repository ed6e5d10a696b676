import FlickMotion
import FlickRaster
import FlickScene
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// The up-front memory estimate counts each allocation class, refuses with the estimate, the
/// cap and the class that dominates, runs with fewer workers when that fits, and the work cap
/// refuses a render of days. (The estimate is compared with measured peaks in
/// `MemoryCapCLITests`.)
@Suite struct MemoryEstimateTests {
  static func scene(size: Double = 512, blur: MotionBlur? = nil, layers: [Layer] = [], fps: Int = 10) -> Scene {
    var scene = Scene(size: Size(width: size, height: size), fps: fps, duration: 1, layers: layers)
    scene.motionBlur = blur
    return scene
  }

  static func session(_ scene: Scene, jobs: Int = 4, memory: Int = 8 << 30) throws -> RenderSession {
    var session = RenderSession(
      scene: scene, outputs: [try OutputTarget(path: "/tmp/flick-estimate-unused/x.mp4")],
      pipeline: RenderPipeline(jobs: jobs))
    session.limits.maximumMemory = memory
    return session
  }

  @Test func motionBlurSamplesAreCountedPerWorker() throws {
    let frame = 2048 * 2048 * 4
    let plain = try Self.session(Self.scene(size: 2048)).memoryEstimate(jobs: 2)
    let blurred = try Self.session(Self.scene(size: 2048, blur: MotionBlur(samples: 64))).memoryEstimate(jobs: 2)
    expectEqual(plain.bytes[.motionBlur], 0)
    expectEqual(blurred.bytes[.motionBlur], 2 * 65 * frame)
    expectEqual(blurred.dominant, .motionBlur)
    expectEqual(blurred.total - plain.total, 2 * 65 * frame)
  }

  @Test func layerSurfacesImagesAndEncodersAreCounted() throws {
    var card = Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 50), shadowOpacity: 0.5, shadowRadius: 10)
    card.backdrop = LayerBackdrop(.regular)
    let plain = try Self.session(Self.scene()).memoryEstimate(jobs: 1)
    let shadowed = try Self.session(Self.scene(layers: [card])).memoryEstimate(jobs: 1)
    // Shadow: grown by 3 × radius + offset (33) on each side, a pixel of margin, twice; backdrop: two frames.
    expectEqual(shadowed.bytes[.scratch], 2 * 168 * 118 * 4 + 2 * 512 * 512 * 4)
    expectEqual(plain.bytes[.scratch], 0)
    expectEqual(plain.bytes[.encoders], MemoryEstimate.encoderBytes(.mp4, width: 512, height: 512))
    expectEqual(plain.bytes[.program], MemoryEstimate.programBytes)
    // A custom content hook adds its bytes per worker.
    let hooked = MemoryEstimate(
      scene: Self.scene(layers: [card]), width: 512, height: 512, scale: 1, jobs: 3, framesInFlight: 4, outputs: [],
      content: { layer, _, _ in layer.id == "card" ? [.lottie: 1000] : [:] })
    expectEqual(hooked.bytes[.lottie], 3000)
    expectEqual(hooked.bytes[.encoders], 0)
  }

  @Test func aLottieLayerIsCountedFromItsFile() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("FlickRasterTests/Fixtures/lottie/masks-precomp.json").path
    let file = try LottieFile.load(path: path)
    let scene = file.scene()
    let width = Int(file.size.width.rounded(.up)), height = Int(file.size.height.rounded(.up))
    let estimate = MemoryEstimate(
      scene: scene, width: width, height: height, scale: 1, jobs: 3, framesInFlight: 4, outputs: [])
    // The layer fills the frame; what it draws is clipped to the frame.
    let drawn = width * height
    let perWorker = try #require(Renderer.lottieBytes(path: path, drawnPixels: drawn))
    expectEqual(perWorker, file.estimatedBytes(drawnPixels: drawn, workers: 1))
    expectGreater(perWorker, 2 * drawn * 4, "rlottie's item coverage counts beyond its two surfaces")
    expectEqual(estimate.bytes[.lottie], 3 * perWorker)
  }

  @Test func overTheCapIsRefusedNamingEstimateCapAndClass() throws {
    let session = try Self.session(Self.scene(size: 2048, blur: MotionBlur(samples: 64)), memory: 1 << 30)
    #expect(session.fittedPipeline == nil)
    let error = try #require(throws: VideoError.self) { try session.validate() }
    #expect(error.isInvalidInput)
    let text = error.description
    #expect(text.contains("needs about"), "\(text)")
    #expect(text.contains("most of it motion-blur samples"), "\(text)")
    #expect(text.contains("memory cap of 1.0 GiB"), "\(text)")
    #expect(text.contains("--max-memory"), "\(text)")
  }

  @Test func fewerWorkersAreUsedWhenThatFits() throws {
    let scene = Self.scene(size: 1024, blur: MotionBlur(samples: 32))
    let wide = try Self.session(scene, jobs: 8)
    // The smallest cap that leaves the memory watch's margin above three workers' estimate.
    let cap = MemoryBudgetTests.capFitting(wide.memoryEstimate(jobs: 3).total, frameBytes: 1024 * 1024 * 4)
    let session = try Self.session(scene, jobs: 8, memory: cap)
    #expect(throws: Never.self) { try session.validate() }
    let fitted = try #require(session.fittedPipeline)
    expectEqual(fitted.jobs, 3)
    expectEqual(fitted.framesInFlight, 4 + session.encoderLead)
    try expectEqual(Self.session(scene, jobs: 8).fittedPipeline?.jobs, 8)
  }

  @Test func theWorkCapRefusesRendersOfDays() throws {
    // 4096² × 216,000 frames is 3.6 × 10¹² pixels: refused by default.
    var long = Self.scene(size: 4096, fps: 60)
    long.duration = 3600
    let session = try Self.session(long, memory: 1 << 40)
    let error = try #require(throws: VideoError.self) { try session.validate() }
    #expect(error.isInvalidInput, "\(error.description)")
    #expect(error.description.contains("work cap of 1000000000000"), "\(error.description)")
    // Motion-blur samples count: 64 samples of 2048² over 2 s at 60 fps pass a cap of 10¹⁰.
    var blurred = try Self.session(Self.scene(size: 2048, blur: MotionBlur(samples: 64), fps: 60), memory: 1 << 40)
    blurred.limits.maximumWork = 10_000_000_000
    let blurError = try #require(throws: VideoError.self) { try blurred.validate() }
    #expect(blurError.description.contains("× 64 motion-blur samples"), "\(blurError.description)")
  }
}
