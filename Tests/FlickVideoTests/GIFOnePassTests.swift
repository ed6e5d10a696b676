import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// A GIF rasterises every frame once: its frames are kept in a spool for the encoding pass
/// instead of being rendered again, and the GIF is byte for byte the one ffmpeg's two passes
/// (palettegen, then paletteuse) make from those frames, as before, whether Flick computed the
/// palette (the default) or ffmpeg did.
@Suite struct GIFOnePassTests {
  static let templates = TestSupport.root.appendingPathComponent("Templates")
  static let bundled = [
    "card-swap", "chained-sequence", "decay-flick", "hello", "property-animator",
    "rotating-cover", "spring-gallery",
  ]

  /// The GIF the two ffmpeg commands make when each reads every frame of the render from a file
  /// (at the render's rate; a GIF at a lower rate resamples with ffmpeg's own `fps` filter in
  /// both passes, as Flick's commands did before Flick chose the frames itself).
  static func referenceGIF(scene: Scene, scale: Double, options: EncodingOptions, in dir: URL) throws -> Data {
    let width = Int((scene.size.width * scale).rounded())
    let height = Int((scene.size.height * scale).rounded())
    // The frames exactly as a GIF receives them: straight alpha, rendered by the reference renderer.
    let raw = dir.appendingPathComponent("frames.bgra")
    _ = FileManager.default.createFile(atPath: raw.path, contents: nil)
    let handle = try FileHandle(forWritingTo: raw)
    for n in 0..<scene.frameCount {
      let frame = try Renderer(scale: scale).render(scene.renderTree(at: scene.time(ofFrame: n)))
      let prepared = PreparedFrame(index: n, frame: frame, layouts: .premultipliedAndStraight)
      handle.write(Data(prepared.bytes(straight: true)))
    }
    try handle.close()
    var options = options
    options.padColor = 0
    // ffmpeg's own two passes: its palettegen, then paletteuse.
    options.gifPalette = .ffmpeg
    let output = dir.appendingPathComponent("reference.gif").path
    let gifFPS = FrameSchedule.gifFPS(renderFPS: scene.fps, requested: options.gifFPS)
    // The last delay that keeps the GIF's length (ffmpeg repeats the one before otherwise).
    let plan = FrameSchedule.Output(format: .gif, renderFPS: scene.fps, fps: gifFPS, renderFrames: scene.frameCount)
    let command = try FFmpegCommand(
      format: .gif, width: width, height: height, fps: scene.fps, options: options, output: output,
      palette: dir.appendingPathComponent("palette").path, gifFinalDelay: plan.gifFinalDelay)
    func resampled(_ argument: String) -> String {
      guard gifFPS != scene.fps else { return argument }
      if argument.contains("paletteuse"), let frames = argument.range(of: "[0:v]") {
        let rest = argument[frames.upperBound...]
        return argument[..<frames.upperBound] + "fps=\(gifFPS)" + (rest.hasPrefix("[p]") ? "[f];[f]" : ",") + rest
      }
      if argument.hasSuffix("palettegen=stats_mode=diff") { return "fps=\(gifFPS)," + argument }
      return argument
    }
    for pass in [command.palettePass!, command.arguments] {
      let args = pass.map { $0 == "pipe:0" ? raw.path : resampled($0) }
      let r = try TestSupport.run("/usr/bin/env", ["ffmpeg"] + args)
      expectEqual(r.status, 0, "ffmpeg: \(r.stderr)")
    }
    return try Data(contentsOf: URL(fileURLWithPath: output))
  }

  @Test(arguments: bundled)
  func everyBundledTemplateMakesTheSameGIFFromOneRasterPass(_ name: String) throws {
    try expectSameGIFFromOneRasterPass(name, palette: .flick)
  }

  /// With ffmpeg's palettegen as the first pass (`--gif-palette ffmpeg`), the same.
  @Test(arguments: ["card-swap", "spring-gallery"])
  func ffmpegsPaletteMakesTheSameGIF(_ name: String) throws {
    try expectSameGIFFromOneRasterPass(name, palette: .ffmpeg)
  }

  func expectSameGIFFromOneRasterPass(_ name: String, palette: EncodingOptions.GIFPaletteSource) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = try Template.load(path: Self.templates.appendingPathComponent("\(name).json5").path).scene
    let scale = 0.25
    var options = EncodingOptions()
    options.gifPalette = palette
    // Compared with ffmpeg's own two passes: without the gifsicle pass, which changes bytes (not pixels).
    options.optimizesGIF = false
    let counter = Locked(0)
    var pipeline = RenderPipeline(jobs: 2)
    pipeline.reusesUnchangedFrames = false  // so every frame is drawn, and counted
    pipeline.makeRenderer = { scale in
      let renderer = FrameRenderer(scale: scale)
      return { tree in
        counter.withLock { $0 += 1 }
        return try renderer.render(tree)
      }
    }
    let out = dir.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let gif = out.appendingPathComponent("\(name).gif").path
    let session = RenderSession(
      scene: scene, outputs: [try OutputTarget(path: gif)], scale: scale, options: options, pipeline: pipeline)
    try session.run()
    expectEqual(counter.withLock { $0 }, scene.frameCount, "every frame is rasterised exactly once")
    try expectEqual(TestSupport.contents(out), ["\(name).gif"], "the spool and the palette are gone")
    let reference = try Self.referenceGIF(scene: scene, scale: scale, options: options, in: dir)
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: gif)), reference)
  }

  /// Frames that repeat the one before are left out of the palette pass (palettegen counts only
  /// changed pixels); the GIF is still the two passes' over every frame, with holds at the
  /// render's rate and, resampled by an `fps` filter, where nothing is left out.
  @Test(arguments: [("chained-sequence", nil), ("spring-gallery", nil), ("chained-sequence", 20)] as [(String, Int?)])
  func framesThatRepeatAreLeftOutOfThePalettePass(_ name: String, _ gifFPS: Int?) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = try Template.load(path: Self.templates.appendingPathComponent("\(name).json5").path).scene
    expectLess(UnchangedFrameTests.distinctTrees(scene), scene.frameCount, "the template has holds")
    var options = EncodingOptions(gifFPS: gifFPS)
    options.mergesIdenticalFrames = false
    // Compared with ffmpeg's own two passes: without the gifsicle pass, which changes bytes (not pixels).
    options.optimizesGIF = false
    let gif = dir.appendingPathComponent("\(name).gif").path
    try RenderSession(
      scene: scene, outputs: [try OutputTarget(path: gif)], scale: 0.25, options: options,
      pipeline: RenderPipeline(jobs: 2)
    ).run()
    let reference = try Self.referenceGIF(scene: scene, scale: 0.25, options: options, in: dir)
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: gif)), reference)
  }

  /// A GIF-only render at a lower GIF rate rasterises only the frames the GIF keeps, whoever
  /// makes the palette and whether the GIF is scaled (`--gif-width`), and the GIF is the one
  /// ffmpeg's `fps` filter makes from every frame, with the pass split in halves (Bayer) or
  /// whole (error diffusion).
  @Test(
    arguments: [
      (EncodingOptions(gifFPS: 50), false), (EncodingOptions(gifFPS: 25), false),
      (EncodingOptions(dither: .sierra2_4a, gifFPS: 20), false), (EncodingOptions(gifFPS: 25, gifWidth: 48), false),
      (EncodingOptions(gifFPS: 25), true), (EncodingOptions(dither: .floydSteinberg, gifFPS: 20, gifWidth: 40), true),
    ] as [(EncodingOptions, Bool)])
  func resampledGIFsRasteriseOnlyTheFramesTheyKeep(_ given: EncodingOptions, _ ffmpegPalette: Bool) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = TestSupport.movingScene(width: 96, height: 64, fps: 60, duration: 1.3)
    var options = given
    if ffmpegPalette { options.gifPalette = .ffmpeg }
    // Compared with ffmpeg's own two passes: without the gifsicle pass, which changes bytes (not pixels).
    options.optimizesGIF = false
    let gifFPS = try #require(options.gifFPS)
    let gif = dir.appendingPathComponent("a.gif").path
    // Only the frames the GIF keeps are rendered.
    let counter = Locked(0)
    var pipeline = RenderPipeline(jobs: 2)
    pipeline.reusesUnchangedFrames = false
    pipeline.makeRenderer = { scale in
      let renderer = FrameRenderer(scale: scale)
      return { tree in
        counter.withLock { $0 += 1 }
        return try renderer.render(tree)
      }
    }
    let session = RenderSession(
      scene: scene, outputs: [try OutputTarget(path: gif)], options: options, pipeline: pipeline)
    try session.run()
    let kept = (0..<scene.frameCount).filter { FrameSchedule.keepsFrame($0, from: 60, to: gifFPS) }
    expectEqual(counter.withLock { $0 }, kept.count)
    expectLess(kept.count, scene.frameCount)
    let reference = try Self.referenceGIF(scene: scene, scale: 1, options: options, in: dir)
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: gif)), reference)
  }

  /// Resampled and scaled GIFs (`--gif-fps`, `--gif-width`, another dither) too.
  @Test func resampledGIFsMatchTheTwoPasses() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = TestSupport.movingScene(width: 96, height: 64, fps: 30, duration: 1)
    var options = EncodingOptions(dither: .floydSteinberg, plays: 2, gifFPS: 20, gifWidth: 48)
    // Compared with ffmpeg's own two passes: without the gifsicle pass, which changes bytes (not pixels).
    options.optimizesGIF = false
    let gif = dir.appendingPathComponent("a.gif").path
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: gif)], options: options).run()
    let reference = try Self.referenceGIF(scene: scene, scale: 1, options: options, in: dir)
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: gif)), reference)
  }
}

/// The spool keeps frames losslessly as row spans of what changed.
@Suite struct FrameSpoolTests {
  static func frames(width: Int, height: Int) -> [[UInt8]] {
    var generator = SystemRandomNumberGenerator()
    let size = width * height * 4
    var first = [UInt8](repeating: 0, count: size)
    for i in first.indices { first[i] = UInt8.random(in: 0...255, using: &generator) }
    var frames = [first]
    var hold = first  // the same frame again
    frames.append(hold)
    hold[0] ^= 1  // the first byte of the frame
    frames.append(hold)
    hold[size - 1] ^= 0x80  // the last byte
    frames.append(hold)
    for i in min(size - 1, 4 * width + 3)..<min(size, 4 * width + 21) { hold[i] = ~hold[i] }  // inside a row
    frames.append(hold)
    frames.append([UInt8](repeating: 7, count: size))  // everything
    return frames
  }

  @Test func replaysEveryFrameByteForByte() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (width, height) in [(1, 1), (3, 2), (17, 9)] {
      let path = dir.appendingPathComponent("s\(width)").path
      let spool = try FrameSpool(path: path, width: width, height: height, output: "x.gif")
      let frames = Self.frames(width: width, height: height)
      for frame in frames { #expect(spool.append(frame) == nil) }
      // Twice, as a --max-size search replays it (each replay reads with its own offset).
      for pass in 0..<2 {
        if pass == 1 { spool.endAppending() }
        var replayed: [[UInt8]] = []
        #expect(
          spool.replay {
            replayed.append(Array($0)); return nil
          } == nil)
        expectEqual(replayed, frames, "replay \(pass + 1)")
      }
      spool.remove()
      #expect(!FileManager.default.fileExists(atPath: path))
    }
  }

  @Test func anUnchangedFrameTakesEightBytesARow() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("s").path
    let spool = try FrameSpool(path: path, width: 20, height: 10, output: "x.gif")
    let frame = [UInt8](repeating: 9, count: 20 * 10 * 4)
    _ = spool.append(frame)
    _ = spool.append(frame)
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    expectEqual(size, (10 * 8 + 800) + 10 * 8)
  }

  @Test func changedSpansAreExact() {
    for count in 1...40 {
      for a in 0..<count {
        for b in a..<count {
          var old = [UInt8](repeating: 1, count: count)
          var new = old
          new[a] = 2
          new[b] = 3
          let span = old.withUnsafeMutableBufferPointer { o in
            new.withUnsafeBufferPointer { FrameSpool.changedSpan($0.baseAddress!, o.baseAddress!, count) }
          }
          expectEqual(span.start, a)
          expectEqual(span.count, b - a + 1)
        }
      }
    }
  }
}
