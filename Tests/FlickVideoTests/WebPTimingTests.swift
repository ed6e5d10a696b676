import FlickExpectations
import FlickScene
import Foundation
import Testing

@testable import FlickVideo

/// An animated WebP times its frames in whole milliseconds: each frame starts at the millisecond
/// nearest its time (ffmpeg truncated them, so frames began up to 1 ms early), and the file plays
/// the render's length to within the 1 ms `libwebp_anim` cuts from the last frame.
@Suite struct WebPTimingTests {
  /// The lengths of a WebP's frames (ANMF chunks), in milliseconds.
  static func durations(_ data: [UInt8]) -> [Int] {
    var at = 12
    var durations: [Int] = []
    while at + 8 <= data.count {
      let size = Int(data[at + 4]) | Int(data[at + 5]) << 8 | Int(data[at + 6]) << 16 | Int(data[at + 7]) << 24
      if data[at..<at + 4].elementsEqual("ANMF".utf8), at + 23 <= data.count {
        durations.append(Int(data[at + 20]) | Int(data[at + 21]) << 8 | Int(data[at + 22]) << 16)
      }
      at += 8 + size + (size & 1)
    }
    return durations
  }

  @Test(arguments: [30, 12, 24, 60])
  func framesStartAtTheNearestMillisecond(_ fps: Int) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let webp = dir.appendingPathComponent("\(fps).webp").path
    // Motion at every frame for 1.5 s, so no two frames are merged into one.
    let scene = TestSupport.movingScene(width: 320, height: 24, fps: fps, duration: 1.5)
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: webp)]).run()
    let lengths = Self.durations([UInt8](try Data(contentsOf: URL(fileURLWithPath: webp))))
    try #require(lengths.count == scene.frameCount, "\(lengths.count) frames")
    var start = 0
    for (n, length) in lengths.enumerated() {
      let exact = Double(n) * 1000 / Double(fps)
      #expect(abs(Double(start) - exact) <= 0.5, "\(fps) fps: frame \(n) starts at \(start) ms, not \(exact)")
      start += length
    }
    let total = 1500
    #expect(start == total || start == total - 1, "\(fps) fps: \(start) ms for \(total)")
  }
}
