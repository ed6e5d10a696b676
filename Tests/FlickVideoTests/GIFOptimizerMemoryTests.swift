import FlickExpectations
import FlickMotion
import Foundation
import Testing

@testable import FlickVideo

/// gifsicle keeps every image of a GIF uncompressed while it optimises, so its memory grows with
/// the GIF's length: it runs only when what it would need fits what an MP4 of the same size
/// needs, and otherwise the GIF stays as ffmpeg wrote it and the summary says why. What the
/// memory watch leaves is GIFOptimizerHeadroomTests'.
@Suite struct GIFOptimizerMemoryTests {
  static var hasGifsicle: Bool { GIFOptimizer.locate() != nil }

  /// The estimate is twice the file, the images' pixels and 2 MiB, at or above what gifsicle 1.93
  /// was measured to use on the two GIFs in its doc comment.
  /// A gifsicle that cannot start leaves no temporary output behind (nor registered for removal),
  /// and its failure names gifsicle (it read "cannot start ffmpeg").
  @Test func aGifsicleThatCannotStartLeavesNoOutput() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("in.gif").path
    try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: input))
    let output = dir.appendingPathComponent(".out.gif.\(getpid()).gifsicle.partial").path
    let failure = try GIFOptimizer(path: dir.appendingPathComponent("no-gifsicle").path)
      .optimize(input, to: output, lossy: 0, destination: dir.appendingPathComponent("out.gif").path, stallTimeout: 5)
    #expect(failure?.reason.hasPrefix("it could not be started: ") == true, "\(String(describing: failure))")
    #expect(failure?.description.hasPrefix("gifsicle ") == true, "\(String(describing: failure))")
    #expect(!FileManager.default.fileExists(atPath: output))
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path), ["in.gif"])
  }

  @Test func theEstimateCoversWhatGifsicleWasMeasuredToUse() {
    expectEqual(GIFOptimizer.memory(file: 1_000, pixels: 5_000), 7_000 + (2 << 20))
    expectGreaterOrEqual(GIFOptimizer.memory(file: 2_405_905, pixels: 19_800_000), 24_692 * 1024)
    expectGreaterOrEqual(GIFOptimizer.memory(file: 13_273_831, pixels: 115_100_000), 133_984 * 1024)
    expectLessOrEqual(GIFOptimizer.memory(file: .max / 2, pixels: .max / 2), .max)
  }

  /// What an MP4 of the size needs: a bound of the size and preset alone, and gifsicle is left
  /// out exactly when its estimate is over it.
  @Test func theAllowanceIsAnMP4sOfTheSameSize() {
    let mp4 = MemoryEstimate.encoderBytes(.mp4, width: 640, height: 360, preset: "veryfast")
    expectEqual(GIFOptimizer.allowance(width: 640, height: 360, preset: "veryfast"), mp4)
    // Larger frames, more room: x264 needs more for them.
    expectLess(mp4, GIFOptimizer.allowance(width: 1920, height: 1080, preset: "veryfast"))
    let needed = GIFOptimizer.memory(file: 2_000_000, pixels: 90_000_000)
    #expect(GIFOptimizer.skip(file: 2_000_000, pixels: 90_000_000, allowance: needed) == nil)
    expectEqual(
      GIFOptimizer.skip(file: 2_000_000, pixels: 90_000_000, allowance: needed - 1),
      GIFOptimizer.Skip(needed: needed, allowance: needed - 1))
  }

  @Test func theSummarySaysWhyGifsicleDidNotRun() {
    let mp4 = GIFOptimizer.Skip(needed: 143 << 20, allowance: 96 << 20)
    expectEqual(
      GIFOptimizer.Outcome(before: 5, after: 5, seconds: 0, skipped: mp4).note,
      "kept as ffmpeg wrote it: gifsicle -O3 would need about 143 MiB, more than an MP4 of this size (96 MiB)")
  }

  /// The images' pixels are read from the image descriptors: a 2×3 image and a 4×1 image.
  @Test func theImagesPixelsAreSummedFromTheFile() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var gif: [UInt8] = Array("GIF89a".utf8) + [8, 0, 8, 0, 0x80, 0, 0] + [UInt8](repeating: 0, count: 6)
    // A graphic control extension, then two images, each with a minimal LZW stream.
    gif += [0x21, 0xF9, 4, 0, 0, 0, 0, 0]
    gif += [0x2C, 0, 0, 0, 0, 2, 0, 3, 0, 0, 2, 2, 0x44, 0x01, 0]
    gif += [0x2C, 1, 0, 1, 0, 4, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]
    let path = dir.appendingPathComponent("two.gif").path
    try Data(gif).write(to: URL(fileURLWithPath: path))
    let structure = try #require(GIFFinishing.structure(path))
    expectEqual(structure.images, 2)
    expectEqual(structure.pixels, 2 * 3 + 4 * 1)
    try Data(gif.dropLast(3)).write(to: URL(fileURLWithPath: path))
    #expect(GIFFinishing.structure(path) == nil, "a file cut short is no GIF")
  }

  /// The finishing step with an allowance below the estimate leaves ffmpeg's file as it is and
  /// says so; with room, gifsicle rewrites it smaller.
  @Test(.enabled(if: hasGifsicle)) func gifsicleRunsOnlyWithinItsAllowance() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let plain = dir.appendingPathComponent("plain.gif").path
    _ = try GIFBudgetTests.render(GIFBudgetTests.scene(), to: plain, optimizes: false)
    let ffmpegFile = try Data(contentsOf: URL(fileURLWithPath: plain))
    let pixels = try #require(GIFFinishing.structure(plain)).pixels
    let needed = GIFOptimizer.memory(file: ffmpegFile.count, pixels: pixels)
    for room in [needed - 1, needed] {
      let allowance = room
      let (result, kept) = try GIFOptimizerHeadroomTests.finish(
        ffmpegFile, in: dir, gifsicle: GIFOptimizer.locate(), allowance: allowance, headroom: nil)
      if room < needed {
        expectEqual(result.optimized?.skipped, GIFOptimizer.Skip(needed: needed, allowance: allowance))
        expectEqual(result.optimized?.after, ffmpegFile.count)
        expectEqual(kept, ffmpegFile, "ffmpeg's file is kept")
        #expect(result.images == nil, "the file was not rewritten")
      } else {
        expectEqual(result.optimized?.skipped, nil)
        expectLessOrEqual(kept.count, ffmpegFile.count, "gifsicle ran and kept the smaller file")
        expectEqual(result.optimized?.after, kept.count)
      }
    }
    try expectEqual(TestSupport.contents(dir), ["plain.gif"], "no temporary is left")
  }
}
