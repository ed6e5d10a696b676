import FlickExpectations
import FlickRaster
import Foundation
import Testing

@testable import FlickVideo

/// A GIF's encoding pass reads Flick's palette as its first input frame
/// (``FFmpegCommand/readsPaletteFirst``), so it starts with the sink, beside the raster pass,
/// instead of after it: the same bytes as reading the palette from a PAM file, which frames
/// smaller than the palette's 16 × 16 still do.
@Suite struct GIFPaletteFirstTests {
  /// Six frames of `width × height` BGRA: a gradient that slides, over a pattern of 40 colours
  /// that does not move, so frames differ in part (`diff_mode=rectangle` matters) and the
  /// palette has more colours than a gradient alone.
  static func frames(width: Int, height: Int) -> [[UInt8]] {
    (0..<6).map { t in
      var bytes = [UInt8](repeating: 255, count: width * height * 4)
      for y in 0..<height {
        for x in 0..<width {
          let i = (y * width + x) * 4
          let moving = x >= t * 3 && x < t * 3 + width / 2
          bytes[i] = UInt8((x * 255) / max(1, width - 1))
          bytes[i + 1] = moving ? UInt8((y * 7 + t * 40) & 255) : UInt8((x * y) % 40 * 6)
          bytes[i + 2] = moving ? UInt8((255 - y * 5) & 255) : UInt8((x + y) % 40 * 6)
        }
      }
      return bytes
    }
  }

  /// `arguments` with the frames read from `input` instead of stdin.
  static func reading(_ input: String, _ arguments: [String]) -> [String] {
    arguments.map { $0 == "pipe:0" ? input : $0 }
  }

  /// For every dither (and at the smallest size that carries the palette, and an odd one), the
  /// GIF whose palette came first on the input is byte for byte the one whose encoding pass read
  /// the same palette from a PAM file through a `movie` source (the command Flick ran before),
  /// whose frames' timestamps it keeps.
  @Test(
    arguments: EncodingOptions.Dither.allCases.map { ($0, 48, 32) } + [(.bayer, 16, 16), (.floydSteinberg, 17, 40)])
  func thePaletteFirstMakesTheGIFThePaletteFileMakes(_ dither: EncodingOptions.Dither, _ width: Int, _ height: Int)
    throws
  {
    let frames = Self.frames(width: width, height: height)
    let colors = try #require(GIFPaletteTests.flickColors(frames))
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = { (name: String) in dir.appendingPathComponent(name).path }
    var options = EncodingOptions()
    options.dither = dither
    let first = try FFmpegCommand(
      format: .gif, width: width, height: height, fps: 25, options: options, output: path("first.gif"))
    #expect(first.readsPaletteFirst && first.computesPalette && first.palettePath == nil)
    try Data(GIFPalette.frame(colors, width: width, height: height) + frames.joined()).write(
      to: URL(fileURLWithPath: path("first.bgra")))
    try Data(frames.joined()).write(to: URL(fileURLWithPath: path("frames.bgra")))
    try Data(GIFPalette.pam(colors)).write(to: URL(fileURLWithPath: path("p.pam")))
    var file = Self.reading(path("frames.bgra"), first.arguments)
    let graph = try #require(file.firstIndex(of: "-filter_complex"))
    file[graph + 1] =
      FFmpegCommand.movie(path("p.pam"), format: "pam_pipe") + "[p];[0:v][p]paletteuse="
      + FFmpegCommand.paletteUse(dither)
    file[file.count - 1] = path("file.gif")
    for arguments in [Self.reading(path("first.bgra"), first.arguments), file] {
      let r = try TestSupport.run("/usr/bin/env", ["ffmpeg"] + arguments)
      expectEqual(r.status, 0, "ffmpeg: \(r.stderr)")
    }
    let made = try Data(contentsOf: URL(fileURLWithPath: path("first.gif")))
    #expect(made.count > 800)
    #expect(made == (try Data(contentsOf: URL(fileURLWithPath: path("file.gif")))))
  }

  /// The palette frame: the 16 × 16 image row by row in the top-left corner, zeros elsewhere.
  @Test func thePaletteFrameHoldsTheImageInItsCorner() {
    let colors: [UInt32] = (0..<256).map { (i: Int) -> UInt32 in
      let blue = UInt32(i)
      let green = UInt32(255 - i) << 8
      return blue | green | 0xFF7F_0000
    }
    let frame = GIFPalette.frame(colors, width: 20, height: 17)
    let image = GIFPalette.image(colors)
    expectEqual(frame.count, 20 * 17 * 4)
    for row in 0..<17 {
      let line = Array(frame[(row * 80)..<(row * 80 + 80)])
      if row < 16 {
        expectEqual(Array(line[0..<64]), Array(image[(row * 64)..<(row * 64 + 64)]), "row \(row)")
        expectEqual(Array(line[64...]), [UInt8](repeating: 0, count: 16), "row \(row)")
      } else {
        expectEqual(line, [UInt8](repeating: 0, count: 80))
      }
    }
  }

  /// Which GIFs read the palette first: Flick's palette on frames of 16 × 16 or more. Narrower
  /// or lower frames read it from a PAM file; ffmpeg's palette is a pass of its own.
  @Test(arguments: [(16, 16, true), (640, 360, true), (15, 64, false), (64, 15, false), (1, 1, false)])
  func framesOfSixteenOrMoreReadThePaletteFirst(_ width: Int, _ height: Int, _ first: Bool) throws {
    let c = try FFmpegCommand(
      format: .gif, width: width, height: height, fps: 30, options: EncodingOptions(), output: "/o/a.gif",
      palette: "/o/.a.gif.palette")
    expectEqual(c.readsPaletteFirst, first)
    #expect(c.computesPalette)
    expectEqual(c.palettePath, first ? nil : "/o/.a.gif.palette.pam")
    expectEqual(c.arguments.filter { $0 == "-i" }.count, 1)
    let graph = try #require(c.arguments.firstIndex(of: "-filter_complex").map { c.arguments[$0 + 1] })
    expectEqual(graph.hasPrefix(FFmpegCommand.paletteFirst), first)
    expectEqual(graph.contains("movie="), !first)
    var ffmpegPalette = EncodingOptions()
    ffmpegPalette.gifPalette = .ffmpeg
    let f = try FFmpegCommand(
      format: .gif, width: width, height: height, fps: 30, options: ffmpegPalette, output: "/o/a.gif")
    #expect(!f.readsPaletteFirst && f.palettePass != nil)
  }

  /// The sink starts the encoding ffmpeg when it is made, when the palette comes first and it
  /// is the render's first GIF, and not before the palette exists otherwise; every GIF is
  /// complete and nothing is left beside it.
  @Test(arguments: [
    (32, 24, true, true), (32, 24, false, false), (16, 16, true, true), (16, 15, true, false), (12, 12, true, false),
  ])
  func theEncoderStartsWithTheFirstGIFsSinkWhenThePaletteComesFirst(
    _ width: Int, _ height: Int, _ first: Bool, _ early: Bool
  ) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let destination = dir.appendingPathComponent("a.gif").path
    let sink = try GIFSink(
      destination: destination, width: width, height: height, fps: 10, ffmpeg: try FFmpegTool.locate(for: [.gif]),
      startsEncoderNow: first)
    expectEqual(sink.encoder != nil, early)
    for (index, pixels) in Self.frames(width: width, height: height).enumerated() {
      let frame = Frame(width: width, height: height, bytesPerRow: width * 4, pixels: pixels)
      try sink.write(PreparedFrame(index: index, frame: frame, layouts: .premultipliedAndStraight))
    }
    try sink.finish()
    try sink.commit()
    let gif = try Data(contentsOf: URL(fileURLWithPath: destination))
    #expect(gif.starts(with: Data("GIF89a".utf8)) && gif.last == 0x3B)
    expectEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["a.gif"])
  }

  /// Only a render's first GIF output starts its encoder with the render: the sinks finish in
  /// order, so a later GIF's ffmpeg would wait through the first one's encoding pass.
  @Test func onlyTheFirstGIFOutputIsTheFirstGIF() throws {
    let schedule = try FrameSchedule(
      renderFPS: 30, frames: 0..<30, outputs: [.mp4, .gif, .apng, .gif], options: EncodingOptions())
    expectEqual(
      schedule.outputs.indices.map { FrameSchedule.Output.isFirstGIF($0, in: schedule.outputs) },
      [true, true, false, false])
  }
}
