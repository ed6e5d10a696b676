import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// GIFs and APNGs merge each run of identical frames (known from the render trees) into one
/// image with the run's delay: decoded, the merged file shows the same picture as the file with
/// every frame at every frame's time, and plays exactly as long.
@Suite struct IdenticalFrameMergeTests {
  /// Bundled templates with holds (frames whose tree draws the same as the one before).
  static let withHolds = [
    "card-swap", "chained-sequence", "decay-flick", "hello", "property-animator", "spring-gallery",
  ]

  /// One decoded frame: its time (in the stream's time base) and the MD5 of its RGBA pixels.
  struct Decoded: Equatable {
    var pts: Int
    var md5: String
  }

  /// Every frame of `path` as ffmpeg decodes it, timestamps untouched (no frame dropped or
  /// duplicated).
  static func decode(_ path: String) throws -> [Decoded] {
    let r = try TestSupport.run(
      "/usr/bin/env",
      [
        "ffmpeg", "-hide_banner", "-loglevel", "error", "-i", path, "-fps_mode", "passthrough", "-pix_fmt", "rgba",
        "-f", "framemd5", "-",
      ])
    expectEqual(r.status, 0, "ffmpeg: \(r.stderr)")
    return r.text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count == 6, let pts = Int(fields[2]) else { return nil }
      return Decoded(pts: pts, md5: fields[5])
    }
  }

  /// The number of images and the total delay (seconds, as a fraction) written in a GIF or APNG.
  static func timing(_ path: String) throws -> (images: Int, num: Int, den: Int) {
    let d = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
    if d.starts(with: Array("GIF".utf8)) {
      var p = 13 + (d[10] & 0x80 != 0 ? 3 << (Int(d[10] & 7) + 1) : 0)
      var images = 0
      var centiseconds = 0
      while d[p] != 0x3B {
        if d[p] == 0x21 {
          if d[p + 1] == 0xF9 { centiseconds += Int(d[p + 4]) | Int(d[p + 5]) << 8 }
          p += 2
        } else {
          images += 1
          p += 10 + (d[p + 9] & 0x80 != 0 ? 3 << (Int(d[p + 9] & 7) + 1) : 0) + 1
        }
        while d[p] != 0 { p += Int(d[p]) + 1 }
        p += 1
      }
      let g = gcd(centiseconds, 100)
      return (images, centiseconds / g, 100 / g)
    }
    var p = 8
    var images = 0
    var (num, den) = (0, 1)
    while p + 8 <= d.count {
      let length = Int(d[p]) << 24 | Int(d[p + 1]) << 16 | Int(d[p + 2]) << 8 | Int(d[p + 3])
      if Array(d[p + 4..<p + 8]) == Array("fcTL".utf8) {
        let n = Int(d[p + 28]) << 8 | Int(d[p + 29])
        let m = max(1, Int(d[p + 30]) << 8 | Int(d[p + 31]))
        (num, den) = (num * m + n * den, den * m)
        let g = gcd(num, den)
        (num, den) = (num / g, den / g)
        images += 1
      }
      p += length + 12
    }
    return (images, num, den)
  }

  /// Renders `scene` to `format` with and without merging and checks the pictures and times.
  /// - Returns: images in the unmerged and the merged file.
  @discardableResult
  static func compare(
    _ scene: Scene, _ format: OutputFormat, scale: Double = 1, options: EncodingOptions = EncodingOptions()
  )
    throws -> (every: Int, merged: Int)
  {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var paths: [String] = []
    for merges in [false, true] {
      var options = options
      options.mergesIdenticalFrames = merges
      // The images counted are the merge's: gifsicle (which may merge more) is left out.
      options.optimizesGIF = false
      let path = dir.appendingPathComponent("\(merges ? "merged" : "every").\(format.rawValue)").path
      let session = RenderSession(
        scene: scene, outputs: [OutputTarget(path: path, format: format)], scale: scale, options: options,
        pipeline: RenderPipeline(jobs: 2))
      let summary = try session.run()
      #expect(summary.outputs[0].unmergedReason == nil)
      paths.append(path)
    }
    try expectEqual(TestSupport.contents(dir), ["every.\(format.rawValue)", "merged.\(format.rawValue)"])
    let every = try decode(paths[0])
    let merged = try decode(paths[1])
    // The picture shown at each original frame's time is the merged file's latest frame by then.
    for frame in every {
      let shown = merged.last { $0.pts <= frame.pts }
      expectEqual(shown?.md5, frame.md5, "frame at pts \(frame.pts)")
    }
    let a = try timing(paths[0])
    let b = try timing(paths[1])
    expectEqual(a.num, b.num, "the same total duration")
    expectEqual(a.den, b.den, "the same total duration")
    expectEqual(b.images, merged.count)
    expectEqual(a.images, every.count)
    return (a.images, b.images)
  }

  @Test(arguments: withHolds, [OutputFormat.gif, .apng])
  func bundledTemplatesShowTheSamePictureAtEveryFrameTime(_ name: String, _ format: OutputFormat) throws {
    let scene = try Template.load(path: GIFOnePassTests.templates.appendingPathComponent("\(name).json5").path).scene
    let (every, merged) = try Self.compare(scene, format, scale: 0.25)
    expectEqual(every, scene.frameCount)
    expectEqual(merged, UnchangedFrameTests.distinctTrees(scene), "one image per run of identical trees")
  }

  /// Slide, hold, slide back, hold: on a transparent background (so GIF frames are translucent
  /// and APNG frames have dispose and blend choices to make), and at 60 fps resampled to GIF
  /// rates by ffmpeg's `fps` filter (50 fps by default, 20 fps asked for).
  static func holdScene(fps: Int, background: Color) -> Scene {
    let card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 12, height: 12), position: Point(x: 8, y: 12), opacity: 0.8,
      backgroundColor: Color(red: 0.9, green: 0.4, blue: 0.1), cornerRadius: 3)
    let slide = LayerAnimation(
      layerID: "card", property: .position, beginTime: 0, duration: 1.5,
      value: { t in
        let x: Double =
          t < 0.3 ? 8 + 80 * t : t < 0.7 ? 32 : t < 1.0 ? 32 - 60 * (t - 0.7) : 14
        return Point(x: x.rounded(), y: 12)
      })
    return Scene(
      size: Size(width: 48, height: 24), fps: fps, duration: 1.5, backgroundColor: background, layers: [card],
      animations: [slide])
  }

  @Test(arguments: [OutputFormat.gif, .apng])
  func translucentFramesMergeExactly(_ format: OutputFormat) throws {
    let scene = Self.holdScene(fps: 30, background: .clear)
    let (every, merged) = try Self.compare(scene, format)
    expectEqual(every, scene.frameCount)
    expectLess(merged, every)
  }

  @Test(arguments: [nil, 20])
  func resampledGIFsMergeExactly(_ gifFPS: Int?) throws {
    let scene = Self.holdScene(fps: 60, background: .white)
    let (every, merged) = try Self.compare(scene, .gif, options: EncodingOptions(gifFPS: gifFPS))
    expectEqual(every, (gifFPS ?? 50) * 3 / 2)
    expectLess(merged, every)
  }

  /// The frames of ffmpeg's `fps` filter: output frame j shows the last input frame n with
  /// round(n × out / in) ≤ j; a kept frame repeats the one kept before when every frame in
  /// between repeats (``FrameSchedule/Delivery``).
  @Test func resampledRepeatFlags() throws {
    // 6 → 4 fps: round(n·4/6) for n = 0…5 is 0, 1, 1, 2, 3, 3, and round(6·4/6) = 4 frames come
    // out, showing input frames 0, 2, 3 and 5.
    func flags(_ repeats: [Bool], from rate: Int, to out: Int) throws -> [Bool] {
      let schedule = try FrameSchedule(
        renderFPS: rate, frames: 0..<repeats.count, outputs: [.gif], options: EncodingOptions(gifFPS: out))
      var delivery = FrameSchedule.Delivery(schedule.outputs[0], first: 0)
      return repeats.enumerated().compactMap { n, repeats in
        var frame = PreparedFrame(index: n, frame: Frame(width: 1, height: 1), layouts: .premultiplied)
        frame.repeatsPrevious = repeats
        return delivery.admit(frame)?.repeatsPrevious
      }
    }
    let repeats = [false, true, true, false, true, true]
    try expectEqual(flags(repeats, from: 6, to: 4), [false, true, false, true])
    try expectEqual(flags(repeats, from: 6, to: 6), [false, true, true, false, true, true])
  }

  @Test func disposalRules() {
    typealias M = IdenticalFrameMerger
    let a = M.Rect(x: 0, y: 0, width: 4, height: 4)
    let b = M.Rect(x: 1, y: 0, width: 1, height: 1)
    expectEqual(M.disposalReplacing(.none, rect: b, kept: a, previous: .background), M.Disposal.none)
    expectEqual(M.disposalReplacing(.background, rect: a, kept: a, previous: .none), .background)
    #expect(M.disposalReplacing(.background, rect: b, kept: a, previous: .none) == nil)
    expectEqual(M.disposalReplacing(.previous, rect: b, kept: a, previous: .none), M.Disposal.none)
    #expect(M.disposalReplacing(.previous, rect: b, kept: a, previous: .background) == nil)
    #expect(M.disposalReplacing(.unknown, rect: a, kept: a, previous: .none) == nil)
  }

  /// A file whose structure is not the expected one is left alone (reported, not merged).
  @Test func anUnexpectedFileIsNotMerged() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("in.gif").path
    let output = dir.appendingPathComponent("out.gif").path
    // A header and a screen descriptor, then the file ends.
    try Data(Array("GIF89a".utf8) + [4, 0, 4, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: input))
    guard case .unchanged = try IdenticalFrameMerger.merge(.gif, input: input, output: output, repeats: [false, true])
    else {
      Issue.record("a truncated GIF was merged")
      return
    }
    try Data(Array("not a png at all".utf8)).write(to: URL(fileURLWithPath: input))
    guard case .unchanged = try IdenticalFrameMerger.merge(.apng, input: input, output: output, repeats: [false, true])
    else {
      Issue.record("a file that is not a PNG was merged")
      return
    }
  }

  /// A merge that cannot write its file fails the output and leaves nothing: not the
  /// destination, not a temporary.
  @Test func aFailedMergeLeavesNoOutput() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = Self.holdScene(fps: 30, background: .white)
    for format in [OutputFormat.gif, .apng] {
      let path = dir.appendingPathComponent("a.\(format.rawValue)").path
      // A folder where the merged file would go makes creating it fail.
      let blocker = ".a.\(format.rawValue).merged.\(format.rawValue).\(getpid()).partial"
      try FileManager.default.createDirectory(
        at: dir.appendingPathComponent(blocker), withIntermediateDirectories: false)
      let session = RenderSession(scene: scene, outputs: [OutputTarget(path: path, format: format)])
      #expect(throws: VideoError.self) { try session.run() }
      try expectEqual(TestSupport.contents(dir), [blocker])
      try FileManager.default.removeItem(at: dir.appendingPathComponent(blocker))
    }
  }
}
