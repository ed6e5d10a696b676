import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickVideo
import Foundation
import Testing

/// Every format, written in one run (one rasterisation), checked with ffprobe and by reading
/// the container bytes for what ffprobe does not report (loop counts, WebP frames).
@Suite struct FormatProbeTests {
  @Test func everyFormatFromOneRender() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    func path(_ name: String) -> String { dir.path + "/" + name }
    let names = ["a.mp4", "a.gif", "a.webm", "a.mov", "a.apng", "a.webp", "frames/"]
    let summary = try RenderSession(
      scene: TestSupport.movingScene(), outputs: try names.map { try OutputTarget(path: path($0)) }
    ).run()
    expectEqual(summary.frames, 10)
    expectEqual(summary.width, 64)
    expectEqual(summary.height, 48)
    expectEqual(summary.outputs.map(\.path), names.map(path))
    #expect(summary.outputs.allSatisfy { $0.bytes > 0 && $0.duration == 1 })

    let common =
      "stream=codec_name,profile,pix_fmt,width,height,nb_read_frames,color_space,color_primaries,"
      + "color_transfer,color_range:stream_tags=alpha_mode:format=duration"
    let mp4 = try TestSupport.probe(path("a.mp4"), common)
    #expect(mp4["codec_name"] == "h264" && mp4["profile"] == "High" && mp4["pix_fmt"] == "yuv420p")
    #expect(mp4["width"] == "64" && mp4["height"] == "48" && mp4["nb_read_frames"] == "10")
    expectEqual(mp4["duration"], "1.000000")
    Self.expectBT709(mp4, "mp4")
    let mp4Bytes = try Data(contentsOf: URL(fileURLWithPath: path("a.mp4")))
    let moov = try #require(mp4Bytes.range(of: Data("moov".utf8)))
    let mdat = try #require(mp4Bytes.range(of: Data("mdat".utf8)))
    expectLess(moov.lowerBound, mdat.lowerBound, "+faststart puts the index first")

    let gif = try TestSupport.probe(path("a.gif"), common)
    #expect(gif["codec_name"] == "gif" && gif["nb_read_frames"] == "10" && gif["width"] == "64")
    expectEqual(gif["duration"], "1.000000")
    try expectEqual(Self.gifDelays(path("a.gif")), Array(repeating: 10, count: 10))
    try expectEqual(Self.gifLoopCount(path("a.gif")), 0)

    // ffprobe's built-in VP9 decoder ignores the alpha side channel; alpha_mode=1 says it is
    // there (AlphaRoundTripTests decodes it with libvpx).
    let webm = try TestSupport.probe(path("a.webm"), common)
    #expect(webm["codec_name"] == "vp9" && webm["pix_fmt"] == "yuv420p" && webm["TAG:alpha_mode"] == "1")
    #expect(webm["nb_read_frames"] == "10" && webm["width"] == "64" && webm["height"] == "48")
    Self.expectBT709(webm, "webm")

    let mov = try TestSupport.probe(path("a.mov"), common)
    #expect(mov["codec_name"] == "prores" && mov["profile"] == "4444" && mov["pix_fmt"] == "yuva444p12le")
    #expect(mov["nb_read_frames"] == "10" && mov["duration"] == "1.000000")
    Self.expectBT709(mov, "mov")

    let apng = try TestSupport.probe(path("a.apng"), common)
    #expect(apng["codec_name"] == "apng" && apng["pix_fmt"] == "rgba" && apng["nb_read_frames"] == "10")
    try expectEqual(Self.apngPlays(path("a.apng")), 0)

    let webp = try Self.webpAnimation(path("a.webp"))
    expectEqual(webp.frames, 10)
    expectEqual(webp.loops, 0)
    expectEqual(webp.width, 64)
    expectEqual(webp.height, 48)

    let frames = try FileManager.default.contentsOfDirectory(atPath: path("frames")).sorted()
    expectEqual(frames, [PNGSequenceWriter.markerName] + (0..<10).map { String(format: "%04d.png", $0) })
    let png = try TestSupport.probe(path("frames/0003.png"), "stream=codec_name,pix_fmt,width,height")
    // Cairo stores opaque frames as RGB and frames with any transparency as RGBA.
    #expect(png["codec_name"] == "png" && png["pix_fmt"] == "rgb24" && png["width"] == "64")
    #expect(try TestSupport.contents(dir).allSatisfy { !$0.hasPrefix(".") }, "no temporary files remain")
  }

  /// A GIF takes the frames once (its second ffmpeg pass reads them from a spool): progress
  /// counts each frame once, and the palette and the spool are gone afterwards.
  @Test func gifsRenderOnceWithProgressForOnePass() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var reports: [RenderProgress] = []
    try RenderSession(
      scene: TestSupport.movingScene(),
      outputs: try ["a.gif", "a.mp4"].map { try OutputTarget(path: dir.appendingPathComponent($0).path) }
    ).run { reports.append($0) }
    #expect(reports.allSatisfy { $0.totalFrames == 10 })
    expectEqual(reports.filter { $0.stage == .render }.map(\.framesDone), Array(0...10))
    #expect(!reports.contains { $0.stage == .secondPass })
    expectEqual(reports.last?.stage, .done)
    try expectEqual(TestSupport.contents(dir), ["a.gif", "a.mp4"])
    try expectEqual(Self.gifDelays(dir.appendingPathComponent("a.gif").path).count, 10)
  }

  @Test func loopCountsAndGIFRates() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    let scene = TestSupport.movingScene(fps: 60, duration: 0.2)
    try RenderSession(
      scene: scene, outputs: try ["3.gif", "3.apng", "3.webp"].map { try OutputTarget(path: path($0)) },
      options: EncodingOptions(plays: 3)
    ).run()
    try expectEqual(Self.gifLoopCount(path("3.gif")), 2)  // played once, repeated twice
    try expectEqual(Self.gifDelays(path("3.gif")), Array(repeating: 2, count: 10))  // 60 fps → 50 fps
    try expectEqual(Self.apngPlays(path("3.apng")), 3)
    try expectEqual(Self.webpAnimation(path("3.webp")).loops, 3)
    try RenderSession(
      scene: scene, outputs: [try OutputTarget(path: path("1.gif")), try OutputTarget(path: path("20.gif"))],
      options: EncodingOptions(plays: 1, gifFPS: 20)
    ).run()
    #expect(try Self.gifLoopCount(path("1.gif")) == nil)
    try expectEqual(Self.gifDelays(path("20.gif")), Array(repeating: 5, count: 4))
  }

  @Test func frameRangeAndScale() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let mp4 = dir.appendingPathComponent("part.mp4").path
    let seq = dir.appendingPathComponent("seq/f%03d.png").path
    try RenderSession(
      scene: TestSupport.movingScene(), outputs: [try OutputTarget(path: mp4), try OutputTarget(path: seq)],
      frames: 4..<7, scale: 2
    ).run()
    let info = try TestSupport.probe(mp4, "stream=width,height,nb_read_frames:format=duration")
    #expect(info["width"] == "128" && info["height"] == "96" && info["nb_read_frames"] == "3")
    expectEqual(info["duration"], "0.300000")
    try expectEqual(TestSupport.contents(dir.appendingPathComponent("seq")), ["f004.png", "f005.png", "f006.png"])
  }

  static func expectBT709(_ fields: [String: String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation)
  {
    for key in ["color_space", "color_primaries", "color_transfer"] {
      expectEqual(fields[key], "bt709", "\(what) \(key)", sourceLocation: sourceLocation)
    }
    expectEqual(fields["color_range"], "tv", "\(what) color_range", sourceLocation: sourceLocation)
  }

  // MARK: - Container bytes

  /// Delays (centiseconds) of every frame of a GIF, from its graphic control extensions.
  static func gifDelays(_ path: String) throws -> [Int] {
    let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var delays: [Int] = []
    var i = 0
    while i + 5 < b.count {
      if b[i] == 0x21 && b[i + 1] == 0xF9 && b[i + 2] == 0x04 {
        delays.append(Int(b[i + 4]) | Int(b[i + 5]) << 8)
        i += 8
      } else {
        i += 1
      }
    }
    return delays
  }

  /// The NETSCAPE2.0 repeat count of a GIF, or nil when the extension is absent (plays once).
  static func gifLoopCount(_ path: String) throws -> Int? {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let r = data.range(of: Data("NETSCAPE2.0".utf8)) else { return nil }
    let b = [UInt8](data[r.upperBound..<(r.upperBound + 4)])
    return Int(b[2]) | Int(b[3]) << 8
  }

  /// `num_plays` of an APNG's acTL chunk.
  static func apngPlays(_ path: String) throws -> Int {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let r = try #require(data.range(of: Data("acTL".utf8)))
    let b = [UInt8](data[(r.upperBound + 4)..<(r.upperBound + 8)])
    return b.reduce(0) { $0 << 8 | Int($1) }
  }

  /// Frames, loop count and canvas size of an animated WebP (RIFF chunks VP8X, ANIM, ANMF).
  static func webpAnimation(_ path: String) throws -> (frames: Int, loops: Int, width: Int, height: Int) {
    let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func le(_ at: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) } }
    #expect(String(decoding: b[0..<4], as: UTF8.self) == "RIFF" && String(decoding: b[8..<12], as: UTF8.self) == "WEBP")
    var frames = 0
    var loops = -1
    var size = (0, 0)
    var i = 12
    while i + 8 <= b.count {
      let tag = String(decoding: b[i..<(i + 4)], as: UTF8.self)
      let length = le(i + 4, 4)
      switch tag {
      case "VP8X": size = (le(i + 12, 3) + 1, le(i + 15, 3) + 1)
      case "ANIM": loops = le(i + 12, 2)
      case "ANMF": frames += 1
      default: break
      }
      i += 8 + length + length % 2
    }
    return (frames, loops, size.0, size.1)
  }
}

extension FormatProbeTests {
  @Test func rawFramesArePremultipliedBGRAInOrder() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let raw = dir.appendingPathComponent("f.bgra").path
    let scene = TestSupport.movingScene(fps: 10, duration: 0.5, background: .clear)
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: raw)], pipeline: RenderPipeline(jobs: 3)).run()
    let data = try Data(contentsOf: URL(fileURLWithPath: raw))
    let frameBytes = 64 * 48 * 4
    expectEqual(data.count, 5 * frameBytes)
    let renderer = Renderer()
    for index in 0..<5 {
      let expected = try renderer.render(scene.renderTree(at: scene.time(ofFrame: index))).packedPixels
      expectEqual([UInt8](data[(index * frameBytes)..<((index + 1) * frameBytes)]), expected, "frame \(index)")
    }
  }
}
