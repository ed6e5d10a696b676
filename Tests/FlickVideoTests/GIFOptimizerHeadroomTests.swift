import FlickExpectations
import FlickMotion
import Foundation
import Testing

@testable import FlickVideo

/// Whether gifsicle runs on a GIF (and so the GIF's bytes) depends on the GIF alone: its
/// estimate against what an MP4 of the same size needs (GIFOptimizerMemoryTests). What the memory
/// watch leaves under `--max-memory` or a control group's limit when gifsicle would start is a
/// state of the machine: when it is less than gifsicle needs, `flick render` keeps the GIF as
/// Flick encoded it with a warning, and a batch job (`requiresGIFOptimizer`) fails, as when
/// gifsicle fails. It used to lower the allowance instead, so the same render under a tight cap
/// or on a node with a cgroup limit skipped gifsicle and wrote other bytes, silently, in a batch
/// job too. The headroom is injected (``GIFFinishing/headroom``), never the process's own.
@Suite struct GIFOptimizerHeadroomTests {
  static var hasGifsicle: Bool { GIFOptimizer.locate() != nil }

  /// ffmpeg's GIF of ``GIFBudgetTests/scene()`` (without gifsicle) and what gifsicle would need
  /// for it.
  static func ffmpegGIF(in dir: URL) throws -> (file: Data, needed: Int) {
    let plain = dir.appendingPathComponent("plain.gif").path
    _ = try GIFBudgetTests.render(GIFBudgetTests.scene(), to: plain, optimizes: false)
    let file = try Data(contentsOf: URL(fileURLWithPath: plain))
    let pixels = try #require(GIFFinishing.structure(plain)).pixels
    return (file, GIFOptimizer.memory(file: file.count, pixels: pixels))
  }

  /// Finishes `ffmpegFile` as `dir/out.gif` with `gifsicle`, the allowance `allowance` (nil: an
  /// MP4's), the watch leaving `headroom`, and gifsicle required or not: the result and the
  /// bytes kept.
  static func finish(
    _ ffmpegFile: Data, in dir: URL, gifsicle: GIFOptimizer?, allowance: Int? = nil,
    headroom: MemoryWatch.Headroom?, requiresGifsicle: Bool = false
  ) throws -> (result: GIFFinishing.Result, kept: Data) {
    let destination = dir.appendingPathComponent("out.gif").path
    let file = try EncodedFile(destination: destination, format: .gif)
    try ffmpegFile.write(to: URL(fileURLWithPath: file.path))
    let spool = try FrameSpool(path: file.sibling(".frames"), width: 160, height: 96, output: destination)
    defer {
      spool.remove()
      file.remove()
    }
    var options = EncodingOptions()
    options.requiresGIFOptimizer = requiresGifsicle
    let result = try GIFFinishing(
      file: file, spool: spool, fps: 50, width: 160, height: 96, options: options, repeats: nil,
      ffmpeg: try FFmpegTool.locate(for: [.gif]), optimizer: gifsicle, stallTimeout: 60,
      memoryAllowance: allowance, headroom: { headroom }
    ).run()
    return (result, try Data(contentsOf: URL(fileURLWithPath: file.path)))
  }

  /// With gifsicle's estimate within the allowance or just over it, the GIF kept and the skip
  /// noted are the same whether nothing is watched or the watch leaves ample room; and a GIF the
  /// allowance leaves out is left out the same way when the watch leaves nothing.
  @Test(.enabled(if: hasGifsicle)) func theHeadroomDoesNotChangeWhetherGifsicleRuns() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (ffmpegFile, needed) = try Self.ffmpegGIF(in: dir)
    let gifsicle = GIFOptimizer.locate()
    let ample = MemoryWatch.Headroom(bytes: 1 << 40, byGroup: false)
    for allowance in [needed - 1, needed] {
      let unwatched = try Self.finish(ffmpegFile, in: dir, gifsicle: gifsicle, allowance: allowance, headroom: nil)
      let watched = try Self.finish(ffmpegFile, in: dir, gifsicle: gifsicle, allowance: allowance, headroom: ample)
      expectEqual(watched.kept, unwatched.kept, "allowance \(allowance): the bytes follow the headroom")
      expectEqual(watched.result.optimized?.skipped, unwatched.result.optimized?.skipped, "allowance \(allowance)")
      expectEqual(watched.result.optimized?.after, unwatched.result.optimized?.after, "allowance \(allowance)")
      #expect(watched.result.gifsicleFailure == nil, "allowance \(allowance)")
    }
    for left in [0, -5, needed - 1] {
      for byGroup in [false, true] {
        let headroom = MemoryWatch.Headroom(bytes: left, byGroup: byGroup)
        let short = try Self.finish(
          ffmpegFile, in: dir, gifsicle: gifsicle, allowance: needed - 1, headroom: headroom, requiresGifsicle: true)
        expectEqual(
          short.result.optimized?.skipped, GIFOptimizer.Skip(needed: needed, allowance: needed - 1),
          "left \(left): the allowance's skip, as on any machine")
        expectEqual(short.kept, ffmpegFile, "left \(left)")
        #expect(short.result.gifsicleFailure == nil, "left \(left): a GIF left out on every machine fails nothing")
      }
    }
    try expectEqual(TestSupport.contents(dir), ["plain.gif"], "no temporary is left")
  }

  /// A GIF within the allowance but over what the watch leaves: gifsicle is not started (the one
  /// named here does not exist, so starting it would fail otherwise), the GIF stays as Flick
  /// encoded it, and the failure names what gifsicle needs and what the cap or the control group
  /// leaves, for the render's warning.
  @Test func aRenderWithTooLittleHeadroomKeepsTheGIFAndWarns() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (ffmpegFile, needed) = try Self.ffmpegGIF(in: dir)
    let gifsicle = GIFOptimizer(path: dir.appendingPathComponent("gifsicle").path)
    let destination = dir.appendingPathComponent("out.gif").path
    for byGroup in [false, true] {
      let left = MemoryWatch.Headroom(bytes: needed - 1, byGroup: byGroup)
      let (result, kept) = try Self.finish(ffmpegFile, in: dir, gifsicle: gifsicle, headroom: left)
      expectEqual(kept, ffmpegFile, "byGroup \(byGroup): the GIF is Flick's own")
      #expect(result.optimized == nil, "byGroup \(byGroup): not a skip")
      #expect(result.images == nil, "byGroup \(byGroup): the file was not rewritten")
      let failure = try #require(result.gifsicleFailure)
      expectEqual(
        failure,
        GIFOptimizer.Failure(
          gifsicle: gifsicle.path, destination: destination, cause: .memory(needed: needed, left: left)))
      let warning = failure.warning
      let amount = RenderLimits.format(bytes: needed)
      #expect(warning.hasPrefix("warning: gifsicle \(gifsicle.path) did not run on \(destination): "), "\(warning)")
      #expect(warning.contains("it would need about \(amount), more than the memory "), "\(warning)")
      #expect(warning.contains("leaves now (\(RenderLimits.format(bytes: needed - 1)); "), "\(warning)")
      #expect(warning.contains("fewer --jobs leave more"), "\(warning)")
      #expect(
        warning.contains("not the bytes (nor the size) a render with enough memory for gifsicle writes"), "\(warning)")
      #expect(!warning.contains("fix or remove that gifsicle"), "\(warning)")
      #expect(warning.contains("--max-memory raises the cap") == !byGroup, "\(warning)")
      #expect(warning.contains("control group") == byGroup, "\(warning)")
    }
    try expectEqual(TestSupport.contents(dir), ["plain.gif"], "no temporary is left")
  }

  /// The same shortfall in a batch job fails the output: its id names the gifsicle, and its stamp
  /// must not vouch for bytes that gifsicle did not make.
  @Test func aBatchJobWithTooLittleHeadroomFails() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (ffmpegFile, needed) = try Self.ffmpegGIF(in: dir)
    let gifsicle = GIFOptimizer(path: dir.appendingPathComponent("gifsicle").path)
    let destination = dir.appendingPathComponent("out.gif").path
    let left = MemoryWatch.Headroom(bytes: 1 << 20, byGroup: false)
    #expect(needed > left.bytes, "the fixture needs more than the room given")
    do {
      _ = try Self.finish(ffmpegFile, in: dir, gifsicle: gifsicle, headroom: left, requiresGifsicle: true)
      Issue.record("a batch job kept a GIF gifsicle did not optimise")
    } catch {
      expectEqual(
        "\(error)",
        "cannot write \(destination): gifsicle \(gifsicle.path) did not run: it would need about "
          + "\(RenderLimits.format(bytes: needed)), more than the memory cap leaves now (1 MiB; --max-memory "
          + "raises the cap, fewer --jobs leave more)")
    }
    try expectEqual(TestSupport.contents(dir), ["plain.gif"], "no temporary is left")
  }
}
