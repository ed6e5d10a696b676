import FlickMotion
import FlickScene
@testable import FlickVideo
import Foundation
import Testing

/// An MP4's ffmpeg reads packed BGR (3 bytes a pixel) instead of BGRA: the MP4 is byte for byte
/// the one the BGRA frames make.
@Suite struct PackedBGRTests {
  @Test func packingDropsTheAlphaByte() {
    var generator = SystemRandomNumberGenerator()
    for pixels in [0, 1, 2, 3, 4, 5, 7, 8, 9, 17, 1000] {
      let bgra = (0..<pixels * 4).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var out: [UInt8] = [9, 9]
      PackedBGR.pack(bgra, into: &out)
      let expected = (0..<pixels).flatMap { bgra[$0 * 4..<$0 * 4 + 3] }
      #expect(out == expected, "\(pixels) pixels")
    }
  }

  /// The MP4 ffmpeg makes from the frames as BGRA, with the arguments Flick used before.
  static func referenceMP4(_ scene: Scene, options: EncodingOptions, in dir: URL) throws -> Data {
    let raw = dir.appendingPathComponent("frames.bgra").path
    try RenderSession(scene: scene, outputs: [OutputTarget(path: raw, format: .bgra)]).run()
    var options = options
    options.padColor = RenderSession.rgb(scene.backgroundColor)
    let output = dir.appendingPathComponent("reference.mp4").path
    let command = try FFmpegCommand(
      format: .mp4, width: Int(scene.size.width), height: Int(scene.size.height), fps: scene.fps, options: options,
      output: output)
    var args = command.arguments.map { $0 == "pipe:0" ? raw : $0 }
    let i = try #require(args.firstIndex(of: "bgr24"))
    args[i] = "bgra"
    let r = try TestSupport.run("/usr/bin/env", ["ffmpeg"] + args)
    #expect(r.status == 0, "ffmpeg: \(r.stderr)")
    return try Data(contentsOf: URL(fileURLWithPath: output))
  }

  @Test(arguments: [false, true])
  func anMP4FromPackedBGRIsTheOneBGRAMakes(_ transparent: Bool) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // Holds too (frames that repeat are sent as the bytes before them).
    var scene = IdenticalFrameMergeTests.holdScene(fps: 30, background: transparent ? .clear : .white)
    scene.size = Size(width: 48, height: 24)
    let mp4 = dir.appendingPathComponent("a.mp4").path
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: mp4)], pipeline: RenderPipeline(jobs: 2)).run()
    #expect(try Data(contentsOf: URL(fileURLWithPath: mp4)) == Self.referenceMP4(scene, options: EncodingOptions(), in: dir))
    let moving = TestSupport.movingScene(width: 64, height: 48, fps: 25, duration: 1.2)
    try RenderSession(scene: moving, outputs: [try OutputTarget(path: mp4)], pipeline: RenderPipeline(jobs: 3)).run()
    #expect(try Data(contentsOf: URL(fileURLWithPath: mp4)) == Self.referenceMP4(moving, options: EncodingOptions(), in: dir))
  }
}
