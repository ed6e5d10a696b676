import FlickRaster
import FlickScene
import FlickTemplates
@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// Flick's BGRA → yuv420p conversion is ffmpeg 5.1's `scale` filter with the MP4 settings, byte
/// for byte: on noise (every rounding path), on flat colours and extremes, at the sizes where
/// the chroma filter changes shape (2, 4 and 6 rows trim it; odd multiples of two shift its
/// edges), and with transparent pixels (alpha ignored, as ffmpeg ignores it).
@Suite struct YUV420ConverterTests {
  /// What ffmpeg's scale filter, as the MP4 command used it, makes of `frames`.
  static func ffmpegYUV(_ frames: [[UInt8]], width: Int, height: Int) throws -> [UInt8] {
    try TestSupport.ffmpegFiltered(frames, width: width, height: height, filter: FFmpegCommand.scale(to: "yuv420p"))
  }

  static func flickYUV(_ frames: [[UInt8]], width: Int, height: Int) -> [UInt8] {
    let converter = YUV420Converter(width: width, height: height)
    var result: [UInt8] = []
    for frame in frames {
      var out = [UInt8](repeating: 0, count: YUV420Converter.frameSize(width: width, height: height))
      frame.withUnsafeBytes { source in out.withUnsafeMutableBufferPointer { converter.convert(source, into: $0) } }
      result += out
    }
    return result
  }

  static func frames(_ name: String, width: Int, height: Int) -> [[UInt8]] {
    var random = GIFPaletteTests.Bytes(state: UInt64(name.utf8.reduce(width &* 131 &+ height) { $0 &* 31 &+ Int($1) }))
    let pixels = width * height
    func frame(_ pixel: (Int) -> UInt32) -> [UInt8] {
      var bytes = [UInt8](repeating: 0, count: pixels * 4)
      for i in 0..<pixels {
        let p = pixel(i)
        for k in 0..<4 { bytes[i * 4 + k] = UInt8(truncatingIfNeeded: p >> (8 * k)) }
      }
      return bytes
    }
    switch name {
    case "noise":
      return (0..<2).map { _ in frame { _ in UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000 } }
    case "translucent noise":
      return [frame { _ in UInt32(truncatingIfNeeded: random.next()) }]
    case "extremes":
      // Black, white, the primaries and secondaries in stripes and checks: the largest sums.
      let colours: [UInt32] = [
        0xFF00_0000, 0xFFFF_FFFF, 0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FF00, 0xFF00_FFFF, 0xFFFF_00FF,
      ]
      return [
        frame { colours[($0 % width / 3 + $0 / width / 2) % colours.count] },
        frame { i in colours[(i % width + i / width) % 2 == 0 ? 1 : 0] },
      ]
    case "gradient":
      return [
        frame { i in
          0xFF00_0000 | UInt32(i % width * 255 / max(1, width - 1)) << 16 | UInt32(i / width * 255 / max(1, height - 1))
            << 8 | 0x40
        }
      ]
    default:
      preconditionFailure("no case \(name)")
    }
  }

  @Test(arguments: [
    ("noise", 64, 48), ("noise", 2, 2), ("noise", 4, 4), ("noise", 6, 6), ("noise", 8, 10), ("noise", 34, 18),
    ("noise", 30, 14), ("noise", 22, 26), ("noise", 96, 54), ("translucent noise", 40, 30), ("extremes", 48, 36),
    ("gradient", 160, 90), ("noise", 256, 2), ("noise", 2, 64),
  ])
  func matchesSwscaleByteForByte(_ name: String, _ width: Int, _ height: Int) throws {
    let frames = Self.frames(name, width: width, height: height)
    let expected = try Self.ffmpegYUV(frames, width: width, height: height)
    let yuv = Self.flickYUV(frames, width: width, height: height)
    expectEqual(yuv.count, expected.count)
    if yuv != expected {
      let frameSize = YUV420Converter.frameSize(width: width, height: height)
      let differing = zip(yuv, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
      let first = differing.first ?? -1
      let plane = first % frameSize < width * height ? "Y" : first % frameSize < width * height * 5 / 4 ? "Cb" : "Cr"
      Issue.record(
        "\(differing.count) bytes differ, the first at \(first) (\(plane) of frame \(first / frameSize)): \(yuv[max(first, 0)]) against \(expected[max(first, 0)])"
      )
    }
  }

  /// AVX2, SSE2 and plain C give the same planes (the default path is pinned to ffmpeg's above),
  /// at widths that leave every kind of tail: under 8, 8–15, 16 plus 2, 8 or 14, and wide.
  @Test func everyVectorWidthGivesTheSameBytes() throws {
    defer { YUV420Converter.limitVectors(256) }
    for (name, width, height) in [
      ("noise", 2, 4), ("noise", 6, 6), ("noise", 14, 10), ("noise", 16, 8), ("noise", 18, 12), ("noise", 24, 6),
      ("noise", 30, 14), ("noise", 48, 20), ("extremes", 64, 36), ("translucent noise", 98, 30),
      ("gradient", 962, 16),
    ] {
      let frames = Self.frames(name, width: width, height: height)
      var results: [Int: [UInt8]] = [:]
      for bits in [0, 128, 256] {
        let used = YUV420Converter.limitVectors(bits)
        expectLessOrEqual(used, bits)
        results[used] = Self.flickYUV(frames, width: width, height: height)
      }
      expectGreaterOrEqual(results.count, 2, "only the \(results.keys.sorted()) paths exist here")
      let plain = try #require(results[0])
      for (bits, planes) in results where planes != plain {
        let first = zip(planes, plain).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
        Issue.record("\(name) \(width)×\(height): \(bits)-bit vectors differ from plain C, first at byte \(first)")
      }
    }
  }

  /// The chroma filter halves the rows with taps summing to 4096, starting inside the image.
  @Test(arguments: [2, 4, 6, 8, 10, 14, 540, 1080, 2160])
  func chromaFilterIsNormalisedAndInside(_ rows: Int) {
    let filter = YUV420Converter.chromaFilter(sourceRows: rows)
    expectEqual(filter.start.count, rows / 2)
    for row in 0..<(rows / 2) {
      let taps = filter.coefficients[(row * filter.taps)..<((row + 1) * filter.taps)]
      expectEqual(taps.reduce(0) { $0 + Int($1) }, 4096)
      expectGreaterOrEqual(filter.start[row], 0)
      for (tap, c) in taps.enumerated() where c != 0 { expectLess(filter.start[row] + tap, rows) }
    }
  }

  /// Every bundled template's MP4 (Flick converting, ffmpeg reading `yuv420p`) is byte for
  /// byte the MP4 ffmpeg makes converting the same frames itself, as MP4s were made before.
  @Test(
    arguments: try! FileManager.default.contentsOfDirectory(atPath: templates.path)
      .filter { $0.hasSuffix(".json5") }.sorted())
  func mp4IsTheOneFFmpegsOwnConversionMakes(_ file: String) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let template = Self.templates.appendingPathComponent(file).path
    let scene = try Template.load(path: template).scene
    let width = Int(scene.size.width.rounded()), height = Int(scene.size.height.rounded())
    let mp4 = dir.appendingPathComponent("flick.mp4").path
    let raw = dir.appendingPathComponent("frames.bgra").path
    let r = try TestSupport.run(
      TestSupport.flick, ["render", template, "-o", mp4, "-o", raw, "--frames", "0..8", "-q"])
    try #require(r.status == 0, "flick: \(r.stderr)")
    let reference = dir.appendingPathComponent("reference.mp4").path
    let command = try FFmpegCommand(
      format: .mp4, width: width, height: height, fps: scene.fps, options: EncodingOptions(), output: reference)
    #expect(command.readsYUV420)
    let run = try TestSupport.run("/usr/bin/env", ["ffmpeg"] + Self.convertingInFFmpeg(command.arguments, input: raw))
    try #require(run.status == 0, "ffmpeg: \(run.stderr)")
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: mp4)), Data(contentsOf: URL(fileURLWithPath: reference)))
  }

  static let templates = TestSupport.root.appendingPathComponent("Templates")

  /// An MP4 command reading BGRA from `input` and converting with ffmpeg's `scale` step instead
  /// of reading Flick's planes.
  static func convertingInFFmpeg(_ arguments: [String], input: String) -> [String] {
    var args = arguments
    if let format = args.firstIndex(of: "-pix_fmt") { args[format + 1] = "bgra" }
    if let filters = args.firstIndex(of: "-vf") {
      args[filters + 1] = FFmpegCommand.scale(to: "yuv420p") + "," + args[filters + 1]
    }
    return args.map { $0 == "pipe:0" ? input : $0 }
  }

  /// A renderer that draws frames of another size than the MP4 was started with (a custom one
  /// may) neither crashes the workers nor reaches ffmpeg: odd frames get no planes, and the
  /// encoder refuses the frame with the size it expected.
  @Test(arguments: [(63, 48), (64, 47), (66, 48)])
  func framesOfAnotherSizeAreRefused(_ width: Int, _ height: Int) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let encoder = try FFmpegSink(
      destination: dir.appendingPathComponent("out.mp4").path, format: .mp4, width: 64, height: 48, fps: 10,
      ffmpeg: try FFmpegTool.locate(for: [.mp4]))
    defer { encoder.abort() }
    #expect(encoder.wantsYUV420)
    let pipeline = RenderPipeline(jobs: 2) { _ in { _ in Frame(width: width, height: height) } }
    let scene = TestSupport.movingScene(width: 64, height: 48, fps: 10, duration: 0.3)
    var delivered = 0
    #expect(throws: VideoError.self) {
      try pipeline.run(
        frames: 0..<scene.frameCount, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) },
        layouts: FrameLayouts(yuv420: true)
      ) { frame in
        expectEqual((frame.yuv420 != nil), YUV420Converter.accepts(width: width, height: height))
        delivered += 1
        try encoder.write(frame)
      }
    }
    expectEqual(delivered, 1)
  }

  /// A frame converted on the delivery thread (no planes from the workers) is the same; one that
  /// cannot be converted (odd, or its premultiplied bytes dropped) gives no bytes, not a trap.
  @Test func framesWithoutPlanesAreConvertedOrRefused() throws {
    let frames = Self.frames("noise", width: 8, height: 6)
    let frame = Frame(width: 8, height: 6, bytesPerRow: 32, pixels: frames[0])
    expectEqual(
      PreparedFrame(index: 0, frame: frame, layouts: .premultiplied).yuv420Bytes(),
      Self.flickYUV([frames[0]], width: 8, height: 6))
    let dropped = PreparedFrame(
      index: 0, frame: frame, layouts: FrameLayouts(straightAlpha: true, keepsPremultiplied: false))
    #expect(dropped.yuv420Bytes().isEmpty)
    let odd = Frame(width: 7, height: 6)
    #expect(PreparedFrame(index: 0, frame: odd, layouts: .premultiplied).yuv420Bytes().isEmpty)
  }
}
