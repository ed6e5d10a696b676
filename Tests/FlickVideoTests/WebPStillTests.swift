import FlickExpectations
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickVideo

/// A `.webp` is always an animated WebP (VP8X, ANIM with the loop count, ANMF frames lasting
/// the clip), as docs/video.md promises. For an opaque clip whose frames are all identical
/// `libwebp_anim` wrote a still image (one `VP8 ` chunk: no duration, no loop count) while Flick
/// reported the clip's frames and length; Flick now puts that image into the animated container.
@Suite struct WebPStillTests {
  /// The four-character names of a RIFF WebP's top-level chunks, in order.
  static func chunks(_ b: [UInt8]) -> [String] {
    var names: [String] = []
    var at = 12
    while at + 8 <= b.count {
      let size = Int(b[at + 4]) | Int(b[at + 5]) << 8 | Int(b[at + 6]) << 16 | Int(b[at + 7]) << 24
      names.append(String(decoding: b[at..<at + 4], as: UTF8.self))
      at += 8 + size + (size & 1)
    }
    return names
  }

  @Test(arguments: [(2.0, 10, 2), (0.5, 24, 0)])
  func anOpaqueClipOfIdenticalFramesIsAnAnimatedWebP(duration: Double, fps: Int, plays: Int) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = TestSupport.patchScene([.black], columns: 1, fps: fps, duration: duration)  // opaque, still
    var options = EncodingOptions()
    options.plays = plays
    var bytes: [[UInt8]] = []
    for name in ["a.webp", "b.webp"] {
      let path = dir.appendingPathComponent(name).path
      let session = RenderSession(scene: scene, outputs: [try OutputTarget(path: path)], options: options)
      try session.run()
      let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      expectEqual(Self.chunks(b), ["VP8X", "ANIM", "ANMF"], "\(name)")
      #expect(b.count > 20 && b[20] & 0x02 != 0, "the VP8X animation flag")
      let animation = try FormatProbeTests.webpAnimation(path)
      expectEqual(animation.frames, 1)
      expectEqual(animation.loops, plays)
      expectEqual(animation.width, session.width)
      expectEqual(animation.height, session.height)
      expectEqual(WebPTimingTests.durations(b).reduce(0, +), Int((duration * 1000).rounded()))
      expectEqual(Int(b[4]) | Int(b[5]) << 8 | Int(b[6]) << 16 | Int(b[7]) << 24, b.count - 8, "the RIFF size")
      if FileManager.default.isExecutableFile(atPath: "/usr/bin/webpmux") {
        let info = try ProcessRunner.run("/usr/bin/webpmux", ["-info", path])
        expectEqual(info.status, 0, "\(info.text) \(info.stderr)")
        #expect(info.text.contains("animation"), "\(info.text)")
        #expect(info.text.contains("Number of frames: 1"), "\(info.text)")
      }
      bytes.append(b)
    }
    expectEqual(bytes[0], bytes[1], "the same bytes every time")
  }
}

extension WebPStillTests {
  /// A RIFF WebP of the given chunks (tag, payload), each padded to an even length.
  static func riff(_ chunks: [(String, [UInt8])]) -> [UInt8] {
    var body = Array("WEBP".utf8)
    for (tag, payload) in chunks {
      body += Array(tag.utf8)
      body += [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8 & 0xFF), 0, 0]
      body += payload
      if payload.count & 1 == 1 { body.append(0) }
    }
    return Array("RIFF".utf8) + [UInt8(body.count & 0xFF), UInt8(body.count >> 8 & 0xFF), 0, 0] + body
  }

  /// A lossless still with alpha (its size and alpha bit read from the `VP8L` header) becomes one
  /// `ANMF` frame holding the chunk unchanged, with the alpha flag; a file with no image, or
  /// already animated, is left alone; a length over 24 bits of milliseconds takes two frames.
  @Test func aLosslessStillWithAlphaIsWrappedAsItIs() throws {
    // Width 10, height 5 (minus one, 14 bits each), then the alpha bit.
    let bits = 9 | 4 << 14 | 1 << 28
    let vp8l: [UInt8] = [0x2F] + (0..<4).map { UInt8(bits >> (8 * $0) & 0xFF) } + [7, 7]
    let still = Self.riff([("VP8L", vp8l)])
    let animated = try #require(WebPFrameEnd.animated(still, milliseconds: 1500, loops: 3))
    expectEqual(Self.chunks(animated), ["VP8X", "ANIM", "ANMF"])
    expectEqual(animated[20], 0x12, "animation and alpha")
    expectEqual(Array(animated[24..<30]), [9, 0, 0, 4, 0, 0], "a 10×5 canvas")
    expectEqual(WebPTimingTests.durations(animated), [1500])
    expectEqual(
      Array(animated.suffix(vp8l.count + 8 + 1)), Array(still.suffix(vp8l.count + 8 + 1)), "the image as it was")
    #expect(
      WebPFrameEnd.animated(Self.riff([("VP8X", [UInt8](repeating: 0, count: 10))]), milliseconds: 10, loops: 0) == nil)
    #expect(WebPFrameEnd.animated(animated, milliseconds: 1500, loops: 3) == nil)
    let long = try #require(WebPFrameEnd.animated(still, milliseconds: WebPFrameEnd.longestFrame + 5, loops: 0))
    expectEqual(WebPTimingTests.durations(long), [WebPFrameEnd.longestFrame, 5])
  }
}
