import FlickMotion
import FlickRaster
import FlickScene
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// A GIF's encoding pass runs as two ffmpeg processes at once, joined into exactly the file one
/// process makes; passes that cannot be split exactly run whole.
@Suite struct GIFSplitPassTests {
  /// The ffmpeg every encoding here uses, checked once (`ffmpeg -encoders` is an ffmpeg start-up).
  static let ffmpeg = Result { () throws(VideoError) in try FFmpegTool.locate(for: [.gif]) }

  /// Encodes `scene` through a ``GIFSink`` (in at most `parts` processes), fed the frames its
  /// schedule keeps, and returns the GIF and whether it was split.
  static func encode(
    _ scene: Scene, options: EncodingOptions, splitsFrom pixels: Int = 0, parts: Int = 2, in dir: URL
  ) throws -> (Data, Bool) {
    let (gif, count) = try encodeInParts(scene, options: options, splitsFrom: pixels, parts: parts, in: dir)
    return (gif, count > 1)
  }

  /// As ``encode(_:options:splitsFrom:parts:in:)``, with the number of processes the pass ran in.
  static func encodeInParts(
    _ scene: Scene, options: EncodingOptions, splitsFrom pixels: Int = 0, parts: Int = 2, in dir: URL
  ) throws -> (Data, Int) {
    let path = dir.appendingPathComponent("out.gif").path
    var options = options
    options.padColor = 0
    // Compared with ffmpeg's own two passes: without the gifsicle pass, which changes bytes (not pixels).
    options.optimizesGIF = false
    let width = Int(scene.size.width)
    let height = Int(scene.size.height)
    let schedule = try FrameSchedule(
      renderFPS: scene.fps, frames: 0..<scene.frameCount, outputs: [.gif], options: options)
    let encoder = try GIFSink(
      destination: path, width: width, height: height, fps: schedule.outputs[0].fps, options: options,
      ffmpeg: try Self.ffmpeg.get())
    encoder.minimumPixelsToSplit = pixels
    encoder.maximumParts = parts
    var delivery = FrameSchedule.Delivery(schedule.outputs[0], first: 0)
    for n in schedule.rendered {
      let frame = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: n)))
      if let kept = delivery.admit(PreparedFrame(index: n, frame: frame, layouts: .premultipliedAndStraight)) {
        try encoder.write(kept)
      }
    }
    try encoder.finish()
    try encoder.commit()
    return (try Data(contentsOf: URL(fileURLWithPath: path)), encoder.encodedParts)
  }

  @Test(
    arguments: [
      (EncodingOptions(), true),
      (EncodingOptions(dither: .none, plays: 3), true),
      (EncodingOptions(gifWidth: 40), true),
      (EncodingOptions(dither: .floydSteinberg), false),
      (EncodingOptions(dither: .sierra2_4a), false),
    ] as [(EncodingOptions, Bool)])
  func theHalvesMakeTheGIFOneProcessMakes(_ options: EncodingOptions, _ splits: Bool) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for background in [Color(red: 0.06, green: 0.09, blue: 0.16), .clear] {
      let scene = TestSupport.movingScene(width: 64, height: 48, fps: 25, duration: 1.6, background: background)
      let (gif, split) = try Self.encode(scene, options: options, in: dir)
      expectEqual(split, splits)
      let reference = try GIFOnePassTests.referenceGIF(scene: scene, scale: 1, options: options, in: dir)
      expectEqual(gif, reference, "\(options.dither) on \(background)")
      #expect(try TestSupport.contents(dir).filter { $0.hasPrefix(".") }.isEmpty, "no half or spool is left")
    }
  }

  /// On more cores, more parts: each middle part encodes its frames with one before and one
  /// after, and the joined file is still the one process's, for every part count up to one
  /// part per two frames.
  @Test(arguments: [3, 4, 7])
  func morePartsMakeTheSameGIF(_ count: Int) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = TestSupport.movingScene(width: 64, height: 48, fps: 25, duration: 0.6)  // 15 frames
    let (gif, parts) = try Self.encodeInParts(scene, options: EncodingOptions(), parts: count, in: dir)
    expectEqual(parts, count)
    let reference = try GIFOnePassTests.referenceGIF(scene: scene, scale: 1, options: EncodingOptions(), in: dir)
    expectEqual(gif, reference)
    #expect(try TestSupport.contents(dir).filter { $0.hasPrefix(".") }.isEmpty, "no part or spool is left")
  }

  /// Never more parts than half the frames, however many are allowed.
  @Test func neverMorePartsThanHalfTheFrames() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = TestSupport.movingScene(width: 64, height: 48, fps: 25, duration: 0.6)  // 15 frames
    let (gif, parts) = try Self.encodeInParts(scene, options: EncodingOptions(), parts: 64, in: dir)
    expectEqual(parts, 7)
    expectEqual(gif, (try GIFOnePassTests.referenceGIF(scene: scene, scale: 1, options: EncodingOptions(), in: dir)))
  }

  @Test func shortGIFsAreNotSplitAndResampledOnesAre() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let short = TestSupport.movingScene(fps: 10, duration: 1)  // 10 frames of 64×48: 30,720 pixels
    try expectEqual(Self.encode(short, options: EncodingOptions(), splitsFrom: 30_721, in: dir).1, false)
    try expectEqual(Self.encode(short, options: EncodingOptions(), splitsFrom: 30_720, in: dir).1, true)
    expectGreater(GIFSink.defaultMinimumPixelsToSplit, 100 * 64 * 48, "small GIFs are not split by default")
    let resampled = TestSupport.movingScene(fps: 30, duration: 1)
    // Resampled by Flick (with its palette): the frames are chosen before ffmpeg, which splits.
    let (gif, split) = try Self.encode(resampled, options: EncodingOptions(gifFPS: 15), in: dir)
    #expect(split)
    expectEqual(
      gif, (try GIFOnePassTests.referenceGIF(scene: resampled, scale: 1, options: EncodingOptions(gifFPS: 15), in: dir))
    )
    // With ffmpeg's palette too: the frames are still chosen before ffmpeg, which splits.
    var byFFmpeg = EncodingOptions(gifFPS: 15)
    byFFmpeg.gifPalette = .ffmpeg
    let (second, splits) = try Self.encode(resampled, options: byFFmpeg, in: dir)
    #expect(splits)
    expectEqual(second, (try GIFOnePassTests.referenceGIF(scene: resampled, scale: 1, options: byFFmpeg, in: dir)))
  }

  /// Either half failing fails the GIF, and nothing is left: not the parts, the spool, the
  /// palette or the output.
  @Test(arguments: ["*setpts=PTS+*", "*paletteuse*"])
  func aFailingHalfLeavesNothingBehind(_ pattern: String) throws {
    let f = try FailureTests.Fixture()
    defer { f.cleanup() }
    let script = try FailureTests.fakeFFmpeg(
      FailureTests.realFFmpeg(failingWhen: "$*", matches: pattern, message: "half failed"), in: f.bin)
    let scene = TestSupport.movingScene(width: 64, height: 48, fps: 25, duration: 1.6)
    let path = f.path("x.gif")
    let encoder = try GIFSink(
      destination: path, width: 64, height: 48, fps: scene.fps, options: EncodingOptions(),
      ffmpeg: FFmpegTool(path: script, version: "5.1"))
    encoder.minimumPixelsToSplit = 0
    encoder.maximumParts = 2
    for n in 0..<scene.frameCount {
      let frame = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: n)))
      try encoder.write(PreparedFrame(index: n, frame: frame, layouts: .premultipliedAndStraight))
    }
    do {
      try encoder.finish()
      Issue.record("the GIF should fail")
    } catch let error as VideoError {
      #expect(error.description.contains("half failed"), "\(error)")
    }
    let left = try TestSupport.contents(f.out)
    #expect(left.isEmpty, "\(left)")
  }

  /// The stitcher reads a GIF's blocks and refuses halves that are not a split's.
  @Test func stitcherChecksTheHalves() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = TestSupport.movingScene(fps: 25, duration: 1)
    let (gif, _) = try Self.encode(scene, options: EncodingOptions(), in: dir)
    let whole = dir.appendingPathComponent("whole.gif").path
    try gif.write(to: URL(fileURLWithPath: whole))
    let layout = try GIFStitcher.layout(of: whole)
    expectEqual(layout.imageStarts.count, scene.frameCount)
    expectEqual(layout.headerEnd, layout.imageStarts[0])
    let out = dir.appendingPathComponent("joined.gif").path
    // Image counts that do not fit the split are refused, and nothing is claimed.
    #expect(throws: GIFStitcher.Mismatch.self) {
      try GIFStitcher.stitch(parts: [whole, whole], starts: [0, 5], frames: scene.frameCount, into: out)
    }
    expectEqual(GIFStitcher.frames(ofPart: 0, starts: [0, 4, 8], frames: 12), 0..<5)
    expectEqual(GIFStitcher.frames(ofPart: 1, starts: [0, 4, 8], frames: 12), 3..<9)
    expectEqual(GIFStitcher.frames(ofPart: 2, starts: [0, 4, 8], frames: 12), 7..<12)
    let text = dir.appendingPathComponent("not.gif").path
    try Data("GIF89a?".utf8).write(to: URL(fileURLWithPath: text))
    #expect(throws: (any Error).self) { try GIFStitcher.layout(of: text) }
    let png = dir.appendingPathComponent("p.png").path
    try Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: png))
    #expect(throws: GIFStitcher.Mismatch.self) { try GIFStitcher.layout(of: png) }
  }
}
