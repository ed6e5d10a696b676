import FlickExpectations
import FlickScene
import Foundation
import Testing

@testable import FlickVideo

/// An animated WebP times its frames in whole milliseconds: each frame starts at the millisecond
/// nearest its time (ffmpeg truncated them, so frames began up to 1 ms early), and the file plays
/// the render's length to the millisecond (`libwebp_anim` cut up to 1 ms from the last frame).
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
    expectEqual(start, 1500, "\(fps) fps: the frames end at \(start) ms")
  }

  /// A RIFF WebP of `anmf` frames with the given lengths (ms), each ANMF chunk 16 bytes of header
  /// and no image: enough structure for the last frame's length to be found and set.
  static func webp(_ lengths: [Int], trailing: [UInt8] = []) -> [UInt8] {
    var body = Array("WEBP".utf8)
    for ms in lengths {
      body += Array("ANMF".utf8) + [16, 0, 0, 0] + [UInt8](repeating: 0, count: 12)
      body += [UInt8(ms & 0xFF), UInt8(ms >> 8 & 0xFF), UInt8(ms >> 16 & 0xFF), 0]
    }
    body += trailing
    let size = body.count
    return Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), 0, 0] + body
  }

  /// The last frame is lengthened by the millisecond truncated, and nothing else is touched: a
  /// file already on time, a larger gap, a broken chunk list or a file that is not WebP stay as written.
  @Test func theLastFrameIsSetOnlyWithinAMillisecond() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("x.webp").path
    let cases: [([UInt8], Int, WebPFrameEnd.Outcome)] = [
      (Self.webp([42, 41, 41]), 125, .lengthened(from: 41, to: 42)),
      (Self.webp([42, 41, 42]), 125, .unchanged),
      (Self.webp([42, 41, 39]), 125, .skipped("the frames end at 122 ms, not within 1 ms of 125")),
      (Self.webp([42, 41], trailing: [1, 2, 3]), 84, .skipped("the chunks do not end with the file")),
      (Array("RIFF\0\0\0\0WAVE".utf8), 10, .skipped("not a RIFF WebP file")),
      (Self.webp([]), 10, .skipped("no ANMF chunk")),
    ]
    for (bytes, end, expected) in cases {
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      expectEqual(try WebPFrameEnd.end(path, at: end, destination: path), expected)
      let after = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      if case .lengthened(_, let to) = expected {
        expectEqual(Self.durations(after).last, to)
        expectEqual(after.count, bytes.count)
      } else {
        expectEqual(after, bytes)
      }
    }
  }
}
