@testable import FlickVideo
import FlickExpectations
import Testing

@Suite struct FFmpegCommandTests {
  func command(
    _ format: OutputFormat, _ w: Int = 64, _ h: Int = 48, fps: Int = 30, options o: EncodingOptions = .init()
  )
    throws -> [String]
  {
    try FFmpegCommand(format: format, width: w, height: h, fps: fps, options: o, output: "out").arguments
  }

  /// Flick converts an MP4's frames (``YUV420Converter``, BT.709, limited range): ffmpeg reads
  /// `yuv420p` and tags it.
  @Test func mp4ReadsFlicksBT709PlanesAndTagsThem() throws {
    let command = try FFmpegCommand(format: .mp4, width: 64, height: 48, fps: 30, options: .init(), output: "out")
    let args = command.arguments
    #expect(command.readsYUV420)
    expectEqual(args.firstIndex(of: "-pix_fmt").map { args[$0 + 1] }, "yuv420p")
    expectEqual(args.firstIndex(of: "-vf").map { args[$0 + 1] }, FFmpegCommand.colourParameters)
    for (flag, value) in [
      ("-color_primaries", "bt709"), ("-color_trc", "bt709"), ("-colorspace", "bt709"), ("-pix_fmt", "yuv420p"),
      ("-crf", "18"), ("-movflags", "+faststart"), ("-c:v", "libx264"), ("-preset", "veryfast"),
    ] {
      expectEqual(args.lastIndex(of: flag).map { args[$0 + 1] }, value, "\(flag)")
    }
    expectEqual(args.last, "out")
  }

  /// Without the canvas no --size is suggested (OutputSizeTests: with it, the even size --size
  /// accepts).
  @Test func oddSizesAreRefusedForMP4WithThePadding() {
    #expect(
      throws: VideoError.invalidSize(
        width: 641, height: 360, reason: "H.264 in yuv420p needs even sides; add --pad to pad to 642x360")
    ) {
      _ = try command(.mp4, 641, 360)
    }
  }

  @Test func paddingMakesOddSidesEven() throws {
    let args = try command(.mp4, 641, 361, options: EncodingOptions(pad: true, padColor: 0x0F172A))
    let vf = try #require(args.firstIndex(of: "-vf").map { args[$0 + 1] })
    #expect(vf.hasPrefix("pad=642:362:0:0:color=0x0f172a,"))
    // Padded frames are converted by ffmpeg, from BGRA.
    #expect(vf.contains("out_color_matrix=bt709"))
    #expect(vf.contains("out_range=tv"))
    expectEqual(args.firstIndex(of: "-pix_fmt").map { args[$0 + 1] }, "bgra")
  }

  @Test func outOfRangeOptionsAreRefused() {
    #expect(throws: VideoError.self) { try command(.mp4, options: EncodingOptions(crf: 0)) }
    #expect(throws: VideoError.self) { try command(.mp4, options: EncodingOptions(preset: "warp")) }
    func gif(_ fps: Int, _ gifFPS: Int) throws {
      _ = try FrameSchedule(renderFPS: fps, frames: 0..<fps, outputs: [.gif], options: EncodingOptions(gifFPS: gifFPS))
    }
    #expect(throws: VideoError.self) { try gif(60, 60) }
    #expect(throws: VideoError.self) { try gif(20, 25) }
    #expect(throws: VideoError.self) { try command(.webm, options: EncodingOptions(crf: 64)) }
  }

  @Test func gifRatesAndLoops() throws {
    expectEqual(FrameSchedule.gifFPS(renderFPS: 60, requested: nil), 50)
    expectEqual(FrameSchedule.gifFPS(renderFPS: 30, requested: nil), 30)
    expectEqual(FrameSchedule.gifFPS(renderFPS: 60, requested: 20), 20)
    #expect([50, 25, 20, 10, 5, 4, 2, 1].allSatisfy(FrameSchedule.isExactGIFRate))
    #expect(![60, 30, 24, 15, 12].contains(where: FrameSchedule.isExactGIFRate))
    expectEqual(FFmpegCommand.gifLoop(plays: 0), 0)
    expectEqual(FFmpegCommand.gifLoop(plays: 1), -1)
    expectEqual(FFmpegCommand.gifLoop(plays: 3), 2)
    let args = try command(.gif, fps: 50, options: EncodingOptions(dither: .none, plays: 2, gifWidth: 32))
    let graph = try #require(args.firstIndex(of: "-filter_complex").map { args[$0 + 1] })
    expectEqual(
      graph,
      "movie=filename=file\\\\\\:out.palette.png:f=png_pipe:dec_threads=1[p];"
        + "[0:v]scale=32:-1:flags=lanczos[f];[f][p]paletteuse=dither=none:diff_mode=rectangle")
    expectEqual(args.firstIndex(of: "-loop").map { args[$0 + 1] }, "1")
  }

  /// A GIF whose frames reach palettegen as rendered gets Flick's palette and one ffmpeg
  /// command, which reads it as its first frame (frames of 16 × 16 or more,
  /// GIFPaletteFirstTests); asked for, ffmpeg's palettegen is a pass of its own. Either way the
  /// encoding pass has one input, the frames: a palette file comes from a `movie` source in its
  /// graph.
  @Test func gifsReadFlicksPaletteUnlessFFmpegMakesIt() throws {
    let c = try FFmpegCommand(
      format: .gif, width: 64, height: 48, fps: 30, options: EncodingOptions(), output: "/o/a.gif",
      palette: "/o/.a.gif.palette")
    #expect(c.computesPalette && c.readsPaletteFirst)
    #expect(c.palettePass == nil && c.palettePath == nil)
    expectEqual(c.arguments.filter { $0 == "-i" }.count, 1)
    let graph = try #require(c.arguments.firstIndex(of: "-filter_complex").map { c.arguments[$0 + 1] })
    expectEqual(
      graph,
      "[0:v]split[f][q];[q]trim=end_frame=1,crop=16:16:0:0[p];[f]trim=start_frame=1,setpts=PTS-STARTPTS[v];"
        + "[v][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle")
    let small = try FFmpegCommand(
      format: .gif, width: 8, height: 48, fps: 30, options: EncodingOptions(), output: "/o/a.gif",
      palette: "/o/.a.gif.palette")
    #expect(small.computesPalette && !small.readsPaletteFirst)
    expectEqual(small.palettePath, "/o/.a.gif.palette.pam")
    expectEqual(
      small.arguments.firstIndex(of: "-filter_complex").map { small.arguments[$0 + 1] },
      "movie=filename=file\\\\\\:/o/.a.gif.palette.pam:f=pam_pipe:dec_threads=1[p];"
        + "[0:v][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle")
    var options = EncodingOptions()
    options.gifPalette = .ffmpeg
    let f = try FFmpegCommand(
      format: .gif, width: 64, height: 48, fps: 30, options: options, output: "/o/a.gif", palette: "/o/.a.gif.palette")
    #expect(!f.computesPalette)
    expectEqual(f.palettePath, "/o/.a.gif.palette.png")
    expectEqual(f.palettePass?.last, f.palettePath)
    expectEqual(f.arguments.filter { $0 == "-i" }.count, 1)
    #expect(f.arguments.contains { $0.hasPrefix("movie=filename=file\\\\\\:/o/.a.gif.palette.png:f=png_pipe") })
  }

  /// The palette's path goes into the filter graph escaped twice, once for the graph's
  /// separators and once for the filter's options, whatever its characters.
  @Test func palettePathsAreEscapedForTheFilterGraph() {
    expectEqual(FFmpegCommand.filterEscaped("/a b/c:d,e;f[g]h'i\\j=k"), "/a\\ b/c\\:d\\,e\\;f\\[g\\]h\\'i\\\\j\\=k")
    expectEqual(FFmpegCommand.filterEscaped("/é/ü.gif"), "/é/ü.gif")
    expectEqual(
      FFmpegCommand.movie("/x:y/p.pam", format: "pam_pipe"),
      "movie=filename=file\\\\\\:/x\\\\\\:y/p.pam:f=pam_pipe:dec_threads=1")
  }

  /// No GIF command resamples: the frames arrive at the GIF's rate (``FrameSchedule`` chose
  /// them), whoever makes the palette and whether the GIF is scaled.
  @Test func gifCommandsReadTheirFramesAtTheGIFsRate() throws {
    var ffmpegPalette = EncodingOptions()
    ffmpegPalette.gifPalette = .ffmpeg
    for options in [EncodingOptions(), ffmpegPalette, EncodingOptions(gifFPS: 25, gifWidth: 32)] {
      let c = try FFmpegCommand(format: .gif, width: 64, height: 48, fps: 50, options: options, output: "/o/a.gif")
      for pass in [c.arguments, c.palettePass ?? []] where !pass.isEmpty {
        expectEqual(pass.firstIndex(of: "-framerate").map { pass[$0 + 1] }, "50")
        #expect(!pass.contains { $0.contains("fps=") })
      }
    }
  }

  /// A GIF whose frames are filtered before the palette (here scaled) is two
  /// commands: the palette from the frames, then the frames again with it. Neither keeps frames
  /// (no `split`, which would buffer all of them until the palette exists).
  @Test func gifsTakeTwoPassesThroughAPaletteFile() throws {
    let c = try FFmpegCommand(
      format: .gif, width: 64, height: 48, fps: 50, options: EncodingOptions(gifWidth: 32), output: "/o/a.gif",
      palette: "/o/.a.gif.palette")
    #expect(!c.computesPalette)
    let first = try #require(c.palettePass)
    expectEqual(
      first.firstIndex(of: "-vf").map { first[$0 + 1] }, "scale=32:-1:flags=lanczos,palettegen=stats_mode=diff")
    expectEqual(first.last, "/o/.a.gif.palette.png")
    #expect(first.contains("pipe:0"))
    #expect(c.arguments.contains("pipe:0"))
    expectEqual(c.arguments.last, "/o/a.gif")
    #expect(c.arguments.contains { $0.hasPrefix("movie=filename=file\\\\\\:/o/.a.gif.palette.png:") })
    #expect(!(first + c.arguments).contains { $0.contains("split") })
    let mp4 = try FFmpegCommand(
      format: .mp4, width: 64, height: 48, fps: 60, options: EncodingOptions(), output: "/o/a.mp4")
    #expect(mp4.palettePass == nil)
    #expect(mp4.palettePath == nil)
  }

  @Test func alphaFormatsKeepAlpha() throws {
    #expect(try command(.webm).contains("yuva420p"))
    #expect(try command(.mov).contains("yuva444p10le"))
    #expect(try command(.apng).contains("rgba"))
    #expect(try command(.webp).contains("yuva420p"))
    expectEqual(OutputFormat.allCases.filter(\.hasAlpha), [.gif, .webm, .mov, .apng, .webp, .png])
    expectEqual(OutputFormat.allCases.filter(\.usesFFmpeg), [.mp4, .gif, .webm, .mov, .apng, .webp])
  }
}
