@testable import FlickVideo
import FlickExpectations
import Testing

@Suite struct OutputFormatTests {
  @Test func formatFollowsTheExtension() {
    expectEqual(OutputFormat(path: "out/a.mp4"), .mp4)
    expectEqual(OutputFormat(path: "A.GIF"), .gif)
    expectEqual(OutputFormat(path: "a.webm"), .webm)
    expectEqual(OutputFormat(path: "a.mov"), .mov)
    expectEqual(OutputFormat(path: "a.apng"), .apng)
    expectEqual(OutputFormat(path: "a.webp"), .webp)
    expectEqual(OutputFormat(path: "frames/"), .png)
    expectEqual(OutputFormat(path: "frames/%04d.png"), .png)
    expectEqual(OutputFormat(path: "shot-%d.png"), .png)
    #expect(OutputFormat(path: "one.png") == nil)
    #expect(OutputFormat(path: "movie") == nil)
    #expect(OutputFormat(path: "dir.mp4/movie") == nil)
  }

  @Test func frameNamePatterns() throws {
    let folder = try #require(FrameNamePattern("out/frames/"))
    expectEqual(folder.directory, "out/frames")
    expectEqual(folder.fileName(7, lastIndex: 89), "0007.png")
    expectEqual(folder.fileName(7, lastIndex: 123_456), "000007.png")
    let printf = try #require(FrameNamePattern("out/shot-%03d.png"))
    expectEqual(printf.directory, "out")
    expectEqual(printf.prefix, "shot-")
    expectEqual(printf.fileName(7, lastIndex: 99_999), "shot-007.png")
    let bare = try #require(FrameNamePattern("f%d.png"))
    expectEqual(bare.directory, ".")
    expectEqual(bare.fileName(12, lastIndex: 100), "f12.png")
    #expect(FrameNamePattern("f%4d.png") == nil)  // space padding
    #expect(FrameNamePattern("f%04d.jpg") == nil)
    #expect(FrameNamePattern("f%04d-%02d.png") == nil)
  }

  @Test func explicitFormatTurnsAPlainPathIntoAFolder() {
    expectEqual(OutputTarget(path: "frames", format: .png).path, "frames/")
    expectEqual(OutputTarget(path: "clip.bin", format: .mp4).path, "clip.bin")
  }

  @Test func ffmpegVersionsAreParsedAndCompared() {
    expectEqual(FFmpegTool.parseVersion("ffmpeg version 5.1.9-0+deb12u1 Copyright (c)"), "5.1.9-0+deb12u1")
    #expect(FFmpegTool.numericVersion("5.1.9-0+deb12u1")! == (5, 1))
    #expect(FFmpegTool.numericVersion("n6.0")! == (6, 0))
    #expect(FFmpegTool.numericVersion("4.1.3")! < FFmpegTool.minimumVersion)
    #expect(FFmpegTool.numericVersion("N-112233-gabcdef") == nil)
  }
}

@Suite struct ProgressPrinterTests {
  @Test func jsonLinesCarryStageFrameTotalFPSAndETA() {
    let line = ProgressPrinter.json(
      RenderProgress(stage: .render, framesDone: 45, totalFrames: 90), fps: 61.8, eta: 0.728)
    expectEqual(line, #"{"stage":"render","frame":45,"total":90,"fps":61.80,"eta":0.73}"#)
  }

  @Test func barShowsCountsPercentRateAndETA() {
    let bar = ProgressPrinter.bar(RenderProgress(stage: .render, framesDone: 45, totalFrames: 90), fps: 30, eta: 75)
    #expect(bar.hasSuffix(" 45/90 50%  30.0 fps  ETA 1:15"))
    #expect(bar.hasPrefix(String(repeating: "█", count: 14) + String(repeating: "░", count: 14)))
    let finishing = ProgressPrinter.bar(
      RenderProgress(stage: .finish, framesDone: 90, totalFrames: 90), fps: 30, eta: 0)
    #expect(finishing.hasSuffix("finishing"))
    let second = ProgressPrinter.bar(
      RenderProgress(stage: .secondPass, framesDone: 120, totalFrames: 180), fps: 30, eta: 2)
    #expect(second.hasSuffix("GIF pass"))
    let json = ProgressPrinter.json(
      RenderProgress(stage: .secondPass, framesDone: 120, totalFrames: 180), fps: 30, eta: 2)
    #expect(json.hasPrefix(#"{"stage":"second-pass","frame":120,"total":180"#))
  }

  @Test func printerWritesOnlyInItsStyle() {
    final class Sink: @unchecked Sendable { var text = "" }
    let sink = Sink()
    let quiet = ProgressPrinter(style: .none) { sink.text += $0 }
    quiet.report(RenderProgress(stage: .done, framesDone: 1, totalFrames: 1))
    #expect(sink.text.isEmpty)
    let json = ProgressPrinter(style: .json) { sink.text += $0 }
    json.report(RenderProgress(stage: .render, framesDone: 0, totalFrames: 2))
    json.report(RenderProgress(stage: .render, framesDone: 2, totalFrames: 2))
    json.report(RenderProgress(stage: .done, framesDone: 2, totalFrames: 2))
    let lines = sink.text.split(separator: "\n")
    #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix("{\"stage\":") && $0.hasSuffix("}") })
    expectEqual(lines.last?.contains("\"stage\":\"done\""), true)
  }
}
