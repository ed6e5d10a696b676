@testable import FlickVideo
import FlickExpectations
import Testing

/// `--max-size`: sizes in decimal and binary units, the ladder's stated order, and a search that
/// takes the first setting that fits, deterministically.
@Suite struct OutputBudgetTests {
  @Test(arguments: [
    ("2MB", 2_000_000), ("500KB", 500_000), ("10MiB", 10_485_760), ("1.5mb", 1_500_000), ("64KiB", 65_536),
    ("250000", 250_000), ("3 GB", 3_000_000_000), ("2000B", 2_000),
  ])
  func sizesReadDecimalAndBinaryUnits(_ text: String, _ bytes: Int) throws {
    try expectEqual(OutputBudget.parse(text).bytes, bytes)
  }

  @Test(arguments: [
    "", "MB", "2XB", "-1MB", "0", "nanMB", "999B", "1e20GB", "0x10000", "0x1p20", "infMB", "1e999B", " 2MB", "2MB ",
    "2  MB",
  ])
  func otherSizesAreRefusedWithTheUnitsNamed(_ text: String) {
    #expect {
      try OutputBudget.parse(text)
    } throws: { error in
      guard case VideoError.invalidOption(let message) = error else { return false }
      return message.contains("--max-size")
    }
  }

  @Test func sizesAreDescribedInDecimalUnits() {
    expectEqual(OutputBudget.describe(2_000_000), "2 MB")
    expectEqual(OutputBudget.describe(1_934_567), "1.93 MB")
    expectEqual(OutputBudget.describe(10_485_760), "10.49 MB")
    expectEqual(OutputBudget.describe(512_000), "512 KB")
    expectEqual(OutputBudget.describe(999), "999 B")
  }

  /// A rate at which the GIF's frames keep no frame is not on the ladder (two frames at 30 fps
  /// keep one at 10, one frame keeps none there, so encoding it failed with "no frame is kept"):
  /// the search goes on at the lowest rate that keeps one, then narrower. A single frame tries no
  /// lower rate at all: its one image is the same at any rate.
  @Test func theLadderLeavesOutRatesThatKeepNoFrame() {
    expectEqual(
      OutputBudget.ladder(fps: 30, width: 640, frames: 1, hasLossy: false).prefix(4).map(\.fps), [30, 30, 30, 30])
    expectEqual(
      OutputBudget.ladder(fps: 30, width: 640, frames: 2, hasLossy: false).prefix(4).map(\.fps), [30, 25, 20, 10])
    for frames in 1...12 {
      for setting in OutputBudget.ladder(fps: 50, width: 320, frames: frames, hasLossy: false) {
        let kept = FrameSchedule.Output(format: .gif, renderFPS: 50, fps: setting.fps, renderFrames: frames).frameCount
        #expect(kept > 0, "\(frames) frames at \(setting.fps) fps")
      }
    }
  }

  /// A one-frame GIF's budget note names no rate (nothing shows one): "as one image".
  @Test func aOneFrameGIFIsNotedAsOneImage() {
    let setting = OutputBudget.Setting(fps: 20, width: 240, colors: 32)
    let one = GIFFinishing.Outcome(setting: setting, bytes: 1_934_567, encodings: 3, frames: 1)
    let budget = OutputBudget(bytes: 2_000_000)
    expectEqual(
      one.note(budget: budget), "fits under 2 MB as one image, 240 px wide, 32 colours (1.93 MB; 3 encodings)")
    let many = GIFFinishing.Outcome(setting: setting, bytes: 1_934_567, encodings: 3, frames: 2)
    expectEqual(many.note(budget: budget), "fits under 2 MB at 20 fps, 240 px wide, 32 colours (1.93 MB; 3 encodings)")
  }

  /// Frame rate first (exact GIF rates only), then width, then palette, then lossy.
  @Test func theLadderLowersRateThenWidthThenPaletteThenLossy() {
    let ladder = OutputBudget.ladder(fps: 50, width: 960, hasLossy: true)
    typealias S = OutputBudget.Setting
    expectEqual(Array(ladder.prefix(4).map(\.fps)), [50, 25, 20, 10])
    #expect(ladder.prefix(4).allSatisfy { $0.width == 960 && $0.colors == 256 && $0.lossy == 0 })
    expectEqual(Array(ladder[4..<10].map(\.width)), [840, 720, 600, 480, 360, 240])
    expectEqual(OutputBudget.widthFractions, "7/8, 3/4, 5/8, 1/2, 3/8, 1/4")
    expectEqual(Array(ladder[10..<13].map(\.colors)), [128, 64, 32])
    expectEqual(Array(ladder[13...].map(\.lossy)), [20, 40, 80, 120, 200])
    expectEqual(ladder.last, S(fps: 10, width: 240, colors: 32, lossy: 200))
    // Each setting is no better than the one before in any respect.
    for (a, b) in zip(ladder, ladder.dropFirst()) {
      expectLessOrEqual(b.fps, a.fps)
      expectLessOrEqual(b.width, a.width)
      expectLessOrEqual(b.colors, a.colors)
      expectGreaterOrEqual(b.lossy, a.lossy)
      expectNotEqual(b, a)
    }
    // Without gifsicle there is no lossy step; a narrow, slow GIF keeps its rate and width.
    #expect(OutputBudget.ladder(fps: 50, width: 960, hasLossy: false).allSatisfy { $0.lossy == 0 })
    let small = OutputBudget.ladder(fps: 8, width: 100, hasLossy: false)
    #expect(small.allSatisfy { $0.fps == 8 && $0.width == 100 })
    expectEqual(small.map(\.colors), [256, 128, 64, 32])
    // 30 fps goes to the exact rates below it.
    expectEqual(OutputBudget.ladder(fps: 30, width: 640, hasLossy: false).prefix(4).map(\.fps), [30, 25, 20, 10])
  }

  /// A size model: proportional to rate and pixels, less with fewer colours and with lossy.
  static func modelSize(_ s: OutputBudget.Setting) -> Int {
    let base = Double(s.fps) * Double(s.width * s.width) / 10
    return Int(base * (0.6 + 0.4 * Double(s.colors) / 256) * (1 - Double(s.lossy) / 400))
  }

  @Test func theSearchTakesTheFirstSettingThatFits() {
    let ladder = OutputBudget.ladder(fps: 50, width: 960, hasLossy: true)
    let sizes = ladder.map(Self.modelSize)
    for budget in [sizes[0], sizes[2], sizes[5] + 1, sizes[9], sizes.last!] {
      var measured: [OutputBudget.Setting] = []
      let found = OutputBudget(bytes: budget).search(ladder) { s in
        measured.append(s)
        return Self.modelSize(s)
      }
      let expected = ladder.first { Self.modelSize($0) <= budget }
      expectEqual(found.chosen, expected, "budget \(budget)")
      expectEqual(found.bytes, Self.modelSize(expected!))
      expectEqual(found.encodings, measured.count)
      // Run again: the same settings are measured and the same one chosen.
      var again: [OutputBudget.Setting] = []
      let second = OutputBudget(bytes: budget).search(ladder) { s in
        again.append(s)
        return Self.modelSize(s)
      }
      expectEqual(again, measured)
      expectEqual(second.chosen, found.chosen)
    }
  }

  /// Far over budget, rate and width steps predicted to stay over are not encoded.
  @Test func stepsPredictedOverBudgetAreSkipped() {
    let ladder = OutputBudget.ladder(fps: 50, width: 960, hasLossy: false)
    var measured: [OutputBudget.Setting] = []
    let budget = Self.modelSize(OutputBudget.Setting(fps: 10, width: 240))
    let found = OutputBudget(bytes: budget).search(ladder) { s in
      measured.append(s)
      return Self.modelSize(s)
    }
    expectEqual(found.chosen, OutputBudget.Setting(fps: 10, width: 240))
    expectEqual(measured.count, 2, "the output's own setting and the one that fits: \(measured)")
  }

  @Test func nothingFitsReportsTheLastSize() {
    let ladder = OutputBudget.ladder(fps: 25, width: 320, hasLossy: false)
    let found = OutputBudget(bytes: 1).search(ladder) { Self.modelSize($0) }
    #expect(found.chosen == nil)
    expectEqual(found.bytes, Self.modelSize(ladder.last!))
  }

  /// A palette under 256 colours is ffmpeg's `palettegen` with `max_colors` (Flick's own palette
  /// is for 256); outside 2…256 it is refused.
  @Test func aSmallerPaletteIsFFmpegsWithMaxColors() throws {
    var options = EncodingOptions()
    options.gifColors = 64
    let command = try FFmpegCommand(format: .gif, width: 64, height: 48, fps: 10, options: options, output: "/x.gif")
    let pass = try #require(command.palettePass).joined(separator: " ")
    #expect(pass.contains("-vf palettegen=stats_mode=diff:max_colors=64"), "\(pass)")
    #expect(!command.computesPalette)
    options.gifColors = 256
    let full = try FFmpegCommand(format: .gif, width: 64, height: 48, fps: 10, options: options, output: "/x.gif")
    #expect(full.computesPalette, "256 colours: Flick's palette, as before")
    #expect(full.palettePass == nil, "256 colours: Flick's palette, as before")
    for colors in [1, 257] {
      options.gifColors = colors
      #expect(throws: VideoError.self) {
        try FFmpegCommand(format: .gif, width: 64, height: 48, fps: 25, options: options, output: "/x.gif")
      }
    }
  }
}
