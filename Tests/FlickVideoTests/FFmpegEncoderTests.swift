import FlickMotion
import FlickScene
import FlickVideo
import Foundation
import Testing

@Suite struct FFmpegEncoderTests {
  @Test func formatFollowsTheExtension() {
    #expect(OutputFormat(path: "out/a.mp4") == .mp4)
    #expect(OutputFormat(path: "A.GIF") == .gif)
    #expect(OutputFormat(path: "movie") == nil)
    #expect(OutputFormat(path: "dir.mp4/movie") == nil)
  }

  @Test func oddSizesAreRefusedForMP4WithTheSizeToUse() {
    #expect(throws: VideoError.invalidSize(width: 641, height: 360, reason: "H.264 in yuv420p needs even sides; use 642×360")) {
      _ = try FFmpegEncoder(output: "/tmp/x.mp4", format: .mp4, width: 641, height: 360, fps: 30)
    }
  }

  @Test func aFailedRenderLeavesTheExistingDestinationUntouched() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-video-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = dir.appendingPathComponent("keep.mp4").path
    try Data("previous".utf8).write(to: URL(fileURLWithPath: good))
    // The second output's folder does not exist, so the whole run fails before any frame.
    let session = RenderSession(
      scene: Scene(size: Size(width: 64, height: 64), fps: 10, duration: 0.5),
      outputs: [good, dir.appendingPathComponent("missing/b.gif").path])
    #expect(throws: VideoError.self) { try session.run() }
    #expect(try Data(contentsOf: URL(fileURLWithPath: good)) == Data("previous".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["keep.mp4"])
  }
}
