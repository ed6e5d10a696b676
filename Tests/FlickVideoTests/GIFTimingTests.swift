import FlickExpectations
import FlickScene
import Foundation
import Testing

@testable import FlickVideo

/// A GIF plays for the render's length, to the centisecond, at any rate: ffmpeg times each image
/// by its start and the next one's in centiseconds, and gave the last image the delay of the one
/// before, so a 1 s clip at 30 fps played 1.01 s and at 15 fps 0.99 s (`-final_delay` now).
@Suite struct GIFTimingTests {
  /// The delays of a GIF's images, in centiseconds, read block by block (the Graphic Control
  /// Extension before each image).
  static func delays(_ data: [UInt8]) throws -> [Int] {
    var at = 13
    let flags = data[10]
    if flags & 0x80 != 0 { at += 3 << (Int(flags & 7) + 1) }
    var delays: [Int] = []
    var pending: Int?
    func skipSubBlocks() {
      while at < data.count, data[at] != 0 { at += Int(data[at]) + 1 }
      at += 1
    }
    while at < data.count {
      switch data[at] {
      case 0x21:
        if data[at + 1] == 0xF9 { pending = Int(data[at + 4]) | Int(data[at + 5]) << 8 }
        at += 2
        skipSubBlocks()
      case 0x2C:
        let local = data[at + 9]
        at += 10
        if local & 0x80 != 0 { at += 3 << (Int(local & 7) + 1) }
        at += 1  // LZW minimum code size
        skipSubBlocks()
        delays.append(try #require(pending, "an image without a Graphic Control Extension"))
        pending = nil
      case 0x3B:
        return delays
      default:
        Issue.record("unexpected block \(data[at]) at \(at)")
        return delays
      }
    }
    return delays
  }

  @Test(arguments: [(30, nil), (15, nil), (12, nil), (24, nil), (60, 25), (60, 20), (50, nil)] as [(Int, Int?)])
  func aGIFPlaysForItsRenderLength(_ fps: Int, _ gifFPS: Int?) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for merges in [false, true] {
      var options = EncodingOptions()
      options.gifFPS = gifFPS
      options.mergesIdenticalFrames = merges
      options.optimizesGIF = false
      let gif = dir.appendingPathComponent("\(fps)-\(merges).gif").path
      // A second of motion, then a second of hold (one image when merged).
      var scene = TestSupport.movingScene(width: 32, height: 24, fps: fps, duration: 1)
      scene.duration = 2
      try RenderSession(scene: scene, outputs: [try OutputTarget(path: gif)], options: options).run()
      let delays = try Self.delays([UInt8](try Data(contentsOf: URL(fileURLWithPath: gif))))
      expectEqual(delays.reduce(0, +), 200, "\(fps) fps, GIF \(gifFPS ?? fps), merged \(merges): \(delays)")
      #expect(delays.allSatisfy { $0 > 0 }, "\(delays)")
    }
  }

  @Test func theFinalDelayIsWhatTheLengthLeaves() {
    func plan(_ renderFPS: Int, _ fps: Int, _ frames: Int) -> FrameSchedule.Output {
      FrameSchedule.Output(format: .gif, renderFPS: renderFPS, fps: fps, renderFrames: frames)
    }
    // 30 fps: images start at 0, 3, 7, 10 … 97 cs; a 1 s clip leaves 3.
    expectEqual(plan(30, 30, 30).gifFinalDelay, 3)
    // 15 fps: the last starts at 93 cs (14 × 6.67, rounded), leaving 7.
    expectEqual(plan(15, 15, 15).gifFinalDelay, 7)
    expectEqual(plan(12, 12, 12).gifFinalDelay, 8)
    expectEqual(plan(25, 25, 25).gifFinalDelay, 4)
    // Resampled: 90 frames at 60 fps as 25 fps, 38 images; the last starts at 148 cs of 150.
    expectEqual(plan(60, 25, 90).frameCount, 38)
    expectEqual(plan(60, 25, 90).gifFinalDelay, 2)
    // One frame: the whole length.
    expectEqual(plan(30, 30, 1).gifFinalDelay, 3)
    // 32 frames at 60 fps (53 cs) as 27 images at 50 fps: the last starts at 52 cs, and gets 2.
    expectEqual(plan(60, 50, 32).gifLeftover, 1)
    expectEqual(plan(60, 50, 32).gifFinalDelay, 2)
  }

  /// The centisecond ffmpeg rounds `frames / rate` seconds to (halves away from zero).
  static func centiseconds(_ frames: Int, _ rate: Int) -> Int { (frames * 200 + rate) / (2 * rate) }

  /// No image of any GIF is shown under 2 cs (which browsers stretch to 10 cs): for every length
  /// of 1…240 frames at 24, 30, 50, 60, 100 and 120 fps, at the GIF's default rate and at 25
  /// and 30 fps, the delays ffmpeg gives the images (the steps between their starts, rounded to
  /// centiseconds) and the final delay are all 2 or more. The total is the clip's length in
  /// centiseconds, or 1 cs more exactly when the length leaves the last image 1 cs. Resampled
  /// 60 fps renders ended on a 1 cs delay at 40 of the first 120 lengths.
  @Test func noImageIsShownUnderTwoCentiseconds() {
    var longer = 0
    for renderFPS in [24, 30, 50, 60, 100, 120] {
      let rates = Set([FrameSchedule.gifFPS(renderFPS: renderFPS, requested: nil), 25, 30].filter { $0 <= renderFPS })
      for fps in rates.sorted() {
        for frames in 1...240 {
          let plan = FrameSchedule.Output(format: .gif, renderFPS: renderFPS, fps: fps, renderFrames: frames)
          let images = plan.frameCount
          guard images > 0 else { continue }
          let steps = (0..<(images - 1)).map { Self.centiseconds($0 + 1, fps) - Self.centiseconds($0, fps) }
          let delays = steps + [plan.gifFinalDelay]
          let length = Self.centiseconds(frames, renderFPS)
          let total = delays.reduce(0, +)
          let context = "\(frames) frames at \(renderFPS) fps as a \(fps) fps GIF: \(delays)"
          #expect(delays.allSatisfy { $0 >= 2 }, "\(context)")
          #expect(total == length || (total == length + 1 && plan.gifLeftover == 1), "\(context)")
          if total != length { longer += 1 }
        }
      }
    }
    #expect(longer > 0)
  }

  /// The GIFs ffmpeg writes keep to that: 32 frames at 60 fps as a 50 fps GIF (the last image
  /// got 1 cs and played 0.62 s), 29 frames at 60 fps as a 30 fps GIF, 11 at 120 fps and 7 at
  /// 100 fps as 50 fps GIFs.
  @Test(arguments: [(60, nil, 32), (60, 30, 29), (120, nil, 11), (100, nil, 7)] as [(Int, Int?, Int)])
  func aResampledGIFEndsOnTwoCentisecondsOrMore(_ fps: Int, _ gifFPS: Int?, _ frames: Int) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = EncodingOptions()
    options.gifFPS = gifFPS
    options.mergesIdenticalFrames = false
    options.optimizesGIF = false
    let gif = dir.appendingPathComponent("a.gif").path
    var scene = TestSupport.movingScene(width: 32, height: 24, fps: fps, duration: 1)
    scene.duration = Double(frames) / Double(fps)
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: gif)], options: options).run()
    let delays = try Self.delays([UInt8](try Data(contentsOf: URL(fileURLWithPath: gif))))
    let length = Self.centiseconds(frames, fps)
    #expect(delays.allSatisfy { $0 >= 2 }, "\(delays)")
    #expect(delays.reduce(0, +) - length <= 1, "\(delays), clip \(length) cs")
  }
}
